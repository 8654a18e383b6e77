#!/usr/bin/env bash
# check_end_to_end.sh - bench check on the results of real runs of this
# build, made different in ways whose verdict is certain (the verdicts on
# real timing noise belong to benchmarks, not to a test):
#   the same runs in another order                     -> exit 0 (no regression), or
#                      3 (inconclusive: the runs spread too much to rule out
#                      the threshold) with the smallest change they rule out
#   each readwrite run slower than the slowest before  -> exit 1, that case `regression`
#   a case whose syscall count changed (64K buffer recorded as 1M)
#                                                      -> exit 1, `syscalls-changed`
# and a run whose cases cannot be judged with the runs asked for says so first.
. "$(dirname "$0")/../support/lib.sh"

bench_pair() {	# bench_pair NAME BUFFER: readwrite and copy_file_range, 8 measured runs
	"$BENCH" --strategy readwrite,copy_file_range --buffer "$2" --size 16M --repeat 8 \
		--warmup 1 --quiet --dir "$T/data" --out "$T/$1" >"$T/$1.out" 2>&1 ||
		{ echo "bench run $1 failed:" >&2; cat "$T/$1.out" >&2; return 1; }
}
reorder() {	# reorder FROM TO: the same rows, the runs of each case reversed
	mkdir -p "$T/$2" && cp "$T/$1/syscalls.csv" "$T/$2/" &&
	{ head -n 1 "$T/$1/runs.csv"; tail -n +2 "$T/$1/runs.csv" | tac; } >"$T/$2/runs.csv"
}
slow_down() {	# slow_down FROM TO: every readwrite run slower than the slowest before
	mkdir -p "$T/$2" && cp "$T/$1/syscalls.csv" "$T/$2/" &&
	awk -F, -v OFS=, 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_ns") w = i; if (NR > 1) print; next }
		NR == FNR { if ($2 == "readwrite" && $w > max) max = $w; next }
		$2 == "readwrite" { $w = $w + 2 * max } { print }' \
		"$T/$1/runs.csv" "$T/$1/runs.csv" >"$T/$2/runs.csv"
}
relabel() {	# relabel DIR FROM TO: record readwrite's buffer FROM as TO
	sed -i "s/^copy,readwrite,random,16777216,$2,/copy,readwrite,random,16777216,$3,/" \
		"$T/$1/runs.csv" "$T/$1/syscalls.csv"
}

bench_pair base 1M && bench_pair more 64K || { echo "FAIL: a run failed" >&2; exit 1; }
reorder base same && slow_down base slow || { echo "FAIL: cannot derive results" >&2; exit 1; }
relabel more 65536 1048576

"$BENCH" check --baseline "$T/base" --current "$T/same" >"$T/out" 2>&1
rc=$?
{ [ $rc -eq 0 ] || { [ $rc -eq 3 ] &&
	grep -q '^bench check: inconclusive: .*the smallest slowdown these runs rule out is' "$T/out"; }; } &&
	pass || fail "the same runs: exit $rc, expected 0 or 3 with the smallest change: $(cat "$T/out")"

"$BENCH" check --baseline "$T/base" --current "$T/slow" --ignore-syscalls >"$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && pass || fail "slower case: exit $rc, expected 1"
grep -Eq '^copy/readwrite random 16M buf 1M warm .* regression' "$T/out" && pass ||
	fail "slower case not named as regression: $(cat "$T/out")"
grep -Eq '^copy/copy_file_range .* regression' "$T/out" && fail "copy_file_range flagged" || pass

"$BENCH" check --baseline "$T/base" --current "$T/more" --only-syscalls >"$T/out" 2>&1
rc=$?
[ $rc -eq 1 ] && pass || fail "syscall change: exit $rc, expected 1"
grep -Eq '^copy/readwrite random 16M buf 1M warm .*syscalls-changed.*pread64 16->256' "$T/out" && pass ||
	fail "syscall change not reported exactly: $(cat "$T/out")"

"$BENCH" check --baseline "$T/base" --current "$T/nonexistent" >"$T/out" 2>&1
rc=$?
[ $rc -eq 2 ] && pass || fail "missing input: exit $rc, expected 2"

# Said before running: 5 runs a case cannot be judged over 3 cases (1/252 x 3 > 0.01).
"$BENCH" --strategy readwrite,sendfile,splice --size 1M --repeat 5 --warmup 0 --no-limits \
	--syscalls off --dir "$T/data" --out "$T/five" >"$T/out" 2>&1
grep -q '^bench: note: with 5 measured runs a case, bench check cannot judge the timing of these 3 cases' "$T/out" &&
	pass || fail "no note before 5 runs: $(cat "$T/out")"

finish
