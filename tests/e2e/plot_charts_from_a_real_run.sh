#!/usr/bin/env bash
# plot_charts_from_a_real_run.sh - charts from a small real run: two sizes,
# two buffers, warm and cold, so every chart but hyperfine's has data. Each
# chart is written as PNG (magic bytes) and SVG (an <svg element), non-empty;
# the hyperfine chart is skipped with a reason and not drawn; under LC_ALL=C
# or no locale at all, nothing is written to stderr. `bench --plot` draws them
# after the run.
. "$(dirname "$0")/../support/lib.sh"
command -v gnuplot >/dev/null || { echo "skip: gnuplot is not installed"; exit 77; }

"$BENCH" --strategy readwrite,splice,copy_file_range --buffer 64K,1M --size 1M,4M \
	--cache both --repeat 2 --quiet --dir "$T/data" --out "$T/res" >/dev/null 2>&1 ||
	{ echo "FAIL: the run failed" >&2; exit 1; }
"$BENCH" plot "$T/res" >"$T/plot.out" 2>&1
rc=$?
[ $rc -eq 0 ] && pass || fail "bench plot exit $rc: $(cat "$T/plot.out")"
charts="throughput buffer-sweep syscalls-vs-speed size-scaling warm-vs-cold cpu-split"
# cpu-split: a row under 5 clock ticks of CPU a run (1M and 4M copies take a
# few ms) is unsplit, its total in the last column, and named in the caveat;
# a row over it is split. No row is both.
dat=$T/res/plot-cpu-split.dat min_ms=$((5000 / $(getconf CLK_TCK)))
bad=$(awk -v min="$min_ms" '/^"/ { n = split($0, q, "\""); split(q[3], c, " ")
	if (c[4] > 0 ? (c[1] != 0 || c[2] != 0 || c[4] >= min) : (c[1] + c[2] < min)) print q[2] }' "$dat")
[ -s "$dat" ] && [ -z "$bad" ] && pass || fail "cpu-split rows split wrongly: ${bad:-no data}"
unsplit=$(awk '/^"/ { n = split($0, q, "\""); split(q[3], c, " "); if (c[4] > 0) print q[2] }' "$dat" |
	paste -sd, | sed 's/,/, /g')
want="nunsplit=$(awk '/^"/ { n = split($0, q, "\""); split(q[3], c, " "); k += c[4] > 0 } END { print k + 0 }' "$dat");"
grep -q "$want" "$dat" && pass || fail "cpu-split: not $want"
[ -z "$unsplit" ] || grep -qF "of CPU a run, too few for rusage to tell user from system: $unsplit\";" "$dat" &&
	pass || fail "cpu-split caveat does not name exactly: $unsplit"
for chart in $charts; do
	png=$T/res/$chart.png svg=$T/res/$chart.svg
	[ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && pass ||
		fail "$chart.png missing or not a PNG"
	[ -s "$svg" ] && grep -q '<svg' "$svg" && pass || fail "$chart.svg missing or not an SVG"
done
grep -q '^hyperfine: skipped: ' "$T/plot.out" && pass || fail "hyperfine chart not reported as skipped"
[ ! -e "$T/res/hyperfine.png" ] && pass || fail "an empty hyperfine chart was drawn"

# Charts do not depend on the user's locale: under LC_ALL=C, and with no
# locale variable at all (as in a build chroot), gnuplot says nothing.
for loc in C none; do
	if [ $loc = C ]; then
		env LC_ALL=C "$BENCH" plot "$T/res" >"$T/plot.out" 2>"$T/plot.err"
	else
		env -u LC_ALL -u LANG -u LANGUAGE -u LC_CTYPE -u LC_MESSAGES \
			"$BENCH" plot "$T/res" >"$T/plot.out" 2>"$T/plot.err"
	fi
	rc=$?
	[ $rc -eq 0 ] && pass || fail "locale $loc: bench plot exit $rc"
	[ ! -s "$T/plot.err" ] && pass || fail "locale $loc: bench plot wrote to stderr: $(head -c 300 "$T/plot.err")"
done

# bench --plot draws the same charts right after the run
"$BENCH" --strategy readwrite --size 1M --repeat 2 --no-limits --quiet --plot \
	--dir "$T/data" --out "$T/res2" >"$T/run2.out" 2>&1
rc=$?
[ $rc -eq 0 ] && pass || fail "bench --plot exit $rc: $(cat "$T/run2.out")"
[ -s "$T/res2/throughput.png" ] && pass || fail "bench --plot drew no throughput chart"

finish
