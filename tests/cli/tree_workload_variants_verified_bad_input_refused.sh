#!/usr/bin/env bash
# tree_workload_variants_verified_bad_input_refused.sh - the tree workload:
# every per-file variant and tree method copies a generated tree and a tree of
# the user's holding every kind of entry a copy must handle (empty files and
# folders, a file past 1 MiB, names with a newline and with bytes that are not
# UTF-8, a path longer than PATH_MAX), and each output is verified and
# removed; one wrong byte in one file fails verification with a line naming
# the file; files and file_size identify the case; and what a tree may not
# hold (a symlink, a special file, an entry that cannot be read), a tree that
# changes during the run and a filesystem that fills half-way are each one
# clear line, leaving nothing.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
mkdir "$T/cwd" && cd "$T/cwd" || exit 1
D=$T/d
QUICK=(--repeat 1 --warmup 0 --syscalls off --no-limits --quiet)

col() { head -n 1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
# rows of summary.csv by status: ok / failed / unavailable
statuses() {
	local s=$1/summary.csv
	tail -n +2 "$s" | cut -d, -f"$(col "$s" status)" | sed 's/:.*//' | LC_ALL=C sort | uniq -c |
		awk '{ printf "%s=%s ", $2, $1 }'
}
# (bench's log of the flex groups it freed, .freed-inodes, is kept on purpose:
# docs/tree.md "The destination")
# ok_or_unavailable NAME SUMMARY: every variant's row of SUMMARY is ok or
# unavailable; nvar, nok and nunav are how many rows, and of each status.
ok_or_unavailable() {
	local status
	status=$(tail -n +2 "$2" | cut -d, -f"$(col "$2" status)")
	nvar=$(tail -n +2 "$2" | wc -l)
	nok=$(grep -c '^ok$' <<<"$status")
	nunav=$(grep -c '^unavailable' <<<"$status")
	expect_eq "$1_all_ok_or_unavailable" "$((nok + nunav))" "$nvar"
}
leftovers() { find "$D" -mindepth 1 -maxdepth 1 ! -name 'tree-*' ! -name .freed-inodes -printf '%f\n' |
	LC_ALL=C sort | tr '\n' ' '; }

# --- a generated tree, every variant -------------------------------------
run "$BENCH" --workload tree --files 150 --size 4K "${QUICK[@]}" --dir "$D" --out "$T/r1"
expect_eq gen_rc "$RC" 0
S=$T/r1/summary.csv
ok_or_unavailable gen "$S"
expect_eq gen_has_inode_order "$(tail -n +2 "$S" | cut -d, -f2 | grep -cx inode-order)" 1
expect_eq gen_has_readwrite "$(tail -n +2 "$S" | cut -d, -f2 | grep -cx readwrite)" 1
# by default a tree runs the tree methods and the per-file techniques that
# differ (STRATEGY_TREE_DEFAULT); --strategy all runs every strategy
expect_eq gen_default_set "$(tail -n +2 "$S" | cut -d, -f2 | LC_ALL=C sort | xargs)" \
	"copy_file_range inode-order pool readwrite sendfile uring"
run "$BENCH" --workload tree --files 150 --size 4K --strategy all --dry-run --dir "$D"
expect_eq all_has_stdio "$(grep -c '^tree  *stdio ' "$T/.out")" 1
# the dry run's size column names a tree as the table does: files x size
expect_eq dry_tree_size "$(grep -c '^tree  *stdio  *150 x 4K ' "$T/.out")" 1
# warm: every file whole in the page cache, the most resident one too
expect_eq gen_file_max "$(tail -n +2 "$T/r1/runs.csv" | cut -d, -f"$(col "$T/r1/runs.csv" file_resident_max_pct)" | sort -u)" 100.0
# the tree methods that schedule files themselves: ok, or unavailable saying why
for m in pool uring; do
	expect_eq "gen_method_$m" "$(tail -n +2 "$S" | grep "^tree,$m," | cut -d, -f"$(col "$S" status)" |
		sed 's/^unavailable: ..*/unavailable/' | grep -Ec '^(ok|unavailable)$')" 1
done
expect_eq gen_identity "$(tail -n +2 "$S" | grep '^tree,readwrite,' |
	cut -d, -f"$(col "$S" dataset),$(col "$S" size_bytes),$(col "$S" files),$(col "$S" file_size)")" \
	"tree,614400,150,4096"
expect_eq gen_files_per_s "$(tail -n +2 "$S" | grep '^tree,readwrite,' | cut -d, -f"$(col "$S" files_per_s)" |
	awk '{ print ($1 > 0) }')" 1
expect_eq gen_nothing_left "$(leftovers)" ""
expect_eq gen_dataset "$(ls "$D" | tr '\n' ' ')" "tree-150x4096-s1 tree-150x4096-s1.manifest "

