#!/usr/bin/env bash
# command_twins_whole_process.sh - bench-S is the whole-process twin of a
# built-in row: a command row that runs this bench as `bench copy --strategy S
# {src} {dst}`, a tree method's name for a tree too, verified like any command
# row; a name bench copy does not know (or a tree method on a file) is listed
# unavailable with the reason. `bench copy` of a folder makes a verified copy
# of the tree, refuses an existing DST, and a tree method refuses a file. A
# command row's ratio to the fastest command carries the interval made of both
# medians' intervals, in summary.csv and in the table. Nothing is timed.
. "$(dirname "$0")/../support/lib.sh"
D=$T/d
QUICK=(--repeat 1 --warmup 0 --syscalls off --no-limits --dir "$D")

# summary_col NAME COLUMN (the command column's template holds no comma)
summary_col() {
	awk -F, -v s="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$2 == s { print $k }' "$T/$3/summary.csv"
}

run "$BENCH" --workload tree --files 150 --size 4K --strategy uring "${QUICK[@]}" --repeat 6 --out "$T/t" \
	--command bench-uring --command bench-readwrite --command bench-nope
expect_eq tree_rc "$RC" 0
expect_eq tree_uring_ok "$(summary_col bench-uring status t) $(summary_col bench-uring class t)" "ok command"
expect_eq tree_readwrite_ok "$(summary_col bench-readwrite status t)" ok
expect_eq tree_template "$(summary_col bench-uring command t | sed 's/^.* copy /copy /')" \
	"copy --strategy uring {src} {dst}"
# The slower twin's ratio to the faster carries the interval of the two
# medians' intervals: its low end over the pace's high end, and back.
slow=bench-uring fast=bench-readwrite
[ "$(summary_col bench-uring ratio_to_fastest t)" = 1.000 ] && slow=bench-readwrite fast=bench-uring
expect_eq ratio_lo "$(summary_col "$slow" ratio_lo t)" \
	"$(awk -v a="$(summary_col "$slow" median_lo_ns t)" -v b="$(summary_col "$fast" median_hi_ns t)" 'BEGIN { printf "%.3f", a / b }')"
expect_eq ratio_hi "$(summary_col "$slow" ratio_hi t)" \
	"$(awk -v a="$(summary_col "$slow" median_hi_ns t)" -v b="$(summary_col "$fast" median_lo_ns t)" 'BEGIN { printf "%.3f", a / b }')"
expect_eq pace_no_interval "$(summary_col "$fast" ratio_lo t)" ""
# (from the ns columns, as bench divides them: no rounding twice)
expect_eq ratio_in_table "$(awk -v s="$slow" '$1 == s' "$T/.out" | grep -c "; xfastest $(awk \
	-v a="$(summary_col "$slow" median_lo_ns t)" -v b="$(summary_col "$fast" median_hi_ns t)" \
	-v c="$(summary_col "$slow" median_hi_ns t)" -v d="$(summary_col "$fast" median_lo_ns t)" \
	'BEGIN { printf "%.2f-%.2fx", a / b, c / d }') (the medians' intervals)\$")" 1
expect_eq tree_unknown "$(grep -c 'bench-nope *unavailable: bench copy has no strategy or tree method named nope$' "$T/.out")" 1

run "$BENCH" --workload copy --size 64K --strategy copy_file_range "${QUICK[@]}" --out "$T/f" \
	--command bench-copy_file_range --command bench-uring
expect_eq file_rc "$RC" 0
expect_eq file_twin_ok "$(summary_col bench-copy_file_range status f)" ok
expect_eq file_tree_method "$(grep -c 'bench-uring *unavailable: bench copy has no strategy named uring$' "$T/.out")" 1

SRC=$(ls -d "$D"/tree-150x4096-s1)
run "$BENCH" copy --strategy pool "$SRC" "$T/copy"
expect_eq copy_tree_rc "$RC" 0
expect_eq copy_tree_same "$(diff -r "$SRC" "$T/copy" && echo same)" same
expect_eq copy_tree_files "$(find "$T/copy" -type f | wc -l)" 150
expect_fail copy_tree_exists 1 "bench copy: $T/copy exists; a tree is copied to a new folder" \
	"$BENCH" copy --strategy pool "$SRC" "$T/copy"
expect_fail copy_method_file 2 "bench copy: uring copies trees: $SRC.manifest is not a folder" \
	"$BENCH" copy --strategy uring "$SRC.manifest" "$T/one"
finish
