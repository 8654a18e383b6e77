#!/usr/bin/env bash
# limit_device_row_concurrent_and_cold.sh - cold runs plan the concurrent
# device row, device-read-mt, beside the one-stream rows: every run of it read
# the whole source (verified) from a cold page cache (resident_pct 0 before
# the clock), and its `threads` column says how many requests it kept in
# flight: the most any strategy keeps as this invocation runs them (parallel's
# threads, one per online CPU or --threads; io_uring's queue depth, 4 or
# --queue-depth). Every concurrent cold copy (parallel, io_uring) names the
# fastest device row of its dataset and size as its limit; readwrite, one
# stream, the fastest of the one-stream rows.
. "$(dirname "$0")/../support/lib.sh"

cpus=$(getconf _NPROCESSORS_ONLN)
# rows_of FOLDER: "runs threads verified cold" of the device-read-mt runs;
# runs counts the planned ones (a run the machine disturbed is rerun in a
# later round and marked retried: not counted, but verified and cold too).
rows_of() {
	awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["workload"] == "limit" && $col["strategy"] == "device-read-mt" {
		all++; n += $col["retried"] + 0 == 0; t[$col["threads"]]++; v += $col["verified"]
		if ($col["cache"] == "cold" && $col["resident_pct"] + 0 == 0) cold++
	}
	END { th = ""; for (k in t) th = th (th == "" ? "" : "/") k
	      printf "%d runs, threads %s, %s verified, %s cold\n", n, th,
		     v == all ? "all" : v " of " all, cold == all ? "all" : cold " of " all }' "$1/runs.csv"
}

run "$BENCH" --strategy readwrite,parallel,io_uring --dataset random,sparse --size 4M \
	--cache cold --repeat 2 --warmup 0 --syscalls off --dir "$T/d" --out "$T/res" --quiet
expect_eq rc "$RC" 0
[ -f "$T/res/runs.csv" ] || { fail "no runs.csv: $(cat "$T/.err")"; finish; }
want=$((cpus > 4 ? cpus : 4))
expect_eq default_concurrency "$(rows_of "$T/res")" "4 runs, threads $want, all verified, all cold"
# the one-stream device rows and the memory rows keep threads 0
others=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["workload"] == "limit" && $col["strategy"] != "device-read-mt" && $col["threads"] != 0 {
		print $col["strategy"] " threads " $col["threads"] }' "$T/res/runs.csv" | sort -u | tr '\n' ' ')
expect_eq one_stream_rows_threads_0 "$others" ""

# every ok cold copy's limit row is the fastest cold device row of its dataset
best=$(awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ wl[NR] = $col["workload"]; st[NR] = $col["strategy"]; ds[NR] = $col["dataset"]
	  ca[NR] = $col["cache"]; mb[NR] = $col["mb_per_s"] + 0; lr[NR] = $col["limit_row"]
	  ok[NR] = $col["status"] == "ok"; n = NR }
	END {
		for (r = 2; r <= n; r++) {
			if (wl[r] == "limit" || ca[r] != "cold" || !ok[r]) continue
			top = ""; rows = 0
			for (l = 2; l <= n; l++)
				if (wl[l] == "limit" && ca[l] == "cold" && ds[l] == ds[r]) {
					rows++
					if (st[r] == "readwrite" && st[l] == "device-read-mt") continue
					if (top == "" || mb[l] > mb[top]) top = l
				}
			if (rows != 3 || lr[r] != st[top])
				bad = bad st[r] "/" ds[r] ": " lr[r] " of " rows " rows; "
			checked++
		}
		print (checked >= 4 && bad == "") ? "ok" : checked " rows; " bad
	}' "$T/res/summary.csv")
expect_eq fastest_device_row "$best" ok

# the knobs of this invocation decide the count: the deeper of the two
run "$BENCH" --strategy readwrite --size 1M --cache cold --repeat 1 --warmup 0 --syscalls off \
	--queue-depth 7 --threads 3 --dir "$T/d" --out "$T/qd" --quiet
expect_eq rc_queue_depth "$RC" 0
expect_eq queue_depth_decides "$(rows_of "$T/qd")" "1 runs, threads 7, all verified, all cold"
run "$BENCH" --strategy readwrite --size 1M --cache cold --repeat 1 --warmup 0 --syscalls off \
	--queue-depth 2 --threads 9 --dir "$T/d" --out "$T/th" --quiet
expect_eq rc_threads "$RC" 0
expect_eq threads_decide "$(rows_of "$T/th")" "1 runs, threads 9, all verified, all cold"
finish
