#!/usr/bin/env bash
# input_errors_exit_2_everywhere.sh - a missing or unusable input is exit 2
# with one line, as the exit-code table of every --help says, whichever
# command meets it: bench plot without results or with a folder that is not
# one, a read-only --dir for a run and for bench list alike; and what is no
# error is not one (bench columns without --markdown, its only format).
. "$(dirname "$0")/../support/lib.sh"

# A copy of bench outside its build tree works as installed (results/ under
# the current directory), so the source tree's own results/ (a quick start
# leaves one there) cannot answer for it.
mkdir "$T/cwd" "$T/bin"
cp "$BENCH" "$T/bin/bench"
expect_fail plot_no_results 2 "bench plot: no results folder under results/; run bench first or name one" \
	bash -c 'cd "$1" && exec "$2" plot' sh "$T/cwd" "$T/bin/bench"
expect_fail plot_not_a_folder 2 "bench plot: '$T/none' is not a results folder" \
	"$BENCH" plot "$T/none"
if mount_tmpfs "$T/ro" 1M ro; then
	expect_fail run_read_only_dir 2 "bench: --dir '$T/ro': Read-only file system" \
		"$BENCH" --strategy readwrite --size 64K --no-limits --quiet --dir "$T/ro" --out "$T/res"
	expect_fail list_read_only_dir 2 "bench list: --dir '$T/ro': Read-only file system" \
		"$BENCH" list --dir "$T/ro"
else
	echo "note: no read-only tmpfs of our own (not root): the read-only checks are not run"
fi
# bench columns: Markdown is its one format, so --markdown may be left out
run "$BENCH" columns
expect_eq columns_rc "$RC" 0
expect_eq columns_same "$(cat "$T/.out")" "$("$BENCH" columns --markdown)"
finish
