#!/usr/bin/env bash
# out_checked_before_the_run.sh - --out is checked before any work: one that
# cannot be written is refused (exit 2, one line) before a dataset is made, by
# the run and the dry run alike; one that holds the results of an earlier run
# is refused without --force, and --force replaces them, its old charts gone
# too, so that new CSVs never sit beside old charts. A name without a slash
# (--out R) is a folder of the current directory.
. "$(dirname "$0")/../support/lib.sh"

D="$T/d"
common=(--strategy readwrite --size 64K --repeat 1 --warmup 0 --syscalls off --no-limits --quiet)

if mount_tmpfs "$T/ro" 1M ro; then
	expect_fail read_only_out 2 "bench: --out '$T/ro/res': Read-only file system" \
		"$BENCH" "${common[@]}" --dir "$D" --out "$T/ro/res"
	expect_fail read_only_out_dry 2 "bench: --out '$T/ro/res': Read-only file system" \
		"$BENCH" "${common[@]}" --dir "$D" --out "$T/ro/res" --dry-run
	expect_fail read_only_out_itself 2 "bench: --out '$T/ro': Read-only file system" \
		"$BENCH" "${common[@]}" --dir "$D" --out "$T/ro"
else
	echo "note: no read-only tmpfs of our own (not root): the read-only checks are not run"
fi
echo x >"$T/file"
expect_fail out_under_a_file 2 "bench: --out '$T/file/res': $T/file is not a folder" \
	"$BENCH" "${common[@]}" --dir "$D" --out "$T/file/res"
# a name without a slash is a folder in the current directory: its parent is .
run bash -c 'cd "$1" && shift && exec "$@"' sh "$T" "$BENCH" "${common[@]}" --dir "$D" --out res1
expect_eq relative_out "$RC:$(cat "$T/.err")" 0:
expect_eq relative_out_written "$(cd "$T/res1" && ls meta.json runs.csv)" "meta.json
runs.csv"

run "$BENCH" "${common[@]}" --dir "$D" --out "$T/res"
expect_eq first_run "$RC" 0
touch "$T/res/throughput.png" "$T/res/cpu-split.svg" "$T/res/plot-throughput.dat" "$T/res/notes.txt"
expect_fail results_there 2 "bench: --out '$T/res': holds the results of an earlier run; choose another --out, or --force to replace them" \
	"$BENCH" "${common[@]}" --dir "$D" --out "$T/res"
expect_fail results_there_dry 2 "bench: --out '$T/res': holds the results of an earlier run; choose another --out, or --force to replace them" \
	"$BENCH" "${common[@]}" --dir "$D" --out "$T/res" --dry-run
run "$BENCH" "${common[@]}" --dir "$D" --out "$T/res" --force
expect_eq forced_run "$RC" 0
expect_eq forced_replaced "$(ls -A "$T/res" | tr '\n' ' ')" "meta.json notes.txt runs.csv summary.csv syscalls.csv "
# an empty folder is fine without --force
mkdir "$T/empty"
run "$BENCH" "${common[@]}" --dir "$D" --out "$T/empty"
expect_eq empty_out "$RC" 0
finish
