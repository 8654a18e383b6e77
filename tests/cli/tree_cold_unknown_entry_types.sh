#!/usr/bin/env bash
# tree_cold_unknown_entry_types.sh - on a filesystem whose folders list entries
# without their type (ext4 made without the filetype feature: readdir says
# DT_UNKNOWN), a cold tree still evicts and checks every file: the cache
# walk asks fstatat what an entry is and descends into folders.
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: mounting a loop filesystem needs root"
[ -e /dev/loop-control ] || skip "no loop devices here (/dev/loop-control)"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"

truncate -s 64M "$T/img"
mkfs.ext4 -q -F -O ^filetype "$T/img" >/dev/null 2>&1 || skip "mkfs.ext4 -O ^filetype failed"
mkdir "$T/mnt"
mount -o loop "$T/img" "$T/mnt" 2>/dev/null || skip "cannot mount a loop device here"
MOUNTS+=("$T/mnt")

run "$BENCH" --workload tree --files 200 --size 4K --cache cold --strategy readwrite --repeat 2 \
	--warmup 0 --syscalls off --no-limits --dir "$T/mnt" --out "$T/r"
expect_eq rc "$RC" 0
S=$T/r/summary.csv
col() { head -n 1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
expect_eq status "$(tail -n +2 "$S" | cut -d, -f"$(col "$S" status)")" ok
expect_eq all_cold "$(awk -F, -v c="$(col "$T/r/runs.csv" resident_pct)" -v m="$(col "$T/r/runs.csv" file_resident_max_pct)" \
	'NR > 1 { n++; if ($c != "0.0" || $m != "0.0") hot++ } END { print (n >= 2 && !hot) }' "$T/r/runs.csv")" 1
finish
