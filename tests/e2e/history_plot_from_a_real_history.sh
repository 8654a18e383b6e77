#!/usr/bin/env bash
# history_plot_from_a_real_history.sh - charts from a small real history:
# three runs of bench added as three commits, then `bench history plot` draws
# one chart per workload and all of them stacked (PNG magic bytes, an <svg
# element), with exactly one data line per case and commit; without --out the
# charts go to a folder beside the database; changes and export read the same
# history.
. "$(dirname "$0")/../support/lib.sh"
command -v gnuplot >/dev/null || { echo "skip: gnuplot is not installed"; exit 77; }
db=$T/h.sqlite

for i in 1 2 3; do
	"$BENCH" --strategy readwrite,copy_file_range --size 1M --repeat 3 --quiet \
		--dir "$T/data" --out "$T/r$i" >/dev/null 2>&1 || { echo "FAIL: run $i failed" >&2; exit 1; }
	"$BENCH" history add "$T/r$i" --commit "c$i" --branch main --db "$db" >/dev/null 2>&1 ||
		{ echo "FAIL: add $i failed" >&2; exit 1; }
done

"$BENCH" history plot --db "$db" --out "$T/charts" >"$T/plot.out" 2>"$T/plot.err"
rc=$?
[ $rc -eq 0 ] && pass || fail "bench history plot exit $rc: $(cat "$T/plot.err")"
[ ! -s "$T/plot.err" ] && pass || fail "plot wrote to stderr: $(cat "$T/plot.err")"
for chart in history history-copy history-limit; do
	png=$T/charts/$chart.png svg=$T/charts/$chart.svg
	[ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && pass ||
		fail "$chart.png missing or not a PNG"
	[ -s "$svg" ] && grep -q '<svg' "$svg" && pass || fail "$chart.svg missing or not an SVG"
	grep -qx "$chart: wrote $T/charts/$chart.png and .svg" "$T/plot.out" && pass ||
		fail "no line for $chart in: $(cat "$T/plot.out")"
done
# 5 cases (2 copies, memcpy, memcpy-movsb, memcpy-mt) x 3 commits, no level shift in 3 commits
lines=$(grep -c '^[0-9]' "$T/charts/plot-history.dat")
[ "$lines" = 15 ] && pass || fail "plot-history.dat has $lines data lines, expected 15"
[ "$(grep -c '^# copy/' "$T/charts/plot-history.dat")" = 2 ] && pass || fail "not 2 copy blocks"

"$BENCH" history plot --db "$db" --case 'copy/readwrite*' >/dev/null 2>&1 && [ -s "$T/history/history-copy.png" ] &&
	pass || fail "no chart in the default folder beside the database"
[ "$(grep -c '^[0-9]' "$T/history/plot-history.dat")" = 3 ] && pass || fail "--case did not keep one case"

"$BENCH" history changes --db "$db" >"$T/changes.out" 2>&1 && pass || fail "changes failed"
[ "$(grep -c ': no change over 3 commits$' "$T/changes.out")" = 5 ] && pass ||
	fail "changes: $(cat "$T/changes.out")"
rows=$("$BENCH" history export --db "$db" | wc -l)
[ "$rows" = 46 ] && pass || fail "export: $rows lines, expected a header and 5 cases x 3 reps x 3 runs"

finish
