#!/usr/bin/env bash
# two_modes_flagged_in_summary_and_table.sh - a case whose runs fall into two
# modes is said to: the fixture `throttled` (bench_fixtures, tests/fixtures/)
# with COPYBENCH_THROTTLE_EVERY_OTHER_MS sleeps 100 ms in its first, third,
# ... copy, which in this invocation of one case, with no warm-up or
# counting run, are the runs of odd `seq`: its counted runs are exactly two
# modes, known in advance.
# summary.csv (and the JSON export) must say `modes` 2 with each mode's runs
# and median equal to those recomputed from the runs themselves (even seq:
# fast, odd seq: slow); the table must mark the row and print both modes under
# it, once. COPYBENCH_TEST_STEAL=0 keeps the machine's steal and reporting out
# (disturb.h): a disturbed slow run would be rerun as a fast one
# (tests/cli/disturbed_by_share_not_by_length.sh tests that rule on its own).
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
command -v jq >/dev/null || skip "jq is not installed (Debian: jq)"

COPYBENCH_TEST_STEAL=0 COPYBENCH_THROTTLE_EVERY_OTHER_MS=100 run "$BENCH_FIXTURES" --workload copy --strategy throttled \
	--size 4M --repeat 10 --warmup 0 --syscalls off --no-limits --dir "$T/d" --out "$T/r" \
	--export-json "$T/e.json"
expect_eq rc "$RC" 0
[ -f "$T/e.json" ] || { fail "no JSON export: $(cat "$T/.err")"; finish; }

# The runs' own split: counted runs (verified, not retried) by the parity of
# seq; "median runs" of each side, the median to the ns (bench rounds it).
split='.cases[0].runs | map(select(.verified and (.retried | not)))
	| map(select(.seq % 2 == $odd)) | map(.wall_ns) | sort
	| [(if length == 0 then 0 elif length % 2 == 1 then .[length / 2 | floor]
	    else (.[length / 2 - 1] + .[length / 2]) / 2 end), length]'
fast=$(jq -c --argjson odd 0 "$split" "$T/e.json")
slow=$(jq -c --argjson odd 1 "$split" "$T/e.json")
same='def near(a; b): (a - b) | fabs <= 1;
	.cases[0] | if .modes == 2 and near(.mode_fast_ns; $f[0]) and .mode_fast_runs == $f[1]
	and near(.mode_slow_ns; $s[0]) and .mode_slow_runs == $s[1] and $f[1] >= 3 and $s[1] >= 3
	then "same" else "\(.modes) \(.mode_fast_ns) \(.mode_fast_runs) \(.mode_slow_ns) \(.mode_slow_runs) vs \($f) \($s)" end'
expect_eq json_modes "$(jq -r --argjson f "$fast" --argjson s "$slow" "$same" "$T/e.json")" same
from_json=$(jq -r '.cases[0] | "\(.modes) \(.mode_fast_ns) \(.mode_fast_runs) \(.mode_slow_ns) \(.mode_slow_runs)"' "$T/e.json")

# summary.csv says what the JSON says (its one row; no quoted cells before these columns)
col() { head -1 "$T/r/summary.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
row=$(sed -n 2p "$T/r/summary.csv")
cells=""
for c in modes mode_fast_ns mode_fast_runs mode_slow_ns mode_slow_runs; do
	n=$(col "$c")
	[ -n "$n" ] || { fail "summary.csv has no column $c"; continue; }
	cells="$cells $(echo "$row" | cut -d, -f"$n" | sed 's/\.0*$//')"
done
expect_eq csv_modes "${cells# }" "$from_json"

# the table: the row marked, one line under it with both modes
expect_eq row_marked "$(grep -c '^  throttled .*  2 modes (below)$' "$T/.out")" 1
ms() { awk -v ns="$1" 'BEGIN { printf "%.1f ms", ns / 1e6 }'; }
read -r _ fns fruns sns sruns <<<"$from_json"
want="bench: copy/throttled random 4M buf 128K: two modes: $(ms "$fns") ($fruns runs) and $(ms "$sns") ($sruns runs); the median depends on which mode has more runs (docs/noise.md)"
expect_eq modes_line "$(grep 'two modes:' "$T/.out")" "$want"
finish
