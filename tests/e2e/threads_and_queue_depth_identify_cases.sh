#!/usr/bin/env bash
# threads_and_queue_depth_identify_cases.sh - --threads and --queue-depth are
# part of a case's identity: two runs that differ only in --threads give rows
# whose identifying columns differ (for the strategy that takes threads, and
# only for it), `bench check` does not compare one with the other, and `bench
# history` keeps them as two cases. A strategy that takes neither knob has 0
# in both columns whatever the options say.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1
D=$T/d

# col FILE NAME STRATEGY: the value of column NAME in STRATEGY's row of FILE.
col() {
	awk -F, -v name="$2" -v s="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		$2 == s { print $c; exit }' "$1"
}

for t in 1 2; do
	run "$BENCH" --strategy parallel,readwrite --threads $t --queue-depth 8 --size 64K --repeat 3 \
		--syscalls off --no-limits --quiet --dir "$D" --out "$T/t$t"
	expect_eq "run_threads_$t" "$RC $(head -c 200 "$T/.err")" "0 "
done
expect_eq parallel_threads_1 "$(col "$T/t1/summary.csv" threads parallel)" 1
expect_eq parallel_threads_2 "$(col "$T/t2/summary.csv" threads parallel)" 2
expect_eq parallel_no_queue_depth "$(col "$T/t2/summary.csv" queue_depth parallel)" 0
expect_eq readwrite_no_threads "$(col "$T/t2/summary.csv" threads readwrite)" 0
expect_eq readwrite_no_queue_depth "$(col "$T/t2/summary.csv" queue_depth readwrite)" 0
expect_eq runs_csv_too "$(col "$T/t2/runs.csv" threads parallel)" 2

# bench check: readwrite is the same case in both; parallel is not.
run "$BENCH" check --baseline "$T/t1" --current "$T/t2" --format csv
out=$(cat "$T/.out")
expect_eq check_readwrite_compared "$(echo "$out" | grep -c '^copy,readwrite,.*,0,0,')" 1
expect_eq check_parallel_kept_apart "$(echo "$out" | grep -c '^copy,parallel,')" 2

# bench check's table names the knob where it identifies the case.
run "$BENCH" check --baseline "$T/t1" --current "$T/t2"
expect_eq check_label_threads_1 "$(grep -c '^copy/parallel random 64K warm threads 1 .* missing ' "$T/.out")" 1
expect_eq check_label_threads_2 "$(grep -c '^copy/parallel random 64K warm threads 2 .* new ' "$T/.out")" 1

# bench history: two parallel cases (threads 1 and 2), one readwrite case.
for t in 1 2; do
	run "$BENCH" history add "$T/t$t" --commit "c$t" --branch main --db "$T/h.sqlite"
	expect_eq "history_add_$t" "$RC" 0
done
run "$BENCH" history export --table samples --db "$T/h.sqlite"
cases() {
	awk -F, -v s="$1" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "strategy") sc = i; if ($i == "threads") tc = i }; next }
		$sc == s { print $tc }' "$T/.out" | LC_ALL=C sort -u | tr '\n' ' '
}
expect_eq history_parallel_cases "$(cases parallel)" "1 2 "
expect_eq history_readwrite_cases "$(cases readwrite)" "0 "

# bench history check of the threads-2 folder: readwrite is judged against
# its earlier run; parallel threads 2 has no earlier run (new) and threads
# 1 none now (missing): neither is judged against the other's samples.
# One earlier run cannot clear readwrite: inconclusive, exit 3.
run "$BENCH" history check --current "$T/t2" --db "$T/h.sqlite" --allow-missing --format csv
hc=$(cat "$T/.out")
expect_eq history_check_ran "$RC" 3
expect_eq history_check_readwrite "$(echo "$hc" | grep -c '^copy,readwrite,.*,0,0,0,0,,-,1,1,.*,inconclusive,')" 1
expect_eq history_check_parallel_1_missing "$(echo "$hc" | grep -c '^copy,parallel,.*,1,0,0,0,,-,1,0,.*,missing,')" 1
expect_eq history_check_parallel_2_new "$(echo "$hc" | grep -c '^copy,parallel,.*,2,0,0,0,,-,0,1,.*,new,')" 1
finish
