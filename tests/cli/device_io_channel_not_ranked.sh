#!/usr/bin/env bash
# device_io_channel_not_ranked.sh - a channel that writes its output around the
# page cache (shm-direct: O_DIRECT) is device I/O inside the clock, like the
# direct strategy: its row comes after "not ranked" with the device note and
# class `device` in summary.csv, and the page-cache channel is the 1.00x row.
# On a ramfs (root; skipped otherwise), which refuses O_DIRECT, the channel
# writes through the page cache: its row is ranked and says why.
. "$(dirname "$0")/../support/lib.sh"

# table_of: the transform table of the last run
table_of() { awk '/^[a-z]+ · / { on = ($1 == "transform") } on' "$T/.out"; }

mkdir "$T/d"
run "$BENCH" --workload transform --strategy shm-direct,shm --batch-lines 0 --size 8M \
	--repeat 2 --no-limits --syscalls off --dir "$T/d" --out "$T/res" --quiet
expect_eq rc "$RC" 0
t=$(table_of)
echo "$t" | grep -Eq '^  shm .* 1\.00x ' && pass || fail "shm is not 1.00x: $t"
ranked_end=$(echo "$t" | grep -n '^  not ranked: other work than a page-cache copy$' | cut -d: -f1)
line=$(echo "$t" | grep -n '^  shm-direct ')
[ -n "$ranked_end" ] && [ "${line%%:*}" -gt "${ranked_end:-0}" ] 2>/dev/null && pass ||
	fail "shm-direct ranked with page-cache copies: $t"
echo "$line" | grep -q 'device I/O around the page cache: not ranked with copies' && pass ||
	fail "shm-direct not marked: $line"
cls=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "strategy") v = i; if ($i == "class") c = i } }
	NR > 1 && $v == "shm-direct" { print $c }' "$T/res/summary.csv")
expect_eq class "$cls" device

if is_root && mkdir "$T/ram" && mount -t ramfs ramfs "$T/ram" 2>/dev/null; then
	MOUNTS+=("$T/ram")
	run "$BENCH" --workload transform --strategy shm-direct,shm --batch-lines 0 --size 8M \
		--repeat 2 --no-limits --syscalls off --dir "$T/ram" --out "$T/res-ram" --quiet
	expect_eq ramfs_rc "$RC" 0
	t=$(table_of)
	echo "$t" | grep -q '^  not ranked' && fail "ramfs: a row not ranked: $t" || pass
	echo "$t" | grep -Eq '^  shm-direct .* [0-9.]+x .*filesystem ramfs does not support O_DIRECT \(EINVAL\): written through the page cache$' &&
		pass || fail "ramfs: shm-direct not ranked with the reason: $t"
else
	echo "ramfs part skipped: not root or cannot mount ramfs"
fi
finish
