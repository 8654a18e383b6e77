#!/usr/bin/env bash
# dirty_threshold_crossing_noted.sh - a row whose runs' output, with the
# machine's dirty memory at their start, crosses the dirty-background
# threshold says so at its end (writeback ran inside the clock: its cost per
# byte is not a page-cache copy's), and runs.csv marks each such run; below
# the threshold nothing is said; a device row keeps its own note. The
# threshold is set for bench alone with COPYBENCH_DIRTY_BACKGROUND (bytes): 1
# byte, which every output crosses, then 1 PiB, which none does.
. "$(dirname "$0")/../support/lib.sh"

NOTE="runs' output over the dirty-background threshold: writeback inside the clock"
common=(--workload copy --strategy readwrite,direct --size 4M --repeat 2 --warmup 0
	--syscalls off --no-limits --dir "$T/d" --quiet)
row() { awk -v s="$1" '/^copy · / { on = 1; next } on && $1 == s' "$T/.out"; }
# over_col DIR: the values of the over_dirty_threshold column of readwrite's
# runs (a disturbed run is retried: how many runs there are may vary)
over_col() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "strategy") s = i; if ($i == "over_dirty_threshold") o = i } }
		NR > 1 && $s == "readwrite" { print $o }' "$1/runs.csv" | sort -u | tr '\n' ' '
}

run env COPYBENCH_DIRTY_BACKGROUND=1 "$BENCH" "${common[@]}" --out "$T/a"
expect_eq rc "$RC" 0
row readwrite | grep -q "2/2 $NOTE\$" && pass || fail "readwrite not noted: $(row readwrite)"
row direct | grep -q 'device I/O around the page cache: not ranked with copies$' && pass ||
	fail "direct lost its note: $(row direct)"
expect_eq runs_csv_over "$(over_col "$T/a")" "1 "

run env COPYBENCH_DIRTY_BACKGROUND=1125899906842624 "$BENCH" "${common[@]}" --out "$T/b"
expect_eq below_rc "$RC" 0
row readwrite | grep -q threshold && fail "readwrite noted below: $(row readwrite)" || pass
expect_eq runs_csv_below "$(over_col "$T/b")" "0 "
finish
