#!/usr/bin/env bash
# retries_placed_later_budget_kept.sh - the retry path, driven by the test hook
# COPYBENCH_TEST_DISTURB (about PCT % of runs marked disturbed, cause `test`,
# drawn from --seed), so it runs on every machine:
#  - every run marked: each case leaves out exactly one run per planned run
#    (its budget), then keeps its disturbed runs, as recorded;
#  - some runs marked: a retried run is left out and the case gets another
#    run in a later round, in that round's shuffled place: not right after
#    the disturbed one (a handful may land there by chance, never most);
#  - no hook: no run says `test`.
. "$(dirname "$0")/../support/lib.sh"
D=$T/d

# rows R COLS [FILE]: FILE's (runs.csv's) columns by name, comma separated,
# header dropped.
rows() {
	awk -F, -v want="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(want, w, ","); next }
		{ s = ""; for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") $(c[w[i]]); print s }' "$1/${3:-runs.csv}"
}

COPYBENCH_TEST_DISTURB=100 run "$BENCH" --strategy readwrite,sendfile,mmap --size 64K --repeat 3 \
	--syscalls off --no-limits --dir "$D" --out "$T/all" --quiet
expect_eq all_rc "$RC" 0
expect_eq all_rows_per_case "$(rows "$T/all" strategy | sort | uniq -c | awk '{ print $1 }' | sort -u)" 6
expect_eq all_retried_per_case "$(rows "$T/all" strategy,retried | grep -c ',1$')" 9
expect_eq all_every_run_says_test "$(rows "$T/all" disturbed | sort -u)" test
expect_eq all_summary "$(rows "$T/all" strategy,runs,retried_runs,counted_runs summary.csv | sort)" \
	"$(printf 'mmap,6,3,3\nreadwrite,6,3,3\nsendfile,6,3,3')"

COPYBENCH_TEST_DISTURB=30 run "$BENCH" --strategy readwrite,sendfile,mmap,stdio,copy_file_range \
	--size 64K --repeat 6 --syscalls off --dir "$D" --out "$T/some" --quiet
expect_eq some_rc "$RC" 0
rows "$T/some" seq,strategy,retried,disturbed | sort -t, -k1,1n >"$T/order"
retried=$(grep -c ',1,' "$T/order")
# a retried run whose very next run is the same case's
next_same=$(awk -F, '{ if (prev_r == 1 && $2 == prev_s) n++; prev_s = $2; prev_r = $3 } END { print n + 0 }' "$T/order")
expect_eq some_retried "$([ "$retried" -ge 5 ] && echo yes)" yes
expect_eq retry_not_next "$([ $((next_same * 2)) -lt "$retried" ] && echo yes)" yes
expect_eq some_counted_all "$(rows "$T/some" strategy,counted_runs summary.csv | awk -F, '$2 != 6 { print $1 }')" ""
expect_eq some_retried_say_why "$(awk -F, '$3 == 1 && $4 == "" { print }' "$T/order")" ""

run "$BENCH" --strategy readwrite --size 64K --repeat 3 --syscalls off --no-limits --dir "$D" \
	--out "$T/none" --quiet
expect_eq none_rc "$RC" 0
expect_eq none_test "$(rows "$T/none" disturbed | grep -c test)" 0
finish
