#!/usr/bin/env bash
# costs_block_counts_every_run.sh - at the end of a run bench says on stderr
# where the time went: one block, with a line per round whose run count is
# exact (warm-up runs, and measured runs = the rows of runs.csv) and a line
# per workload (all its runs); --quiet leaves it out.
. "$(dirname "$0")/../support/lib.sh"

common=(--workload copy --strategy readwrite,splice --size 1M --repeat 3 --warmup 2
	--syscalls off --no-limits --dir "$T/d")
run "$BENCH" "${common[@]}" --out "$T/a"
expect_eq rc "$RC" 0
expect_eq blocks "$(grep -c '^where the .* s went' "$T/.err")" 1
# runs_of NAME: the runs column of that line of the block
runs_of() { awk -v n="$1" '/^where the / { on = 1 } on && $1 == n { print $2 }' "$T/.err"; }
rows=$(($(wc -l <"$T/a/runs.csv") - 1))
expect_eq measured "$(runs_of measured)" "$rows"
expect_eq warmup "$(runs_of warm-up)" 4
expect_eq copy "$(runs_of copy)" $((rows + 4))
grep -Eq '^  timed [0-9.]+ of [0-9.]+ s \([0-9]+ %\)' "$T/.err" && pass || fail "no timed share: $(cat "$T/.err")"

run "$BENCH" "${common[@]}" --out "$T/b" --quiet
expect_eq quiet_rc "$RC" 0
expect_eq quiet_block "$(grep -c 'went' "$T/.err")" 0
finish
