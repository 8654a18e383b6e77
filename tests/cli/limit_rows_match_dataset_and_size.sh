#!/usr/bin/env bash
# limit_rows_match_dataset_and_size.sh - each row is divided by the limit row
# of its own dataset and size: with cold runs on a random and a sparse dataset
# (a sparse file reads holes, far faster), there are device rows per dataset
# (device-read, device-read-mt, device-direct), and every cold copy's
# pct_of_limit is its MiB/s over the fastest device row of the same dataset
# and size (readwrite, one stream: of the one-stream rows, device-read-mt left
# out); warm copies are divided by the faster of the one-CPU rows (memcpy,
# memcpy-movsb), the multi-CPU `parallel` by the fastest memory row.
. "$(dirname "$0")/../support/lib.sh"

run "$BENCH" --strategy readwrite,parallel --dataset random,sparse --size 8M --cache both \
	--repeat 2 --syscalls off --dir "$T/d" --out "$T/res" --quiet
expect_eq rc "$RC" 0
[ -f "$T/res/summary.csv" ] || { fail "no summary.csv: $(cat "$T/.err")"; finish; }

# check WHAT: awk prints "ok" or what is wrong, for every copy row
check() {
	awk -F, -v what="$1" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ wl[NR] = $col["workload"]; st[NR] = $col["strategy"]; ds[NR] = $col["dataset"]
	  sz[NR] = $col["size_bytes"]; ca[NR] = $col["cache"]; mb[NR] = $col["mb_per_s"]
	  pct[NR] = $col["pct_of_limit"]; n = NR }
	END {
		for (r = 2; r <= n; r++) {
			if (wl[r] == "limit") { if (ca[r] == "cold") devices[ds[r]]++; continue }
			want = ca[r] == "warm" ? (st[r] == "parallel" ? "memory" : "one-cpu") : "device"
			best = 0
			for (l = 2; l <= n; l++) {
				if (wl[l] != "limit" || sz[l] != sz[r]) continue
				if (want == "device" && (ca[l] != "cold" || ds[l] != ds[r])) continue
				if (want == "device" && st[r] == "readwrite" && st[l] == "device-read-mt") continue
				if (want == "one-cpu" && st[l] != "memcpy" && st[l] != "memcpy-movsb") continue
				if (want == "memory" && ca[l] != "warm") continue
				if (mb[l] > best) best = mb[l]
			}
			want_pct = 100 * mb[r] / best
			if (best == 0 || pct[r] == "" || (pct[r] - want_pct) > 0.2 || (want_pct - pct[r]) > 0.2)
				printf "%s %s %s: pct_of_limit %s, expected %.1f\n", st[r], ds[r], ca[r], pct[r], want_pct
			else
				ok++
		}
		if (what == "devices") print (devices["random"] == 3 && devices["sparse"] == 3) ? "ok" : "device rows: random " devices["random"] ", sparse " devices["sparse"]
		else print (ok == 8) ? "ok" : "rows matched: " ok " of 8"
	}' "$T/res/summary.csv"
}
expect_eq device_rows_per_dataset "$(check devices | tail -n 1)" ok
expect_eq every_row_its_own_limit "$(check rows | tr '\n' ' ' | sed 's/ $//')" ok
finish
