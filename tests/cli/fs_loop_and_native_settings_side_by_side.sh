#!/usr/bin/env bash
# fs_loop_and_native_settings_side_by_side.sh - bench --fs (root; skipped
# otherwise) puts an ext4 it makes on a loop device and a filesystem named by
# its path side by side, and says in fs_options what each is: for the loop
# ext4 the mkfs options (4 KiB blocks, as on a full-size disk: mke2fs would
# give a small image 1 KiB blocks), the loop device and whether it does direct
# I/O, the block size the filesystem reports and its mount options (a 256M
# image, which mke2fs alone would make with 1 KiB blocks); for the path, that
# bench did not make it, and its block size.
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: bench --fs makes and mounts filesystems"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed (tools/deps.sh)"
[ -e /dev/loop-control ] || skip "no loop devices here (/dev/loop-control)"

command -v jq >/dev/null || skip "jq is not installed (Debian: jq)"

mkdir -p "$T/native"
run "$BENCH" --fs "ext4,$T/native" --fs-size 256M --strategy readwrite --size 4M --repeat 1 --warmup 0 \
	--no-limits --syscalls off --dir "$T/d" --out "$T/res" --quiet --export-json "$T/e.json"
if [ "$RC" != 0 ] && grep -q 'ext4 .*unavailable' "$T/.out"; then
	skip "no loop ext4 here: $(grep 'unavailable' "$T/.out" | head -n 1)"
fi
expect_eq rc "$RC" 0
[ -f "$T/e.json" ] || { fail "no export: $(cat "$T/.err")"; finish; }
# the copy rows: fs_type|fs_options, one a line
rows=$(jq -r '.cases[] | select(.workload == "copy") | "\(.fs_type)|\(.fs_options)"' "$T/e.json")
expect_eq side_by_side "$(echo "$rows" | wc -l)" 2

loop=$(echo "$rows" | awk -F'|' '$1 == "ext4" && $2 ~ /loop device/ { print $2 }' | head -n 1)
case "$loop" in
"mkfs.ext4 -b 4096, no lazy init; "*" sparse file on a loop device, "*"; 4096-byte blocks"*) pass ;;
*) fail "loop ext4's fs_options: '$loop'" ;;
esac
echo "$loop" | grep -Eq 'loop device, (direct I/O|buffered \(no direct I/O here\));' && pass ||
	fail "loop's direct I/O not said: '$loop'"

native=$(echo "$rows" | awk -F'|' '$2 ~ /^not made by bench/ { print $2 }' | head -n 1)
case "$native" in
"not made by bench; a mounted filesystem named by its path; "*"-byte blocks"*) pass ;;
*) fail "the path's fs_options: '$native'" ;;
esac
finish
