#!/usr/bin/env bash
# tree_destination_across_invocations.sh - on an ext4 without a journal, an
# invocation right after another in the same --dir writes no output into a
# flex group where the earlier one's removal freed inodes (ext4 skips inodes
# freed in the last minutes, one lookup each, for every file it creates
# there). The removal notes the flex groups it freed in --dir/.freed-inodes;
# the next invocation's outputs go into folders placed elsewhere (a top
# folder: ext4 spreads its subfolders by a hash of their names) and made again
# while they land in a noted group. Inode numbers come from the
# COPYBENCH_TEST_INODES hook; nothing is timed.
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: mounting a loop filesystem needs root"
[ -e /dev/loop-control ] || skip "no loop devices here (/dev/loop-control)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"
command -v dumpe2fs >/dev/null || skip "dumpe2fs not installed"

# 256 groups of 16 MiB and 512 inodes, 16 to a flex group: 16 flex groups
# of 8192 inodes, so that each output can have one of its own.
truncate -s 4G "$T/img"
mkfs.ext4 -q -F -O ^has_journal -g 4096 -G 16 -N 131072 "$T/img" >/dev/null 2>&1 ||
	skip "mkfs.ext4 -O ^has_journal failed"
PER_FLEX=$(dumpe2fs -h "$T/img" 2>/dev/null |
	awk -F: '/^Inodes per group/ { i = $2 } /^Flex block group size/ { f = $2 } END { print i * f }')
mkdir "$T/mnt"
mount -o loop "$T/img" "$T/mnt" 2>/dev/null || skip "cannot mount a loop device here"
MOUNTS+=("$T/mnt")
mkdir "$T/mnt/d"

# trees NAME: 2 runs a case of readwrite and cp of 300 x 4K into $T/mnt.
trees() {
	COPYBENCH_TEST_INODES="$T/ino-$1" run "$BENCH" --workload tree --files 300 --size 4K \
		--strategy readwrite --command cp --repeat 2 --warmup 0 --syscalls off --no-limits \
		--dir "$T/mnt/d" --out "$T/r-$1"
	expect_eq "$1_rc" "$RC" 0
	# 4, or more when a run was disturbed and run again
	RUNS=$(($(wc -l <"$T/r-$1/runs.csv") - 1))
	expect_eq "$1_outputs_seen" "$(awk '{ print $1 }' "$T/ino-$1" | sort -u | wc -l)" "$RUNS"
}

# groups NAME: the flex groups NAME's outputs took, one a line.
groups() {
	awk -v per="$PER_FLEX" '{ print int($2 / per) }' "$T/ino-$1" | sort -u
}

trees first
expect_eq first_noted "$(wc -l <"$T/mnt/d/.freed-inodes")" 1
expect_eq first_groups_noted "$(groups first | while read -r g; do
	grep -qw "$g" <(cut -d' ' -f4- "$T/mnt/d/.freed-inodes") || echo "$g"; done)" ""
trees second
expect_eq second_noted "$(wc -l <"$T/mnt/d/.freed-inodes")" 2
expect_eq no_group_shared "$(comm -12 <(groups first) <(groups second) | xargs)" ""
expect_eq second_rows "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "destination") k = i; next }
	{ print $k }' "$T/r-second/runs.csv" | sort | uniq -c | xargs)" "$RUNS fresh"

finish
