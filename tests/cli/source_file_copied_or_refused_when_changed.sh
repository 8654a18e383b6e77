#!/usr/bin/env bash
# source_file_copied_or_refused_when_changed.sh - --source FILE times the copy
# strategies on the user's own file: no dataset is generated, every copy is
# verified against the hash taken before the run, the file is left as it was,
# and nothing is written beside it. A file that changes during the run is
# refused: one line, exit 1, no results (the fixture touch-source, run by
# bench_fixtures, changes its source after its copy, so the change is
# certain and needs no timing).
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
mkdir "$T/cwd" "$T/mine" && cd "$T/cwd" || exit 1
D=$T/d
F=$T/mine/photo.raw
head -c 300001 /dev/urandom >"$F"
before=$(sha256sum <"$F")
stamp=$(stat -c '%s %Y %Z %i' "$F")

run "$BENCH" --source "$F" --strategy readwrite,copy_file_range --repeat 2 --syscalls off \
	--no-limits --dir "$D" --out "$T/r" --quiet
expect_eq run_rc "$RC" 0
expect_eq rows "$(tail -n +2 "$T/r/summary.csv" | cut -d, -f1-4 | LC_ALL=C sort | tr '\n' ' ')" \
	"copy,copy_file_range,file,300001 copy,readwrite,file,300001 "
# every run verified (a run disturbed from outside is run again: 2 or more)
col() { head -n 1 "$T/r/summary.csv" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
expect_eq all_verified "$(tail -n +2 "$T/r/summary.csv" | cut -d, -f"$(col runs),$(col verified_runs)" |
	awk -F, '$1 >= 2 && $1 == $2 { n++ } END { print n }')" 2
expect_eq file_unchanged "$(sha256sum <"$F")" "$before"
expect_eq stamp_unchanged "$(stat -c '%s %Y %Z %i' "$F")" "$stamp"
expect_eq nothing_beside_it "$(ls -A "$T/mine")" "photo.raw"
expect_eq no_dataset_made "$(ls -A "$D")" ""
expect_eq nothing_in_cwd "$(ls -A)" ""
if command -v jq >/dev/null; then
	expect_eq meta_source "$(jq -c '.source | [.path, .size_bytes, (.xxh3 | length)]' "$T/r/meta.json")" \
		"[\"$F\",300001,16]"
fi

# Changed during the run: refused, nothing kept.
expect_eq refuse_rc "$("$BENCH_FIXTURES" --source "$F" --strategy touch-source --repeat 1 --warmup 0 \
	--syscalls off --no-limits --dir "$D" --out "$T/r2" --quiet >"$T/.out" 2>"$T/.err"; echo $?)" 1
expect_eq refuse_line "$(cat "$T/.err")" \
	"bench: --source '$F' changed during the run (its mtime changed): no results kept"
expect_eq refuse_no_results "$(ls -A "$T" | grep -c '^r2$')" 0
expect_eq refuse_no_table "$(cat "$T/.out")" ""

# What --source refuses before any work.
# refused NAME LINE SOURCE [ARGS...]: bench --source SOURCE ARGS exits 2
# saying LINE, and changes nothing.
refused() {
	local name=$1 line=$2
	shift 2
	expect_fail "$name" 2 "$line" "$BENCH" --source "$@" --dir "$D"
}
mkfifo "$T/mine/fifo"
: >"$T/mine/empty"
refused with_size "bench: --source copies your file as it is: --all, --dataset and --size do not go with it" \
	"$F" --size 1M
refused with_workload "bench: --source '$F' is a file: workload 'split' does not take one (copy does)" \
	"$F" --workload split
mkdir "$T/tree" && echo a >"$T/tree/a"
refused file_with_tree "bench: --source '$F' is a file: workload 'tree' does not take one (copy does)" \
	"$F" --workload tree
refused folder_with_copy "bench: --source '$T/tree' is a folder: workload 'copy' does not take one (tree does)" \
	"$T/tree" --workload copy
# the workload a source takes may be named
run "$BENCH" --source "$F" --workload copy --strategy readwrite --dir "$D" --dry-run
expect_eq file_with_copy "$RC" 0
run "$BENCH" --source "$T/tree" --workload tree --strategy readwrite --dir "$D" --dry-run
expect_eq folder_with_tree "$RC" 0
refused missing "bench: --source '$T/mine/none': No such file or directory" \
	"$T/mine/none"
refused directory_with_fifo "bench: --source '$T/mine': fifo: is a special file (trees of regular files and folders only)" \
	"$T/mine"
refused fifo "bench: --source '$T/mine/fifo': is not a regular file" \
	"$T/mine/fifo"
refused empty "bench: --source '$T/mine/empty': is empty" \
	"$T/mine/empty"
# A source of an odd size: its heading rounds it and keeps the exact count
head -c 3000000 /dev/zero >"$T/mine/odd.bin"
run "$BENCH" --source "$T/mine/odd.bin" --strategy readwrite --repeat 1 --warmup 0 --no-limits \
	--syscalls off --quiet --dir "$D" --out "$T/odd-res"
expect_eq odd_rc "$RC" 0
expect_eq odd_heading "$(grep -c '^copy · file · 2\.9M (3000000 bytes) · warm cache$' "$T/.out")" 1
finish
