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
set -u
bench=${BENCH:?BENCH must name the bench executable}
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-e2e-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

run() {	# run NAME BUFFER: readwrite and copy_file_range, 8 measured runs
	"$bench" --strategy readwrite,copy_file_range --buffer "$2" --size 16M --repeat 8 \
		--warmup 1 --quiet --dir "$work/data" --out "$work/$1" >"$work/$1.out" 2>&1 ||
		{ echo "bench run $1 failed:" >&2; cat "$work/$1.out" >&2; return 1; }
}
reorder() {	# reorder FROM TO: the same rows, the runs of each case reversed
	mkdir -p "$work/$2" && cp "$work/$1/syscalls.csv" "$work/$2/" &&
	{ head -n 1 "$work/$1/runs.csv"; tail -n +2 "$work/$1/runs.csv" | tac; } >"$work/$2/runs.csv"
}
slow_down() {	# slow_down FROM TO: every readwrite run slower than the slowest before
	mkdir -p "$work/$2" && cp "$work/$1/syscalls.csv" "$work/$2/" &&
	awk -F, -v OFS=, 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_ns") w = i; if (NR > 1) print; next }
		NR == FNR { if ($2 == "readwrite" && $w > max) max = $w; next }
		$2 == "readwrite" { $w = $w + 2 * max } { print }' \
		"$work/$1/runs.csv" "$work/$1/runs.csv" >"$work/$2/runs.csv"
}
relabel() {	# relabel DIR FROM TO: record readwrite's buffer FROM as TO
	sed -i "s/^copy,readwrite,random,16777216,$2,/copy,readwrite,random,16777216,$3,/" \
		"$work/$1/runs.csv" "$work/$1/syscalls.csv"
}

run base 1M && run more 64K || { echo "FAIL: a run failed" >&2; exit 1; }
reorder base same && slow_down base slow || { echo "FAIL: cannot derive results" >&2; exit 1; }
relabel more 65536 1048576

"$bench" check --baseline "$work/base" --current "$work/same" >"$work/out" 2>&1
rc=$?
{ [ $rc -eq 0 ] || { [ $rc -eq 3 ] &&
	grep -q '^bench check: inconclusive: .*the smallest slowdown these runs rule out is' "$work/out"; }; } &&
	ok || no "the same runs: exit $rc, expected 0 or 3 with the smallest change: $(cat "$work/out")"

"$bench" check --baseline "$work/base" --current "$work/slow" --ignore-syscalls >"$work/out" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || no "slower case: exit $rc, expected 1"
grep -Eq '^copy/readwrite random 16M buf 1M warm .* regression' "$work/out" && ok ||
	no "slower case not named as regression: $(cat "$work/out")"
grep -Eq '^copy/copy_file_range .* regression' "$work/out" && no "copy_file_range flagged" || ok

"$bench" check --baseline "$work/base" --current "$work/more" --only-syscalls >"$work/out" 2>&1
rc=$?
[ $rc -eq 1 ] && ok || no "syscall change: exit $rc, expected 1"
grep -Eq '^copy/readwrite random 16M buf 1M warm .*syscalls-changed.*pread64 16->256' "$work/out" && ok ||
	no "syscall change not reported exactly: $(cat "$work/out")"

"$bench" check --baseline "$work/base" --current "$work/nonexistent" >"$work/out" 2>&1
rc=$?
[ $rc -eq 2 ] && ok || no "missing input: exit $rc, expected 2"

# Said before running: 5 runs a case cannot be judged over 3 cases (1/252 x 3 > 0.01).
"$bench" --strategy readwrite,sendfile,splice --size 1M --repeat 5 --warmup 0 --no-limits \
	--syscalls off --dir "$work/data" --out "$work/five" >"$work/out" 2>&1
grep -q '^bench: note: with 5 measured runs a case, bench check cannot judge the timing of these 3 cases' "$work/out" &&
	ok || no "no note before 5 runs: $(cat "$work/out")"

echo "check_end_to_end: $pass passed, $fail failed"
[ $fail -eq 0 ]