# cold: every file evicted and checked; folders and inodes stay cached, said
run "$BENCH" --workload tree --files 40 --strategy readwrite --cache cold --repeat 1 --warmup 0 \
	--syscalls off --no-limits --dir "$D" --out "$T/rc"
expect_eq cold_rc "$RC" 0
expect_eq cold_said "$(grep -c 'files evicted; folders and inodes stay cached' "$T/.out")" 1
# every run cold, a rerun of a disturbed one too (then two rows)
expect_eq cold_resident "$(awk -F, -v c="$(col "$T/rc/runs.csv" resident_pct)" \
	'NR > 1 { n++; if ($c > 1) hot++ } END { print (n >= 1 && !hot) }' "$T/rc/runs.csv")" 1
# and no single file left resident: the largest per-file share is recorded
expect_eq cold_file_max "$(awk -F, -v c="$(col "$T/rc/runs.csv" file_resident_max_pct)" \
	'NR > 1 { n++; if ($c != "0.0") hot++ } END { print (n >= 1 && !hot) }' "$T/rc/runs.csv")" 1
expect_eq cold_metadata "$(cut -d, -f"$(col "$T/rc/summary.csv" metadata)" "$T/rc/summary.csv" | tail -n +2)" cached

# bench check tells tree cases by their files and file size
run "$BENCH" check --baseline "$T/r1" --current "$T/r1"
expect_eq check_label "$(grep -c '^tree/readwrite tree 600K buf 128K warm 150 x 4K ' "$T/.out")" 1

# the source-tree mix is a size of its own, and not for one file
run "$BENCH" --workload tree --files 60 --size src --strategy readwrite "${QUICK[@]}" --dir "$D" --out "$T/r2"
expect_eq src_rc "$RC" 0
expect_eq src_identity "$(tail -n +2 "$T/r2/summary.csv" | cut -d, -f"$(col "$T/r2/summary.csv" file_size)")" "src"
expect_fail src_for_copy 2 "bench: --size src is a mix of file sizes for trees: workload 'copy' copies one file" \
	"$BENCH" --workload copy --size src --dir "$D"

# files/s and MiB/s against the file size: the tree chart
run "$BENCH" --workload tree --files 30 --size 1K,8K --strategy readwrite,inode-order "${QUICK[@]}" \
	--dir "$D" --out "$T/rp"
expect_eq chart_run_rc "$RC" 0
if command -v gnuplot >/dev/null; then
	run "$BENCH" plot "$T/rp"
	expect_eq chart_drawn "$(grep -c '^tree-files: wrote' "$T/.out")" 1
	expect_eq chart_points "$(grep -v '^#' "$T/rp/plot-tree-files.dat" | grep -c .)" 4
fi
# one size of file: drawn around it, without gnuplot's "empty x range"
run "$BENCH" --workload tree --files 30 --size 4K --strategy readwrite "${QUICK[@]}" \
	--dir "$D" --out "$T/rq"
if command -v gnuplot >/dev/null; then
	run "$BENCH" plot "$T/rq"
	expect_eq chart_one_size_drawn "$(grep -c '^tree-files: wrote' "$T/.out")" 1
	expect_eq chart_one_size_quiet "$(grep -c 'empty x range' "$T/.err")" 0
fi

# --all runs the tree workload on its own 500 x 4K, whatever --size says
run "$BENCH" --all --size 1M --dry-run --dir "$T/dry"
expect_eq all_tree_size "$(grep -c 'tree-500x4096-s1 *500 x 4K' "$T/.out")" 1
expect_eq all_dry_made_nothing "$(ls -A "$T" | grep -c '^dry$')" 0

# --- one wrong byte --------------------------------------------------------
run "$BENCH_FIXTURES" --workload tree --files 150 --size 4K --strategy corrupt "${QUICK[@]}" --dir "$D" --out "$T/r3"
expect_eq corrupt_rc "$RC" 1
expect_eq corrupt_status "$(tail -n +2 "$T/r3/summary.csv" | cut -d, -f"$(col "$T/r3/summary.csv" status)" |
	sed 's/content hash [0-9a-f]*/content hash H/; s/source.s [0-9a-f]*/source H/')" \
	"failed: verification failed: output d0/d0/f0: content hash H differs from the source H"
expect_eq corrupt_nothing_left "$(leftovers)" ""

