#!/usr/bin/env bash
# budget_too_small_refused.sh - a --budget the minimum does not fit (every
# case's warm-up and 6 measured runs, at the estimated rates) is refused
# before anything runs: exit 2, one line saying what the minimum needs, and no
# dataset, work directory or results folder made. A budget that fits runs, and
# every case gets at least the minimum. Disturbed runs are rerun only while
# the budget lasts: with every run disturbed (the test hook), no run that
# began after the budget was spent is left out, and every case still has at
# least the minimum counted (more when the machine is quick enough to spend
# the budget on unsettled ranks). --repeat takes no budget.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1	# no results/ here: the default rates

common=(--workload copy --strategy readwrite,sendfile --size 1M --no-limits --syscalls off
	--dir "$T/d" --out "$T/r" --quiet)

expect_fail too_small 2 \
	"bench: --budget 0.05 s is too small for the minimum here: 2 cases, each 6 measured runs (a median and its 95 % interval) after its warm-up, need about 0.7 s at the estimated rates; give more, or --budget none" \
	"$BENCH" "${common[@]}" --budget 0.05s
expect_fail repeat_and_budget 2 \
	"bench: --repeat keeps fixed counts: it takes no --budget (or --budget none) (see bench --help)" \
	"$BENCH" "${common[@]}" --budget 2m --repeat 3

run "$BENCH" "${common[@]}" --budget 20s
expect_eq fits_rc "$RC" 0
runs=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s %s\n", $c["strategy"], ($c["counted_runs"] >= 6 ? "min" : $c["counted_runs"]) }' \
	"$T/r/summary.csv" 2>/dev/null | sort | tr '\n' ' ')
expect_eq every_case_minimum "$runs" "readwrite min sendfile min "

# every run disturbed: reruns while the budget lasts (1.5 s for the invocation,
# its end reserved: the rounds end before 1 s), then the disturbed runs count
COPYBENCH_TEST_DISTURB=100 run "$BENCH" "${common[@]}" --budget 1.5s --out "$T/r2"
expect_eq disturbed_rc "$RC" 0
late=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["retried"] == 1 && $c["start_ns"] >= 1000000000 { n++ } END { print n + 0 }' "$T/r2/runs.csv")
expect_eq no_rerun_after_budget "$late" 0
counted=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s %s\n", $c["strategy"], ($c["counted_runs"] >= 6 ? "min" : $c["counted_runs"]) }' \
	"$T/r2/summary.csv" | sort | tr '\n' ' ')
expect_eq disturbed_minimum "$counted" "readwrite min sendfile min "
finish
