#!/usr/bin/env bash
# limit_buffers_not_faulted_per_run.sh - the memory limit rows do not fault
# their buffers in for every run: the source is the parent's, made once and
# only read by each run's child, and the destination is on huge pages where
# the kernel gives them. Read from runs.csv's child_minflt (the child's whole
# life; minflt is the clock's share only, which setup's faults never reach): a
# memory row's child takes fewer minor faults than the 4 KiB pages of one
# buffer (with huge pages, fewer than half of them: a sanitizer build's child
# takes about 2 000 for its own start-up), where faulting both buffers per run
# took twice that many or more (32 834 seen).
. "$(dirname "$0")/../support/lib.sh"

size_mib=32
pages=$((size_mib * 256))
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case "$thp" in
*"[always]"* | *"[madvise]"*) bound=$((pages / 2)) kind="huge pages ($thp)" ;;
*) bound=$pages kind="no huge pages" ;;
esac

bench_ok "$T/res" --strategy readwrite --size "${size_mib}M" --repeat 2 --warmup 0 --syscalls off \
	--dir "$T/d"

# every memory row's runs: count, and the largest minor-fault count
got=$(csv_awk -v bound="$bound" '
	$col["workload"] == "limit" && $col["strategy"] ~ /^memcpy/ {
		n++; if ($col["child_minflt"] + 0 > most) most = $col["child_minflt"] + 0
	}
	END { printf "%d runs, %s\n", n, (n >= 4 && most < bound) ? "below" : "most " most " of bound " bound }' \
	"$T/res/runs.csv")
expect_eq "memory rows' child minor faults, $kind" "$(echo "$got" | sed 's/^[0-9]* runs, //')" below
finish
