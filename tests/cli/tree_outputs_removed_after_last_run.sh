#!/usr/bin/env bash
# tree_outputs_removed_after_last_run.sh - the tree outputs kept until the end
# of an invocation (--destination fresh) are removed by a child at low
# priority that starts only after the last run's clock is over, while the
# results and the table are written, and bench waits for it before it exits:
# no run pays for the removal and nothing is left. The order comes from the
# COPYBENCH_TEST_EVENTS hook (a line per run when its child was reaped, a line
# per step of the removal, a line when the table was printed). Nothing is
# timed.
. "$(dirname "$0")/../support/lib.sh"
D=$T/d
FILES=300
LEAVES=100	# a generated tree of 100 files or more: 10 folders of 10 leaves

COPYBENCH_TEST_EVENTS="$T/events" run "$BENCH" --workload tree --files $FILES --size 4K \
	--strategy readwrite,uring --command cp --repeat 2 --warmup 1 --syscalls off --no-limits \
	--dir "$D" --out "$T/r"
expect_eq rc "$RC" 0
RUNS=$(($(wc -l <"$T/r/runs.csv") - 1))
expect_eq runs_logged "$(grep -c '^run ' "$T/events")" "$((RUNS + 3))"	# + the warm-ups

# line NAME: the line number of the event NAME (the last run: "run")
line() { grep -n "^$1" "$T/events" | tail -n 1 | cut -d: -f1; }
expect_eq removal_after_last_run "$(($(line 'remove begin') > $(line run)))" 1
expect_eq removal_before_table "$(($(line 'remove begin') < $(line table)))" 1
expect_eq removal_waited_last "$(tail -n 1 "$T/events")" "remove waited"
# best effort, its lowest level: (2 << 13) | 7
expect_eq remover_priority "$(grep '^remove start' "$T/events")" "remove start nice 19 ioprio 16391"
# every output of every run: its files, its 110 folders, its root and the
# folder it was made in (out-<seq>-XXXXXX), and the one area they were all
# made in (no log of freed inodes in a new --dir: no second area)
expect_eq removed_all "$(grep '^remove done' "$T/events")" \
	"remove done $(((RUNS + 3) * (FILES + LEAVES + 10 + 1 + 1) + 1))"
expect_eq nothing_left "$(find "$D" -mindepth 1 -maxdepth 1 -name 'work-*')" ""
finish
