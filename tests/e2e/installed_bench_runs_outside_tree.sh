#!/usr/bin/env bash
# installed_bench_runs_outside_tree.sh - `cmake --install` into a temporary
# prefix gives a bench that works from any directory: run from a folder
# outside the source tree, `bench --strategy readwrite --size 1M` and `bench
# plot` leave nothing there but results/, the datasets go to
# $XDG_CACHE_HOME/copybench (or ~/.cache/copybench), the gnuplot scripts come
# from the prefix's share/copybench/plots (a copy without them finds none: the
# source tree is not used), and bench clean empties the cache it filled.
. "$(dirname "$0")/../support/lib.sh"
build=$(dirname "$(realpath "$BENCH")")

command -v cmake >/dev/null || { echo "skip: cmake is not installed"; exit 77; }
P=$T/prefix
cmake --install "$build" --prefix "$P" >"$T/install.log" 2>&1 && pass || fail "cmake --install: $(tail -n 5 "$T/install.log")"
[ -x "$P/bin/bench" ] && pass || fail "no $P/bin/bench"
[ -f "$P/share/copybench/plots/throughput.gp" ] && [ -f "$P/share/copybench/plots/common.gp" ] && pass ||
	fail "no gnuplot scripts in $P/share/copybench/plots"
if command -v help2man >/dev/null; then
	grep -q '^\.SH SYNOPSIS' "$P/share/man/man1/bench.1" 2>/dev/null && pass || fail "no man page with a synopsis"
fi

mkdir "$T/elsewhere" "$T/home" && cd "$T/elsewhere" || exit 1
export HOME=$T/home XDG_CACHE_HOME=$T/cache
"$P/bin/bench" --strategy readwrite --size 1M >"$T/run.out" 2>&1 && pass || fail "run: $(tail -n 5 "$T/run.out")"
[ "$(ls -A)" = results ] && pass || fail "the run left in its directory: $(ls -A | tr '\n' ' ')"
[ "$(ls "$T/cache/copybench" 2>/dev/null | tr '\n' ' ')" = "random-1048576-s1.dat random-1048576-s1.dat.manifest " ] &&
	pass || fail "datasets not in \$XDG_CACHE_HOME/copybench: $(ls -R "$T/cache" 2>&1)"
if command -v gnuplot >/dev/null; then
	"$P/bin/bench" plot >"$T/plot.out" 2>&1 && pass || fail "plot: $(tail -n 5 "$T/plot.out")"
	ls results/*/throughput.png >/dev/null 2>&1 && pass || fail "no chart in results/: $(ls -R results)"
	[ "$(ls -A)" = results ] && pass || fail "plot left in its directory: $(ls -A | tr '\n' ' ')"
	cp -r "$P" "$T/moved" && rm -r "$T/moved/share"
	"$T/moved/bin/bench" plot >"$T/moved.out" 2>&1
	[ $? = 1 ] && grep -qx 'bench plot: the gnuplot scripts (plots/\*.gp) were not found; set COPYBENCH_PLOTS_DIR to their folder' \
		"$T/moved.out" && pass || fail "a copy without share/ found scripts elsewhere: $(cat "$T/moved.out")"
else
	echo "note: gnuplot is not installed: bench plot not tried"
fi

# Without $XDG_CACHE_HOME the cache is ~/.cache/copybench; clean empties it.
out=$(env -u XDG_CACHE_HOME "$P/bin/bench" clean)
[ "$out" = "bench clean: nothing to clean: $T/home/.cache/copybench does not exist" ] && pass || fail "clean without XDG_CACHE_HOME: $out"
"$P/bin/bench" clean >"$T/clean.out" 2>&1 && pass || fail "clean: $(cat "$T/clean.out")"
[ -z "$(ls -A "$T/cache/copybench")" ] && pass || fail "clean left: $(ls -A "$T/cache/copybench")"

finish
