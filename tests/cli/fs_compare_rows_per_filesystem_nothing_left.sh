#!/usr/bin/env bash
# fs_compare_rows_per_filesystem_nothing_left.sh - bench --fs (root; skipped
# otherwise): XFS and btrfs made on loop devices give verified rows with the
# right fs_type, reflink available on both and clones apart; a filesystem
# without its mkfs is unavailable with the reason while the others run; a
# mount point given by path is used as it is and kept; SIGINT at any stage
# (while making, mid-run, pressed again and again) leaves no mount, no loop
# device and no file; without root, or with an unknown name, one line and exit
# 2.
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: bench --fs makes and mounts filesystems"
for t in mkfs.xfs mkfs.btrfs; do
	command -v "$t" >/dev/null || skip "$t not installed (tools/deps.sh)"
done
[ -e /dev/loop-control ] || skip "no loop devices here (/dev/loop-control)"

# nothing_left NAME: no mount, loop device or file of ours remains (what
# does is unmounted on exit by lib.sh, deepest first).
nothing_left() {
	local m
	for m in $(awk -v t="$T/" 'index($2, t) == 1 { print $2 }' /proc/mounts); do
		MOUNTS=("$m" "${MOUNTS[@]}")
	done
	expect_eq "$1_mounts" "$(grep -c " $T/" /proc/mounts)" 0
	expect_eq "$1_loops" "$(losetup -a | grep -c "$T/")" 0
	expect_eq "$1_files" "$(ls -A "$T/d" 2>/dev/null)" ""
}

# column FILE NAME: the values of a CSV column, one a line (no quotes in them).
column() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		{ print $c }' "$1"
}

# 1. Two filesystems made, the plan on each, verified rows per filesystem.
run "$BENCH" --fs xfs,btrfs --strategy reflink,copy_file_range,readwrite --size 8M \
	--repeat 2 --dir "$T/d" --out "$T/res" --quiet
expect_eq made_rc "$RC" 0
sum="$T/res/summary.csv"
for fs in xfs btrfs; do
	for s in reflink copy_file_range readwrite; do
		row=$(paste -d' ' <(column "$sum" workload) <(column "$sum" strategy) \
			<(column "$sum" fs_type) <(column "$sum" status) <(column "$sum" counted_runs) |
			grep -c "^copy $s $fs ok 2$")
		expect_eq "${fs}_${s}_verified" "$row" 1
	done
	grep -q "^copy · random · 8M · warm cache · on $fs$" "$T/.out" && pass ||
		fail "no table of $fs: $(cat "$T/.out")"
	# quoted in the CSV: the mount options in it have commas
	column "$sum" fs_options | grep -q "^\"\?mkfs.$fs" && pass || fail "$fs: options not recorded"
done
expect_eq made_fs_types "$(column "$sum" fs_type | sort -u | tr '\n' ' ')" "btrfs xfs "
# each group ranks its own readwrite 1.00x: rows of two filesystems never share a rank
expect_eq made_groups_ranked "$(grep -c '^  readwrite .* 1\.00x ' "$T/.out")" 2
nothing_left made

# 2. A filesystem whose mkfs is missing is unavailable; the others run.
mkdir -p "$T/bin"
run env PATH="$T/bin" "$BENCH" --fs btrfs,tmpfs --strategy readwrite --size 1M --repeat 1 \
	--no-limits --dir "$T/d" --out "$T/res2" --quiet
expect_eq missing_rc "$RC" 0
grep -q '^  filesystem btrfs  *unavailable: mkfs.btrfs not found in PATH (Debian: btrfs-progs)$' "$T/.out" &&
	pass || fail "btrfs not listed as unavailable: $(cat "$T/.out")"
expect_eq missing_ran "$(column "$T/res2/summary.csv" fs_type | sort -u)" tmpfs
nothing_left missing

# 3. A mounted filesystem named by path: used as it is, kept afterwards.
mount_tmpfs "$T/mnt" 64M || skip "cannot mount a tmpfs"
run "$BENCH" --fs "$T/mnt" --strategy readwrite --size 1M --repeat 1 --no-limits \
	--dir "$T/d" --out "$T/res3" --quiet
expect_eq path_rc "$RC" 0
expect_eq path_fs_type "$(column "$T/res3/summary.csv" fs_type)" tmpfs
expect_eq path_still_mounted "$(grep -c " $T/mnt " /proc/mounts)" 1
expect_eq path_datasets_kept "$(ls "$T/mnt")" "random-1048576-s1.dat"$'\n'"random-1048576-s1.dat.manifest"
umount "$T/mnt"

# 4. SIGINT while the filesystems are made, mid-run, and again and again.
# interrupted NAME COUNT GLOB: start a long run, wait for GLOB, send SIGINT COUNT times.
interrupted() {
	local i
	rm -rf "$T/d"
	"$BENCH" --fs xfs,btrfs,tmpfs --strategy readwrite,reflink --size 1M --repeat 100000 \
		--syscalls off --no-limits --dir "$T/d" --out "$T/res-$1" >"$T/.out" 2>"$T/$1.err" &
	pid=$!
	wait_for "$pid" "$3" || fail "$1: $3 never appeared: $(cat "$T/$1.err")"
	for ((i = 0; i < $2; i++)); do
		kill -INT "$pid" 2>/dev/null
		sleep 0.001
	done
	wait "$pid"
	expect_eq "$1_rc" $? 130
	nothing_left "$1"
}
interrupted making 1 "$T/d/fs-*/xfs.img"
interrupted running 1 "$T/d/fs-*/tmpfs/work-*/out-*"
interrupted running_repeated 50 "$T/d/fs-*/tmpfs/work-*/out-*"
grep -q '^  readwrite ' "$T/.out" && pass || fail "running_repeated: no table: $(cat "$T/.out")"

# 5. Without root: one line, exit 2, nothing made.
if setpriv --reuid=65534 --regid=65534 --clear-groups "$BENCH" --version >/dev/null 2>&1; then
	expect_fail not_root 2 "bench: --fs xfs: making and mounting a filesystem needs root; run as root, or name a mounted filesystem by its path" \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$BENCH" --fs xfs --dir "$T/nr"
fi
expect_fail unknown_fs 2 "bench: --fs 'zfs': expected ext4, xfs, btrfs, tmpfs or the path of a mounted filesystem" \
	"$BENCH" --fs zfs --dir "$T/nr"
finish
