#!/usr/bin/env bash
# fs_type_from_statfs_in_chroot.sh - inside a chroot, /proc/self/mountinfo
# lists no mount that covers --dir (mounts outside the new root are left out),
# yet fs_type is the filesystem's real type: bench falls back to statfs(2). A
# minimal root holds the bench executable and the libraries ldd names; /proc
# is mounted in a private mount namespace (unshare), so nothing outlives the
# test. Root only; skipped otherwise.
. "$(dirname "$0")/../support/lib.sh"
is_root || skip "chroot and mount need root"
for tool in unshare chroot ldd findmnt; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done
# Already in a chroot whose root is no mount point (a package build root),
# a private mount namespace cannot be made: say so rather than fail.
unshare --mount --propagation private true 2>/dev/null ||
	skip "unshare cannot make a private mount namespace here (root is not a mount point: in a chroot?)"
R=$T/root
mkdir -p "$R/bin" "$R/proc" "$R/d" "$R/tmp"
cp "$BENCH" "$R/bin/bench"
for lib in $(ldd "$BENCH" | grep -o '/[^ ]*'); do
	mkdir -p "$R$(dirname "$lib")" && cp -L "$lib" "$R$lib"
done
want=$(findmnt -n -o FSTYPE --target "$R" | head -n 1)
case $want in ext2 | ext3) want=ext4 ;; esac	# one magic number for the three

unshare --mount --propagation private sh -c "mount -t proc proc '$R/proc' && exec chroot '$R' /bin/bench --strategy readwrite --size 64K --repeat 1 --syscalls off --no-limits --quiet --dir /d --out /res" \
	>"$T/.out" 2>"$T/.err"
expect_eq chroot_run_rc "$? $(head -c 300 "$T/.err")" "0 "
c=$(head -n 1 "$R/res/summary.csv" | tr , '\n' | grep -nx fs_type | cut -d: -f1)
expect_eq fs_type_in_chroot "$(tail -n +2 "$R/res/summary.csv" | cut -d, -f"$c")" "$want"
expect_eq meta_says_statfs "$(grep -c '"from": "statfs"' "$R/res/meta.json")" 1
expect_eq proc_unmounted "$(findmnt -n "$R/proc" | wc -l)" 0
finish
