#!/usr/bin/env bash
# tree_destination_fresh.sh - on an ext4 without a journal, where a file created
# among inodes freed in the last minutes is slow to allocate, no tree run
# writes into the inodes the previous run's output took (they are kept until
# the invocation ends: --destination fresh), and rows say so; with
# --destination reused each run's output is removed right after it, the next
# one takes the same inodes, and its rows say "reused". Inode numbers come
# from the COPYBENCH_TEST_INODES hook: "<seq> <inode>" a line per entry of
# each verified output. Nothing is timed.
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: mounting a loop filesystem needs root"
[ -e /dev/loop-control ] || skip "no loop devices here (/dev/loop-control)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"

truncate -s 128M "$T/img"
mkfs.ext4 -q -F -N 16384 -O ^has_journal "$T/img" >/dev/null 2>&1 || skip "mkfs.ext4 -O ^has_journal failed"
mkdir "$T/mnt"
mount -o loop "$T/img" "$T/mnt" 2>/dev/null || skip "cannot mount a loop device here"
MOUNTS+=("$T/mnt")

# csv_column FILE NAME: the column NAME of every row of FILE.
csv_column() {
	awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$1"
}

# shared NAME: how many runs took an inode the run before them had taken.
shared() {
	awk '{ seen[$1 " " $2] = 1; if ($1 > last) last = $1 }
	     END { for (k in seen) { split(k, a, " "); if (seen[(a[1] - 1) " " a[2]]) n[a[1]] = 1 }
	           c = 0; for (s in n) c++; print c }' "$T/ino-$1"
}

# trees NAME OPTION...: 3 runs a case of readwrite and the OPTIONs on that ext4.
trees() {
	COPYBENCH_TEST_INODES="$T/ino-$1" run "$BENCH" --workload tree --size 4K \
		--strategy readwrite "${@:2}" --repeat 3 --warmup 0 --syscalls off --no-limits \
		--dir "$T/mnt" --out "$T/r-$1"
	expect_eq "$1_rc" "$RC" 0
	RUNS=$(($(wc -l <"$T/r-$1/runs.csv") - 1))
	expect_eq "$1_outputs_seen" "$(awk '{ print $1 }' "$T/ino-$1" | sort -u | wc -l)" "$RUNS"
	expect_eq "$1_nothing_left" "$(ls -d "$T"/mnt/work-* 2>/dev/null)" ""
}

trees fresh --files 500 --command cp
expect_eq fresh_no_inode_shared "$(shared fresh)" 0
expect_eq fresh_rows "$(csv_column "$T/r-fresh/runs.csv" destination | sort | uniq -c | xargs)" "$RUNS fresh"
expect_eq fresh_said "$(grep -c '^history: ext4 has no journal: .*(--destination fresh)$' "$T/.out")" 1
expect_eq fresh_meta "$(grep -c '"journal": false' "$T/r-fresh/meta.json")" 1

trees reused --files 500 --command cp --destination reused
# (most runs take the inodes just freed; one may be placed in another group)
expect_eq reused_inodes_shared "$(($(shared reused) > 0))" 1
expect_eq reused_rows "$(csv_column "$T/r-reused/runs.csv" destination | sort | uniq -c | xargs)" "1 fresh $((RUNS - 1)) reused"

# No room to keep another output of 5000 files (16384 inodes, the 500-file
# dataset and this one's besides): the kept one goes before each later run,
# which writes where it was freed and says so. The first writes where the
# invocation before freed its outputs, in the one flex group of this small
# filesystem (--dir's .freed-inodes says so): reused as well.
trees room --files 5000
expect_eq room_rows "$(csv_column "$T/r-room/runs.csv" destination | sort | uniq -c | xargs)" "$RUNS reused"
expect_eq room_noted "$(grep -c ' runs into just-freed files (reused)$' "$T/.out")" 1

# The same filesystem named by --fs (its path): bench does not steer outputs
# there, so once it removed the kept outputs to make room, every later run
# writes among the inodes they freed, and says so: in the order of the
# runs, no fresh run after the first reused one (the first of them frees
# room for several 1000-file outputs, which would otherwise say fresh).
mkdir "$T/mnt/p" "$T/d"
run "$BENCH" --workload tree --size 4K --files 1000 --strategy readwrite --repeat 12 --warmup 0 \
	--syscalls off --no-limits --fs "$T/mnt/p" --dir "$T/d" --out "$T/r-fs"
expect_eq fs_rc "$RC" 0
fs_order=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "destination") d = i; if ($i == "seq") q = i }; next }
	{ print $q, $d }' "$T/r-fs/runs.csv" | sort -n | awk '{ print $2 }' | uniq -c | xargs)
expect_eq fs_reused_after_room "$(echo "$fs_order" | sed -E 's/^[0-9]+ fresh //; s/^[0-9]+ //')" reused
expect_eq fs_some_after_room "$(($(echo "$fs_order" | awk '{ print $NF == "reused" ? $(NF - 1) : 0 }') >= 3))" 1
finish
