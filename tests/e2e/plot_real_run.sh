#!/usr/bin/env bash
# plot_real_run.sh - charts from a small real run: two sizes, two buffers,
# warm and cold, so every chart but hyperfine's has data. Each chart is
# written as PNG (magic bytes) and SVG (an <svg element), non-empty; the
# hyperfine chart is skipped with a reason and not drawn; under LC_ALL=C or
# no locale at all, nothing is written to stderr. `bench --plot` draws them
# after the run.
set -u
bench=${BENCH:?BENCH must name the bench executable}
command -v gnuplot >/dev/null || { echo "skip: gnuplot is not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-plot-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

"$bench" --strategy readwrite,splice,copy_file_range --buffer 64K,1M --size 1M,4M \
	--cache both --repeat 2 --quiet --dir "$work/data" --out "$work/res" >/dev/null 2>&1 ||
	{ echo "FAIL: the run failed" >&2; exit 1; }
"$bench" plot "$work/res" >"$work/plot.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || no "bench plot exit $rc: $(cat "$work/plot.out")"
# cpu-split: 1M and 4M copies take a few ms of CPU, too few scheduler ticks
# for rusage to split, so it is skipped, saying so (drawn where a run is long)
charts="throughput buffer-sweep syscalls-vs-speed size-scaling warm-vs-cold"
if grep -q '^cpu-split: skipped: every row took under 20 ms of CPU a run' "$work/plot.out"; then
	[ ! -e "$work/res/cpu-split.png" ] && ok || no "a skipped cpu-split chart was drawn"
else
	charts="$charts cpu-split"
fi
for chart in $charts; do
	png=$work/res/$chart.png svg=$work/res/$chart.svg
	[ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok ||
		no "$chart.png missing or not a PNG"
	[ -s "$svg" ] && grep -q '<svg' "$svg" && ok || no "$chart.svg missing or not an SVG"
done
grep -q '^hyperfine: skipped: ' "$work/plot.out" && ok || no "hyperfine chart not reported as skipped"
[ ! -e "$work/res/hyperfine.png" ] && ok || no "an empty hyperfine chart was drawn"

# Charts do not depend on the user's locale: under LC_ALL=C, and with no
# locale variable at all (as in a build chroot), gnuplot says nothing.
for loc in C none; do
	if [ $loc = C ]; then
		env LC_ALL=C "$bench" plot "$work/res" >"$work/plot.out" 2>"$work/plot.err"
	else
		env -u LC_ALL -u LANG -u LANGUAGE -u LC_CTYPE -u LC_MESSAGES \
			"$bench" plot "$work/res" >"$work/plot.out" 2>"$work/plot.err"
	fi
	rc=$?
	[ $rc -eq 0 ] && ok || no "locale $loc: bench plot exit $rc"
	[ ! -s "$work/plot.err" ] && ok || no "locale $loc: bench plot wrote to stderr: $(head -c 300 "$work/plot.err")"
done

# bench --plot draws the same charts right after the run
"$bench" --strategy readwrite --size 1M --repeat 2 --no-limits --quiet --plot \
	--dir "$work/data" --out "$work/res2" >"$work/run2.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || no "bench --plot exit $rc: $(cat "$work/run2.out")"
[ -s "$work/res2/throughput.png" ] && ok || no "bench --plot drew no throughput chart"

echo "plot_real_run: $pass passed, $fail failed"
[ $fail -eq 0 ]
