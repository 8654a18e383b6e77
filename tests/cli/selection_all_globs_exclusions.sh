#!/usr/bin/env bash
# selection_all_globs_exclusions.sh - --strategy and --workload take names,
# `all`, patterns and exclusions, read left to right with the last match
# deciding; `all` and patterns never pick a test-only strategy; an item that
# matches nothing is one line on stderr, exit 2. What was selected is read
# from summary.csv (unavailable strategies have rows too). The selections
# are made by bench_fixtures, whose test-only fixtures (tests/fixtures/)
# `all` and patterns must pass over and a name picks.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
cd "$T" || exit 1
D=$T/d

# picked ARGS...: "workload/strategy" of every case the run planned, sorted.
# (called in $(...): a results folder of its own each time, by mktemp)
picked() {
	local out
	out=$(mktemp -u "$T/r-XXXXXX")
	"$BENCH_FIXTURES" --size 4K --repeat 1 --warmup 0 --syscalls off --no-limits --quiet \
		--dir "$D" --out "$out" "$@" >/dev/null 2>"$T/.err" || { echo "exit $?: $(cat "$T/.err")"; return; }
	tail -n +2 "$out/summary.csv" | cut -d, -f1,2 | tr , / | LC_ALL=C sort -u | tr '\n' ' '
}

# Every strategy bench list shows (the test-only ones it hides), as copy/NAME.
every=$("$BENCH_FIXTURES" list --dir "$T" | sed -n '/^strategies/,/^$/p' | grep -E '^  [a-z_-]+ +(available|unavailable) ' |
	awk '{print "copy/" $1}' | LC_ALL=C sort | tr '\n' ' ')
without_lines=$(echo "$every" | tr ' ' '\n' | grep -vx 'copy/lines' | grep . | tr '\n' ' ')
[ -n "$every" ] && [ "$every" != "$without_lines" ] || skip "bench list shows no strategies, or no lines"

expect_eq all_but_lines "$(picked --strategy 'all,-lines')" "$without_lines"
expect_eq exclusion_first_starts_from_default "$(picked --strategy '-lines')" "$without_lines"
expect_eq last_match_decides "$(picked --strategy '-lines,all')" "$every"
expect_eq star_is_all_but_hidden "$(picked --strategy '*')" "$every"
expect_eq glob_prefix "$(picked --strategy 'mmap*')" "copy/mmap copy/mmap-memcpy "
expect_eq glob_then_exclude "$(picked --strategy 'mmap*,-mmap-memcpy')" "copy/mmap "
expect_eq names_and_globs "$(picked --strategy 'readwrite,s[ep]*')" \
	"copy/readwrite copy/sendfile copy/splice "
expect_eq test_only_by_name "$(picked --strategy 'throttled')" "copy/throttled "
expect_eq workload_all_but "$(picked --workload 'all,-transform' --strategy readwrite)" \
	"copy/readwrite split/readwrite tree/readwrite "
expect_eq workload_glob "$(picked --workload 's*' --strategy readwrite)" "split/readwrite "
expect_eq all_flag_minus_workload "$(picked --all --workload '-copy,-split' --strategy pipe)" \
	"transform/pipe "

expect_fail glob_matches_nothing 2 "bench: --strategy 'nope*' matches no strategy or channel (bench list shows them all)" \
	"$BENCH" --strategy 'nope*' --dir "$D"
expect_fail unknown_exclusion 2 "bench: unknown strategy 'nope' (bench list shows them all)" \
	"$BENCH" --strategy 'all,-nope' --dir "$D"
expect_fail workload_glob_nothing 2 "bench: --workload 'x*' matches no workload (known: copy, split, transform, tree)" \
	"$BENCH" --workload 'x*' --dir "$D"
expect_fail nothing_left 2 "bench: nothing to run: --strategy 'all,-*' picks nothing in workload copy" \
	"$BENCH" --strategy 'all,-*' --no-limits --dir "$D"
# a tree method without the tree workload: where it is said
expect_fail tree_method_only 2 "bench: nothing to run: --strategy 'uring' matches nothing in workload copy, only in workload tree (add --workload tree)" \
	"$BENCH" --strategy uring --no-limits --dir "$D"
expect_fail methods_elsewhere 2 "bench: nothing to run: --strategy 'pool,pipe' matches nothing in workload copy, only in workload transform,tree (add --workload transform,tree)" \
	"$BENCH" --strategy pool,pipe --no-limits --dir "$D"
finish
