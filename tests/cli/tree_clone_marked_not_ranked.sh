#!/usr/bin/env bash
# tree_clone_marked_not_ranked.sh - a tree copy that cloned is marked as a
# clone, never ranked as a copy speed: on XFS (made by bench --fs on a loop
# device), copy_file_range and the pool clone every file and are marked;
# readwrite and uring copy the bytes and are not. On ext4, which cannot share
# extents, nothing is marked (its FIEMAP is skipped).
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: bench --fs makes and mounts filesystems"
[ -e /dev/loop-control ] || skip "no loop devices here (/dev/loop-control)"
command -v mkfs.xfs >/dev/null || skip "mkfs.xfs not installed (tools/deps.sh)"

# shared FILE: strategy=shared_extents for each row of a summary.csv
shared() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "strategy") s = i; if ($i == "shared_extents") x = i }; next }
		{ print $s "=" $x }' "$1" | LC_ALL=C sort | tr '\n' ' '
}

run "$BENCH" --fs xfs,ext4 --workload tree --files 300 --size src --strategy copy_file_range,pool,readwrite,uring \
	--repeat 1 --warmup 0 --syscalls off --no-limits --dir "$T/d" --out "$T/r"
expect_eq rc "$RC" 0
expect_eq xfs_marked "$(grep -c 'shared extents: cloned, not a copy speed' "$T/.out")" 2
for fs in xfs ext4; do
	awk -F, -v fs="$fs" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fs_type") f = i }
		NR == 1 || $f == fs' "$T/r/summary.csv" >"$T/$fs.csv"
done
expect_eq xfs_shared "$(shared "$T/xfs.csv")" "copy_file_range=1 pool=1 readwrite=0 uring=0 "
expect_eq ext4_shared "$(shared "$T/ext4.csv")" "copy_file_range=0 pool=0 readwrite=0 uring=0 "
expect_eq nothing_left "$(ls -A "$T/d" 2>/dev/null)" ""
finish
