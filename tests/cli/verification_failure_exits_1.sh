#!/usr/bin/env bash
# verification_failure_exits_1.sh - a copy whose output differs from its
# source is caught: the fixture `corrupt` (bench_fixtures, tests/fixtures/)
# flips one byte after copying.
#   bench exits 1, the table says FAILED with the hash mismatch, summary.csv
#   says `failed: verification failed`, and the strategies beside it are
#   still measured and verified. A run that failed in the (unmeasured)
#   counting round leaves no row in runs.csv; a measured run that failed is
#   recorded with verified = 0, and the table counts it.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures

"$BENCH_FIXTURES" --strategy corrupt,readwrite --size 1M --repeat 2 --no-limits --quiet \
	--dir "$T/data" --out "$T/res" >"$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && pass || fail "exit $rc, expected 1"
grep -Eq '^  corrupt .*FAILED: verification failed: output hash [0-9a-f]{16} differs from the source' "$T/out" && pass ||
	fail "no FAILED row: $(cat "$T/out")"
grep -q '^copy,corrupt,.*,failed: verification failed' "$T/res/summary.csv" && pass || fail "summary.csv status"
grep -q '^copy,corrupt,' "$T/res/runs.csv" && fail "the failed counting run was recorded as a measurement" || pass
counted=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "retried") c = i; next }
	$2 == "readwrite" && $c == 0 { n++ } END { print n + 0 }' "$T/res/runs.csv")
[ "$counted" -eq 2 ] && pass || fail "readwrite beside it was not measured twice ($counted counted runs)"

# no counting round and no warm-up: the first run is measured, and recorded
"$BENCH_FIXTURES" --strategy corrupt --size 1M --repeat 2 --warmup 0 --syscalls off --no-limits --quiet \
	--dir "$T/data" --out "$T/res2" >"$T/out2" 2>&1
rc=$?
[ $rc -eq 1 ] && pass || fail "measured failure: exit $rc, expected 1"
grep -Eq '^  corrupt .*FAILED \(0 of 1 runs verified\): verification failed' "$T/out2" && pass ||
	fail "measured failure not counted in the table: $(cat "$T/out2")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verified") v = i; next }
	$2 == "corrupt" { n++; if ($v != "0") bad = 1 } END { exit !(n == 1 && !bad) }' \
	"$T/res2/runs.csv" && pass || fail "runs.csv does not hold the one failed run with verified 0"
[ -z "$(ls "$T/data" | grep -v '\.dat$\|\.manifest$')" ] && pass || fail "left in --dir: $(ls "$T/data")"

finish
