#!/usr/bin/env bash
# verification_failure_exits_1.sh - a copy whose output differs from its
# source is caught: the fixture `corrupt` (bench_fixtures, tests/fixtures/)
# flips one byte after copying.
#   bench exits 1, the table says FAILED with the hash mismatch, summary.csv
#   says `failed: verification failed`, and the strategies beside it are
#   still measured and verified. A run that failed in the (unmeasured)
#   counting round leaves no row in runs.csv; a measured run that failed is
#   recorded with verified = 0, and the table counts it.
set -u
bench=${BENCH_FIXTURES:?BENCH_FIXTURES must name the bench_fixtures executable}
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-verify-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

"$bench" --strategy corrupt,readwrite --size 1M --repeat 2 --no-limits --quiet \
	--dir "$work/data" --out "$work/res" >"$work/out" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || no "exit $rc, expected 1"
grep -Eq '^  corrupt .*FAILED: verification failed: output hash [0-9a-f]{16} differs from the source' "$work/out" && ok ||
	no "no FAILED row: $(cat "$work/out")"
grep -q '^copy,corrupt,.*,failed: verification failed' "$work/res/summary.csv" && ok || no "summary.csv status"
grep -q '^copy,corrupt,' "$work/res/runs.csv" && no "the failed counting run was recorded as a measurement" || ok
counted=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "retried") c = i; next }
	$2 == "readwrite" && $c == 0 { n++ } END { print n + 0 }' "$work/res/runs.csv")
[ "$counted" -eq 2 ] && ok || no "readwrite beside it was not measured twice ($counted counted runs)"

# no counting round and no warm-up: the first run is measured, and recorded
"$bench" --strategy corrupt --size 1M --repeat 2 --warmup 0 --syscalls off --no-limits --quiet \
	--dir "$work/data" --out "$work/res2" >"$work/out2" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || no "measured failure: exit $rc, expected 1"
grep -Eq '^  corrupt .*FAILED \(0 of 1 runs verified\): verification failed' "$work/out2" && ok ||
	no "measured failure not counted in the table: $(cat "$work/out2")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verified") v = i; next }
	$2 == "corrupt" { n++; if ($v != "0") bad = 1 } END { exit !(n == 1 && !bad) }' \
	"$work/res2/runs.csv" && ok || no "runs.csv does not hold the one failed run with verified 0"
[ -z "$(ls "$work/data" | grep -v '\.dat$\|\.manifest$')" ] && ok || no "left in --dir: $(ls "$work/data")"

echo "verification_failure: $pass passed, $fail failed"
[ $fail -eq 0 ]
