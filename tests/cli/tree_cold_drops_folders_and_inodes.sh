#!/usr/bin/env bash
# tree_cold_drops_folders_and_inodes.sh - a cold tree with --drop-caches
# (root) starts each run with its folders and inodes out of memory, not only
# its files' pages: a --command row first walks the source with du and counts
# what the loop device read meanwhile (/proc/diskstats), then copies. Without
# --drop-caches the walk reads next to nothing (folders and inodes stay
# cached, as the row says); with it the walk must read them from the device,
# so the check of the cold state may not bring them back.
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: --drop-caches and bench --fs need root"
[ -e /dev/loop-control ] || skip "no loop devices here (/dev/loop-control)"
[ -r /proc/diskstats ] || skip "no /proc/diskstats here"
command -v mkfs.ext4 >/dev/null || skip "mkfs.ext4 not installed"

# The probe: sectors the source's device read while du walked the source.
cat >"$T/probe" <<EOF
#!/usr/bin/env bash
set -e
read -r major minor < <(stat -c '%Hd %Ld' "\$1")
sectors() { awk -v a="\$major" -v b="\$minor" '\$1 == a && \$2 == b { print \$6 }' /proc/diskstats; }
a=\$(sectors)
du -s "\$1" >/dev/null
b=\$(sectors)
echo \$((b - a)) >>"$T/read"
cp -r -- "\$1" "\$2"
EOF
chmod +x "$T/probe"

# cold_walk NAME [OPTION]: two cold runs of the probe on a tree of 2000 files;
# then $T/read has what each walk read, WALKS how many there were.
cold_walk() {
	rm -f "$T/read"
	run "$BENCH" --fs ext4 --workload tree --files 2000 --size 4K --cache cold "${@:2}" \
		--strategy readwrite --command "probe=$T/probe {src} {dst}" --repeat 2 --warmup 0 \
		--syscalls off --no-limits --dir "$T/d" --out "$T/r-$1"
	expect_eq "$1_rc" "$RC" 0
	# every run verified (a run the machine disturbed is rerun: '3/3 1r')
	expect_eq "$1_probe_verified" "$(grep -Ec '^  probe +.* ([2-9])/\1 ' "$T/.out")" 1
	WALKS=$(cat "$T/read" 2>/dev/null | wc -l)
	expect_eq "$1_walks" "$((WALKS >= 2))" 1
}

# metadata NAME FILE: the metadata column of every row of FILE, counted.
metadata() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "metadata") k = i; next } { print $k }' \
		"$T/r-$1/$2" | sort | uniq -c | xargs
}

cold_walk kept
KEPT=$(cat "$T/read" 2>/dev/null)
KEPT_WALKS=$WALKS
expect_eq kept_said "$(grep -c 'files evicted; folders and inodes stay cached' "$T/.out")" 1
expect_eq kept_summary "$(metadata kept summary.csv)" "2 cached"

cold_walk dropped --drop-caches
expect_eq dropped_walks_read_metadata "$(grep -cx 0 "$T/read")" 0
# A walk of cached folders and inodes reads next to nothing: less than a
# tenth of the least a walk after --drop-caches read (1680 sectors here for
# 2000 files; a stray read of the device by the kernel is not the walk's).
LEAST=$(sort -n "$T/read" | head -n 1)
expect_eq kept_walks_read_nothing \
	"$(awk -v m="${LEAST:-0}" '$1 * 10 < m' <<<"$KEPT" | wc -l) of $(wc -l <<<"$KEPT") ($(xargs <<<"$KEPT") vs $(xargs <"$T/read"))" \
	"$KEPT_WALKS of $KEPT_WALKS ($(xargs <<<"$KEPT") vs $(xargs <"$T/read"))"
expect_eq dropped_not_said "$(grep -c 'folders and inodes stay cached' "$T/.out")" 0
expect_eq dropped_summary "$(metadata dropped summary.csv)" "2 dropped"
expect_eq dropped_runs "$(metadata dropped runs.csv)" "$(($(wc -l <"$T/r-dropped/runs.csv") - 1)) dropped"

# The kernel refuses the drop_caches write (the test hook): nothing was
# dropped, and no row may say it was, the command's included.
COPYBENCH_TEST_DROP_FAIL=1 cold_walk refused --drop-caches
expect_eq refused_walks_read_nothing "$(awk -v m="${LEAST:-0}" '$1 * 10 < m' "$T/read" | wc -l)" "$WALKS"
expect_eq refused_summary "$(metadata refused summary.csv)" "2 cached"
expect_eq refused_said "$(grep -c 'files evicted; folders and inodes stay cached' "$T/.out")" 1
expect_eq nothing_left "$(ls -A "$T/d" 2>/dev/null)" ""
finish
