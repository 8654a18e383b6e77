#!/usr/bin/env bash
# clean_removes_killed_fs_leftovers.sh - a bench --fs ext4 killed with SIGKILL
# leaves its filesystem mounted on a loop device over an image in --dir; the
# next bench --fs says so at its start, and bench clean unmounts it, detaches
# the loop device and removes the image and folders - and leaves alone a loop
# device it did not make. Root only (mount, loop devices, mkfs.ext4).
. "$(dirname "$0")/../support/lib.sh"
if ! is_root; then echo "skip: needs root (mount and loop devices)"; exit 77; fi
for t in mkfs.ext4 losetup; do
	command -v "$t" >/dev/null || { echo "skip: $t not found"; exit 77; }
done
[ -e /dev/loop-control ] || { echo "skip: no /dev/loop-control"; exit 77; }
cd "$T" || exit 1
D=$T/d
mkdir "$D"

# A loop device of someone else's, over a file in --dir's folder too.
truncate -s 16M "$T/decoy.img"
if ! DECOY=$(losetup -f --show "$T/decoy.img" 2>/dev/null); then
	echo "skip: cannot attach a loop device here"; exit 77
fi
cleanup_decoy() { losetup -d "$DECOY" 2>/dev/null; cleanup; }
trap cleanup_decoy EXIT

"$BENCH" --fs ext4 --dir "$D" --workload copy --strategy readwrite --size 1M --repeat 100000 \
	--no-limits --syscalls off --out "$T/r" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
	grep -q " $D/fs-$pid-[A-Za-z0-9]*/ext4 " /proc/self/mountinfo && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
if ! grep -q " $D/fs-$pid-[A-Za-z0-9]*/ext4 " /proc/self/mountinfo; then
	kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	echo "skip: bench --fs ext4 could not mount a filesystem here"; exit 77
fi
kill -9 "$pid"
wait "$pid" 2>/dev/null
root=$(echo "$D"/fs-"$pid"-*)
for m in $(awk -v r="$root/" 'index($5, r) == 1 { print $5 }' /proc/self/mountinfo); do MOUNTS+=("$m"); done
expect_eq left_mounted "$(grep -c " $root/ext4 " /proc/self/mountinfo)" 1
expect_eq left_image "$(ls "$root")" "ext4
ext4.img"

# The next bench --fs tells at its start.
run "$BENCH" --fs ext4 --dir "$D" --strategy no-such-strategy
expect_eq warned "$(grep -c "^bench: note: 1 test filesystem folder of a killed bench --fs left in $D ($root); bench clean --dir $D unmounts and removes them$" "$T/.err")" 1

run "$BENCH" clean --dir "$D"
expect_eq clean_rc "$RC" 0
expect_eq no_mount "$(grep -c " $D/" /proc/self/mountinfo)" 0
expect_eq no_loop "$(grep -l "^$root/" /sys/block/loop*/loop/backing_file 2>/dev/null | wc -l)" 0
expect_eq nothing_left "$(ls -A "$D")" ""
expect_eq said_unmounted "$(grep -c "^unmounted $(realpath "$root")/ext4 " "$T/.out")" 1
expect_eq decoy_attached "$(losetup -n -O BACK-FILE "$DECOY")" "$T/decoy.img"
finish
