#!/usr/bin/env bash
# copy_destination_faults_leave_nothing.sh - where the copy cannot be written:
# existing DST, same file, read-only filesystem, ENOSPC part way, EXDEV across
# filesystems. One clear line, exit 1, no partial output. The filesystems are
# small tmpfs mounts made here (root only; skipped otherwise).
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1
head -c 4194304 /dev/urandom >"$T/src"
echo mine >"$T/existing"

# Ownership: an existing DST is kept without --force (exit 1); SRC is never
# DST and DST is a file, or it is a usage error (exit 2).
expect_fail dst_exists 1 "bench copy: $T/existing exists; use --force to replace it" \
	"$BENCH" copy --strategy readwrite "$T/src" "$T/existing"
expect_eq dst_exists_kept "$(cat "$T/existing")" mine
expect_fail same_file 2 "bench copy: $T/src and $T/src are the same file" \
	"$BENCH" copy --strategy readwrite --force "$T/src" "$T/src"
ln "$T/src" "$T/hardlink"
ln -s "$T/src" "$T/symlink"
expect_fail same_file_hardlink 2 "bench copy: $T/src and $T/hardlink are the same file" \
	"$BENCH" copy --strategy readwrite --force "$T/src" "$T/hardlink"
expect_fail same_file_symlink 2 "bench copy: $T/src and $T/symlink are the same file" \
	"$BENCH" copy --strategy readwrite --force "$T/src" "$T/symlink"
expect_fail same_file_via_dir_link 2 "bench copy: $T/src and $T/./src are the same file" \
	"$BENCH" copy --strategy readwrite --force "$T/src" "$T/./src"
mkdir "$T/dir"
expect_fail dst_directory 2 "bench copy: $T/dir: is a directory; bench copy writes a file, give its full name" \
	"$BENCH" copy --strategy readwrite --force "$T/src" "$T/dir"
expect_fail dst_parent_missing 1 "bench copy: cannot create a file beside $T/nodir/dst: No such file or directory" \
	"$BENCH" copy --strategy readwrite "$T/src" "$T/nodir/dst"
run "$BENCH" copy --strategy readwrite --force "$T/src" "$T/existing"
expect_eq force_replaces_rc "$RC" 0
cmp -s "$T/src" "$T/existing" && pass || fail "force_replaces: content differs"
expect_eq force_keeps_src "$(stat -c %s "$T/src")" 4194304

is_root || { echo "(not root: no tmpfs mounts; the filesystem faults are not tried)"; finish; }
mount_tmpfs "$T/ro" 1M ro || skip "cannot mount a tmpfs here"
expect_fail read_only_fs 1 "bench copy: cannot create a file beside $T/ro/dst: Read-only file system" \
	"$BENCH" copy --strategy readwrite "$T/src" "$T/ro/dst"
expect_fail read_only_fs_run 2 "bench: --dir '$T/ro/d': Read-only file system" \
	"$BENCH" --size 4K --strategy readwrite --dir "$T/ro/d" --out "$T/res" --quiet

# ENOSPC part way: a 4 MiB source and its copy on a 6 MiB filesystem
# (one filesystem, so that the in-kernel copies run too), every strategy
# bench lists but mmap-memcpy (below).
mount_tmpfs "$T/full" 6M || skip "cannot mount a tmpfs here"
cp "$T/src" "$T/full/src"
strategies=$("$BENCH" list --format json | python3 -c 'import json,sys; print(" ".join(s["name"] for s in json.load(sys.stdin)["strategies"]))')
for s in $strategies; do
	[ "$s" != mmap-memcpy ] || continue
	run "$BENCH" copy --strategy "$s" "$T/full/src" "$T/full/dst"
	case "$(cat "$T/.err")" in
	*"is unavailable:"*) continue ;;
	esac
	expect_eq "enospc_${s}_rc" "$RC" 1
	expect_eq "enospc_${s}_msg" "$(cat "$T/.err")" \
		"bench copy: $T/full/src -> $T/full/dst with $s: No space left on device"
	expect_eq "enospc_${s}_nothing_left" "$(ls -A "$T/full")" "src"
done
# mmap-memcpy stores through a mapping: the full filesystem is a SIGBUS.
expect_fail enospc_mmap_memcpy 1 "bench copy: $T/full/src: the copy was killed by SIGBUS (the source shrank during the copy, or the destination's filesystem is full)" \
	"$BENCH" copy --strategy mmap-memcpy "$T/full/src" "$T/full/dst"

# EXDEV: in-kernel copies from this filesystem to another one.
mount_tmpfs "$T/other" 16M || skip "cannot mount a tmpfs here"
run "$BENCH" copy --strategy copy_file_range "$T/src" "$T/other/dst"
if [ "$RC" = 0 ]; then	# the kernel copied across filesystems itself
	cmp -s "$T/src" "$T/other/dst" && pass || fail "exdev_copy_file_range: content differs"
	rm -f "$T/other/dst"
else
	expect_eq exdev_copy_file_range_msg "$(cat "$T/.err")" \
		"bench copy: $T/src -> $T/other/dst with copy_file_range: source and destination are on different filesystems (EXDEV); use a strategy that reads and writes, such as readwrite"
fi
expect_eq exdev_copy_file_range_nothing_left "$(ls -A "$T/other")" ""
run "$BENCH" copy --strategy reflink "$T/src" "$T/other/dst"
expect_eq exdev_reflink_rc "$RC" 1
case "$(cat "$T/.err")" in
"bench copy: reflink is unavailable: "* | *"(EXDEV)"*) pass ;;
*) fail "exdev_reflink: $(cat "$T/.err")" ;;
esac
expect_eq exdev_reflink_nothing_left "$(ls -A "$T/other")" ""
finish
