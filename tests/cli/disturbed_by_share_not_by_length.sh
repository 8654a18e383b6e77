#!/usr/bin/env bash
# disturbed_by_share_not_by_length.sh - a run is disturbed when an outside cause took a
# meaningful share of its window (disturb.h), not when it was merely seen:
# the test hooks COPYBENCH_TEST_STEAL and COPYBENCH_TEST_REPORTING add a
# steady, made-up steal or reporting counter to the machine's, judged by the
# real rule, so a long run sees it more often than a short one. The
# fixture `throttled` (bench_fixtures) with COPYBENCH_THROTTLE_EVERY_OTHER_MS
# sleeps 100 ms in its first, third, ... copy, here the runs of odd `seq`
# (one case, no warm-up or counting run; a retry is the next run): two
# modes, 20-50x apart in length.
#  - a light load (steal 5 % of the machine; a 2 MiB report every 100 ms,
#    about 2.6 ms of host faults) leaves both modes counted and no slow run
#    disturbed: under an any-tick rule every slow run was left out, and the
#    slow mode vanished from the statistics;
#  - a heavy load (steal 75 %; 100 MiB/s reported, about 13 ms of host
#    faults a slow run) marks every slow run with its cause, so the causes
#    are judged on every machine; the case's retry budget (one a planned
#    run: 10) is spent on them.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures

# one_run NAME ENV=VALUE: the two-mode case under that made-up load; its
# runs as "seq wall_ms disturbed retried verified" in $T/NAME.runs
one_run() {
	local name=$1
	shift
	env "$@" COPYBENCH_THROTTLE_EVERY_OTHER_MS=100 "$BENCH_FIXTURES" --workload copy \
		--strategy throttled --size 4M --repeat 10 --warmup 0 --syscalls off \
		--no-limits --dir "$T/d" --out "$T/$name" >"$T/.out" 2>"$T/.err"
	RC=$?
	expect_eq "${name}_rc" "$RC" 0
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s %.0f %s %s %s\n", $c["seq"], $c["wall_ns"] / 1e6,
		  $c["disturbed"] == "" ? "-" : $c["disturbed"], $c["retried"], $c["verified"] }' \
		"$T/$name/runs.csv" >"$T/$name.runs"
}

# The mode of a run is known from its seq (odd: slow), not from its time,
# which a busy machine can stretch.
# counted NAME: "fast slow" counts of counted runs (verified, not retried)
counted() {
	awk '$4 == 0 && $5 == 1 { if ($1 % 2) s++; else f++ } END { print f + 0, s + 0 }' "$T/$1.runs"
}

# slow_marks NAME: the distinct `disturbed` values of the slow runs
slow_marks() {
	awk '$1 % 2 { print $3 }' "$T/$1.runs" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

for load in steal:COPYBENCH_TEST_STEAL=10 reporting:COPYBENCH_TEST_REPORTING=20480; do
	name=light_${load%%:*}
	one_run "$name" "${load#*:}"
	read -r fast slow <<<"$(counted "$name")"
	expect_eq "${name}_both_modes_counted" "$((fast >= 3 && slow >= 3)) $((fast + slow))" "1 10"
	expect_eq "${name}_slow_runs_not_disturbed" "$(slow_marks "$name")" "-"
done

for load in steal:COPYBENCH_TEST_STEAL=150 reporting:COPYBENCH_TEST_REPORTING=102400; do
	cause=${load%%:*}
	name=heavy_$cause
	one_run "$name" "${load#*:}"
	expect_eq "${name}_slow_runs_marked" "$(slow_marks "$name")" "$cause"
	expect_eq "${name}_retry_budget_spent" "$(awk '$4 == 1' "$T/$name.runs" | wc -l)" 10
done
finish
