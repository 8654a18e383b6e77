#!/usr/bin/env bash
# limit_buffers_beyond_cache.sh - the memory limit rows copy between buffers
# larger than the last-level cache at every size: at --size 1M, each of
# memcpy, memcpy-movsb and memcpy-mt writes two buffers of at least 64 MiB
# before the clock, so the child's largest resident set is at least
# 128 MiB (a 1 MiB row that measured the CPU's caches held 2 MiB).
. "$(dirname "$0")/../support/lib.sh"
run "$BENCH" --strategy readwrite --size 1M --repeat 2 --syscalls off --dir "$T/d" --out "$T/r" --quiet
expect_eq run_rc "$RC" 0
small=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == "limit" && $2 ~ /^memcpy/ { n++; if ($(c["max_rss_kb"]) < 131072) print $2, $(c["max_rss_kb"]) }
	END { if (n < 4) print "only", n + 0, "memory limit runs" }' "$T/r/runs.csv")
expect_eq buffers_beyond_cache "$small" ""
finish