# --- the user's tree with every kind of entry -----------------------------
U=$T/mine
mkdir -p "$U/a/b/c" "$U/empty-dir" "$U/deep"
: >"$U/empty"
head -c 4097 /dev/urandom >"$U/a/odd"
head -c $((2 * 1024 * 1024 + 3)) /dev/urandom >"$U/a/b/big"
head -c 100 /dev/urandom >"$U/a/b/c/$(printf 'new\nline')"
head -c 100 /dev/urandom >"$U/a/$(printf 'bad\xff\xfeutf8')"
# a path past PATH_MAX (4096): 20 folders of 250 bytes, made one at a time
long=$(printf 'x%.0s' {1..250})
(cd "$U/deep" && for _ in $(seq 20); do mkdir "$long" && cd "$long" || exit 1; done &&
	head -c 5000 /dev/urandom >leaf) || fail "could not make the deep path"
before=$(cd "$U" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum 2>/dev/null | sha256sum)
run "$BENCH" --source "$U" "${QUICK[@]}" --dir "$D" --out "$T/r4"
expect_eq own_rc "$RC" 0
S=$T/r4/summary.csv
ok_or_unavailable own "$S"
expect_eq own_some_ran "$((nok >= 6))" 1
expect_eq own_identity "$(tail -n +2 "$S" | grep '^tree,readwrite,' | cut -d, -f"$(col "$S" dataset),$(col "$S" files)")" \
	"dir,6"
expect_eq own_unchanged "$(cd "$U" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum 2>/dev/null | sha256sum)" "$before"
expect_eq own_nothing_made "$(leftovers)" ""

# changed during the run: refused, nothing kept
run "$BENCH_FIXTURES" --source "$U" --strategy touch-source "${QUICK[@]}" --dir "$D" --out "$T/r5"
expect_eq changed_rc "$RC" 1
expect_eq changed_line "$(cat "$T/.err")" \
	"bench: --source '$U' changed during the run (its tree hash): no results kept"
expect_eq changed_no_results "$(ls -A "$T" | grep -c '^r5$')" 0
expect_eq changed_nothing_left "$(leftovers)" ""

# --- the filesystem fills half-way: out of inodes, bytes to spare ---------
if mount_tmpfs "$T/small" "64M,nr_inodes=12"; then
	run "$BENCH" --source "$U" --strategy readwrite "${QUICK[@]}" --dir "$T/small" --out "$T/r6"
	expect_eq enospc_rc "$RC" 1
	expect_eq enospc_status "$(tail -n +2 "$T/r6/summary.csv" | cut -d, -f"$(col "$T/r6/summary.csv" status)" |
		grep -c 'No space left on device')" 1
	expect_eq enospc_nothing_left "$(ls -A "$T/small")" ""
fi

rm -r "$U"	# its odd names would make the snapshots of expect_fail binary

# --- what a tree may not hold ---------------------------------------------
B=$T/bad
mkdir -p "$B/sub" && head -c 10 /dev/urandom >"$B/sub/f"
ln -s /etc/passwd "$B/sub/link"
expect_fail symlink 2 "bench: --source '$B': sub/link: is a symbolic link (trees of regular files and folders only)" \
	"$BENCH" --source "$B" --dir "$D"
rm "$B/sub/link" && mkfifo "$B/sub/fifo"
expect_fail fifo 2 "bench: --source '$B': sub/fifo: is a special file (trees of regular files and folders only)" \
	"$BENCH" --source "$B" --dir "$D"
rm "$B/sub/fifo"
if ! is_root; then
	chmod 000 "$B/sub/f"
	expect_fail unreadable_file 2 "bench: --source '$B': sub/f: Permission denied" "$BENCH" --source "$B" --dir "$D"
	chmod 644 "$B/sub/f" && chmod 000 "$B/sub"
	expect_fail unreadable_folder 2 "bench: --source '$B': sub: Permission denied" "$BENCH" --source "$B" --dir "$D"
	chmod 755 "$B/sub"
fi
rm -r "$B/sub"
expect_fail empty_tree 2 "bench: --source '$B': holds no file" "$BENCH" --source "$B" --dir "$D"

# --- bench clean takes the trees it made ----------------------------------
run "$BENCH" clean --dir "$D"
expect_eq clean_rc "$RC" 0
expect_eq clean_empty "$(ls -A "$D")" ""
# --- a program as a row: cp -r over the same tree, verified like the rest --
if command -v cp >/dev/null; then
	run "$BENCH" --workload tree --files 40 --size 4K --strategy readwrite --command cp "${QUICK[@]}" \
		--dir "$D" --out "$T/rc2"
	expect_eq command_rc "$RC" 0
	expect_eq command_row "$(tail -n +2 "$T/rc2/summary.csv" | grep '^tree,cp,' |
		cut -d, -f"$(col "$T/rc2/summary.csv" class),$(col "$T/rc2/summary.csv" status)")" "command,ok"
	expect_eq command_nothing_left "$(leftovers)" ""
fi
finish
