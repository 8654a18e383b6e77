#!/usr/bin/env bash
# clone_and_direct_rows_not_ranked.sh - rows that do other work than a
# page-cache copy are never ranked against the copies: on an XFS loop
# filesystem with reflink (root; skipped otherwise), reflink and
# copy_file_range clone, in the copy and in the split workload alike, and
# direct does device I/O. Those rows come after "not ranked", with no xfastest
# and a note saying why; the fastest page-cache copy of each table is the
# 1.00x row.
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: cannot mount a loop filesystem"
command -v mkfs.xfs >/dev/null || skip "mkfs.xfs not installed (Debian: xfsprogs)"
truncate -s 512M "$T/xfs.img"
mkfs.xfs -q -f -m reflink=1 "$T/xfs.img" 2>/dev/null || skip "mkfs.xfs -m reflink=1 failed"
mkdir "$T/mnt"
mount -o loop "$T/xfs.img" "$T/mnt" 2>/dev/null || skip "cannot mount a loop device"
MOUNTS+=("$T/mnt")

run "$BENCH" --workload copy,split --strategy reflink,copy_file_range,readwrite,direct \
	--size 16M --part-size 4M --repeat 2 --dir "$T/mnt" --out "$T/res" --quiet
expect_eq rc "$RC" 0

# table_of WORKLOAD: the warm table of that workload
table_of() { awk -v w="$1" '/^[a-z]+ · / { on = ($1 == w && /warm cache/) } on' "$T/.out"; }

for wl in copy split; do
	t=$(table_of "$wl")
	first=$(echo "$t" | awk 'NR == 3 { print $1 }')
	expect_eq "${wl}_fastest_is_a_copy" "$first" readwrite
	echo "$t" | grep -Eq '^  readwrite .* 1\.00x ' && pass || fail "$wl: readwrite is not 1.00x: $t"
	ranked_end=$(echo "$t" | grep -n '^  not ranked: other work than a page-cache copy$' | cut -d: -f1)
	[ -n "$ranked_end" ] && pass || fail "$wl: no 'not ranked' line: $t"
	for s in reflink copy_file_range; do
		line=$(echo "$t" | grep -n "^  $s ")
		[ "${line%%:*}" -gt "${ranked_end:-0}" ] 2>/dev/null && pass || fail "$wl: $s ranked: $t"
		echo "$line" | grep -Eq ' - .*shared extents: cloned, not a copy speed$' && pass ||
			fail "$wl: $s not marked as a clone: $line"
	done
	line=$(echo "$t" | grep -n '^  direct ')
	[ "${line%%:*}" -gt "${ranked_end:-0}" ] 2>/dev/null && pass || fail "$wl: direct ranked: $t"
	echo "$line" | grep -q 'device I/O around the page cache: not ranked with copies' && pass ||
		fail "$wl: direct not marked: $line"
done
finish
