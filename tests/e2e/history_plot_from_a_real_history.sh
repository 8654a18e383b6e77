#!/usr/bin/env bash
# history_plot_from_a_real_history.sh - charts from a small real history:
# three runs of bench added as three commits, then `bench history plot` draws
# one chart per workload and all of them stacked (PNG magic bytes, an <svg
# element), with exactly one data line per case and commit; without --out the
# charts go to a folder beside the database; changes and export read the same
# history.
set -u
bench=${BENCH:?BENCH must name the bench executable}
command -v gnuplot >/dev/null || { echo "skip: gnuplot is not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-hplot-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
db=$work/h.sqlite

for i in 1 2 3; do
	"$bench" --strategy readwrite,copy_file_range --size 1M --repeat 3 --quiet \
		--dir "$work/data" --out "$work/r$i" >/dev/null 2>&1 || { echo "FAIL: run $i failed" >&2; exit 1; }
	"$bench" history add "$work/r$i" --commit "c$i" --branch main --db "$db" >/dev/null 2>&1 ||
		{ echo "FAIL: add $i failed" >&2; exit 1; }
done

"$bench" history plot --db "$db" --out "$work/charts" >"$work/plot.out" 2>"$work/plot.err"
rc=$?
[ $rc -eq 0 ] && ok || no "bench history plot exit $rc: $(cat "$work/plot.err")"
[ ! -s "$work/plot.err" ] && ok || no "plot wrote to stderr: $(cat "$work/plot.err")"
for chart in history history-copy history-limit; do
	png=$work/charts/$chart.png svg=$work/charts/$chart.svg
	[ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok ||
		no "$chart.png missing or not a PNG"
	[ -s "$svg" ] && grep -q '<svg' "$svg" && ok || no "$chart.svg missing or not an SVG"
	grep -qx "$chart: wrote $work/charts/$chart.png and .svg" "$work/plot.out" && ok ||
		no "no line for $chart in: $(cat "$work/plot.out")"
done
# 5 cases (2 copies, memcpy, memcpy-movsb, memcpy-mt) x 3 commits, no level shift in 3 commits
lines=$(grep -c '^[0-9]' "$work/charts/plot-history.dat")
[ "$lines" = 15 ] && ok || no "plot-history.dat has $lines data lines, expected 15"
[ "$(grep -c '^# copy/' "$work/charts/plot-history.dat")" = 2 ] && ok || no "not 2 copy blocks"

"$bench" history plot --db "$db" --case 'copy/readwrite*' >/dev/null 2>&1 && [ -s "$work/history/history-copy.png" ] &&
	ok || no "no chart in the default folder beside the database"
[ "$(grep -c '^[0-9]' "$work/history/plot-history.dat")" = 3 ] && ok || no "--case did not keep one case"

"$bench" history changes --db "$db" >"$work/changes.out" 2>&1 && ok || no "changes failed"
[ "$(grep -c ': no change over 3 commits$' "$work/changes.out")" = 5 ] && ok ||
	no "changes: $(cat "$work/changes.out")"
rows=$("$bench" history export --db "$db" | wc -l)
[ "$rows" = 46 ] && ok || no "export: $rows lines, expected a header and 5 cases x 3 reps x 3 runs"

echo "history_plot_real: $pass passed, $fail failed"
[ $fail -eq 0 ]
