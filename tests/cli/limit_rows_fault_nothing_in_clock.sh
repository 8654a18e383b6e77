#!/usr/bin/env bash
# limit_rows_fault_nothing_in_clock.sh - nothing is faulted inside the clock
# of a memory limit row: setup reads the whole source and writes the whole
# destination (memcpy-mt's caller slice included) before the clock, so the
# timed region's minor faults (runs.csv `minflt`, getrusage deltas the child
# reads around its clock) are a handful for the process's own machinery (a
# worker's stack page), not one per page or huge page of the copy. A slice
# first touched inside the clock costs one fault per 2 MiB with huge pages (32
# for memcpy-mt's caller slice here on 2 CPUs) and one per 4 KiB without.
. "$(dirname "$0")/../support/lib.sh"

# NUMA balancing's hinting faults are minor faults the kernel makes at will
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)
if [ "$(cat /proc/sys/kernel/numa_balancing 2>/dev/null || echo 0)" != 0 ] && [ "$nodes" -gt 1 ]; then
	skip "NUMA balancing is on ($nodes nodes): its hinting faults may land in any clock"
fi

cpus=$(getconf _NPROCESSORS_ONLN)
bound=$((8 + 2 * cpus))
bench_ok "$T/res" --strategy readwrite --size 128M --repeat 2 --warmup 0 --syscalls off \
	--dir "$T/d"

# per memory row: its runs and the most minor (and major) faults in a clock
got=$(csv_awk -v bound="$bound" '
	$col["workload"] == "limit" && $col["strategy"] ~ /^memcpy/ {
		r = $col["strategy"]; n[r]++
		f = $col["minflt"] + $col["majflt"]
		if (f > most[r]) most[r] = f
	}
	END {
		split("memcpy memcpy-movsb memcpy-mt", rows, " ")
		for (k = 1; k <= 3; k++) {
			r = rows[k]
			if (r == "memcpy-movsb" && !(r in n)) continue	# not x86-64
			printf "%s %s; ", r, (n[r] >= 2 && most[r] <= bound) ? "ok" : n[r] + 0 " runs, most " most[r] + 0 " faults of bound " bound
		}
	}' "$T/res/runs.csv")
want="memcpy ok; memcpy-movsb ok; memcpy-mt ok; "
[ "$(uname -m)" = x86_64 ] || want="memcpy ok; memcpy-mt ok; "
expect_eq "faults inside the clock (at most $bound)" "$got" "$want"
finish
