#!/usr/bin/env bash
# options_done_or_said.sh - what a user asks for is done or said: an option the
# plan leaves without effect, or one that contradicts another, is one
# warning line on stderr (the run goes on); --export-json - writes the JSON
# to stdout (no file named -); bench clean --dry-run lists what it would
# remove and removes nothing.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1
D=$T/d

# warned ARGS...: the dry run's stderr, with ARGS.
warned() {
	run "$BENCH" --strategy readwrite --size 64K --dir "$D" --dry-run "$@"
	[ "$RC" = 0 ] || echo "exit $RC"
	cat "$T/.err"
}
expect_eq no_warning "$(warned)" ""
expect_eq repeat_max_runs "$(warned --repeat 2 --max-runs 5)" \
	"bench: warning: --max-runs is ignored: --repeat 2 fixes the runs of each case"
expect_eq batch_lines_copy "$(warned --batch-lines 5)" \
	"bench: warning: --batch-lines is ignored: no case of the transform workload is planned"
expect_eq files_copy "$(warned --files 10)" \
	"bench: warning: --files is ignored: no case of the tree workload is planned"
expect_eq drop_caches_warm "$(warned --drop-caches --cache warm)" \
	"bench: warning: --drop-caches is ignored: it drops caches for cold runs, and --cache warm has none"
expect_eq tiny_buffer "$(warned --buffer 3)" \
	"bench: warning: --buffer 3: under 512 bytes a copy is mostly system calls (one pair per 3 bytes)"
expect_eq buffer_unbuffered "$(warned --strategy copy_file_range --buffer 4K)" \
	"bench: warning: --buffer is ignored: no strategy or channel of the plan takes a buffer"
expect_eq files_with_tree "$(warned --workload tree --files 10 --size 4K)" ""

# --export-json -: the JSON on stdout, in place of the table
run "$BENCH" --strategy readwrite --size 64K --repeat 1 --warmup 0 --syscalls off --no-limits --quiet \
	--dir "$D" --out "$T/res" --export-json -
expect_eq export_stdout_rc "$RC" 0
expect_eq export_stdout_json "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["schema_version"] > 0)' "$T/.out" 2>&1)" True
expect_eq export_no_dash_file "$(ls -A "$T" | grep -cx -- -)" 0
expect_fail export_two_dashes 2 "bench: --export-csv '-': stdout already has another export" \
	"$BENCH" --strategy readwrite --size 64K --dir "$D" --out "$T/res2" --export-json - --export-csv -

# bench clean --dry-run: said, nothing removed
mkdir "$D/work-999999-abcdef"
before=$(snapshot "$D")
run "$BENCH" clean --dir "$D" --dry-run
expect_eq clean_dry_rc "$RC" 0
expect_eq clean_dry_kept "$(snapshot "$D")" "$before"
grep -qx "would remove $D/random-65536-s1.dat (64K)" "$T/.out" && pass || fail "clean dry: $(cat "$T/.out")"
grep -qx "would remove $D/work-999999-abcdef/ (the work directory of a killed run)" "$T/.out" && pass ||
	fail "clean dry workdir: $(cat "$T/.out")"
expect_eq clean_dry_summary "$(tail -n 1 "$T/.out")" \
	"bench clean: dry run: 2 files (64K), 1 work directory and 0 test filesystem folders would be removed from $D"
run "$BENCH" clean --dir "$D"
expect_eq clean_after "$(ls -A "$D")" ""
finish
