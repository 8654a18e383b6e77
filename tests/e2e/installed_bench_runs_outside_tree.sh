#!/usr/bin/env bash
# installed_bench_runs_outside_tree.sh - `cmake --install` into a temporary
# prefix gives a bench that works from any directory: run from a folder
# outside the source tree, `bench --strategy readwrite --size 1M` and `bench
# plot` leave nothing there but results/, the datasets go to
# $XDG_CACHE_HOME/copybench (or ~/.cache/copybench), the gnuplot scripts come
# from the prefix's share/copybench/plots (a copy without them finds none: the
# source tree is not used), and bench clean empties the cache it filled.
set -u
bench=${BENCH:?BENCH must name the bench executable}
build=$(dirname "$(realpath "$bench")")
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

command -v cmake >/dev/null || { echo "skip: cmake is not installed"; exit 77; }
P=$work/prefix
cmake --install "$build" --prefix "$P" >"$work/install.log" 2>&1 && ok || no "cmake --install: $(tail -n 5 "$work/install.log")"
[ -x "$P/bin/bench" ] && ok || no "no $P/bin/bench"
[ -f "$P/share/copybench/plots/throughput.gp" ] && [ -f "$P/share/copybench/plots/common.gp" ] && ok ||
	no "no gnuplot scripts in $P/share/copybench/plots"
if command -v help2man >/dev/null; then
	grep -q '^\.SH SYNOPSIS' "$P/share/man/man1/bench.1" 2>/dev/null && ok || no "no man page with a synopsis"
fi

mkdir "$work/elsewhere" "$work/home" && cd "$work/elsewhere" || exit 1
export HOME=$work/home XDG_CACHE_HOME=$work/cache
"$P/bin/bench" --strategy readwrite --size 1M >"$work/run.out" 2>&1 && ok || no "run: $(tail -n 5 "$work/run.out")"
[ "$(ls -A)" = results ] && ok || no "the run left in its directory: $(ls -A | tr '\n' ' ')"
[ "$(ls "$work/cache/copybench" 2>/dev/null | tr '\n' ' ')" = "random-1048576-s1.dat random-1048576-s1.dat.manifest " ] &&
	ok || no "datasets not in \$XDG_CACHE_HOME/copybench: $(ls -R "$work/cache" 2>&1)"
if command -v gnuplot >/dev/null; then
	"$P/bin/bench" plot >"$work/plot.out" 2>&1 && ok || no "plot: $(tail -n 5 "$work/plot.out")"
	ls results/*/throughput.png >/dev/null 2>&1 && ok || no "no chart in results/: $(ls -R results)"
	[ "$(ls -A)" = results ] && ok || no "plot left in its directory: $(ls -A | tr '\n' ' ')"
	cp -r "$P" "$work/moved" && rm -r "$work/moved/share"
	"$work/moved/bin/bench" plot >"$work/moved.out" 2>&1
	[ $? = 1 ] && grep -qx 'bench plot: the gnuplot scripts (plots/\*.gp) were not found; set COPYBENCH_PLOTS_DIR to their folder' \
		"$work/moved.out" && ok || no "a copy without share/ found scripts elsewhere: $(cat "$work/moved.out")"
else
	echo "note: gnuplot is not installed: bench plot not tried"
fi

# Without $XDG_CACHE_HOME the cache is ~/.cache/copybench; clean empties it.
out=$(env -u XDG_CACHE_HOME "$P/bin/bench" clean)
[ "$out" = "bench clean: nothing to clean: $work/home/.cache/copybench does not exist" ] && ok || no "clean without XDG_CACHE_HOME: $out"
"$P/bin/bench" clean >"$work/clean.out" 2>&1 && ok || no "clean: $(cat "$work/clean.out")"
[ -z "$(ls -A "$work/cache/copybench")" ] && ok || no "clean left: $(ls -A "$work/cache/copybench")"

echo "installed_bench: $pass passed, $fail failed"
[ $fail -eq 0 ]
