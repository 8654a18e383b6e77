#!/usr/bin/env bash
# check_end_to_end.sh - bench check on real runs of this build:
#   two runs of the same cases                         -> exit 0
#   a case made genuinely slower (readwrite with a 4K buffer recorded under
#   the name of the 1M case)                           -> exit 1, that case `regression`
#   a case whose syscall count changed (64K buffer recorded as 1M)
#                                                      -> exit 1, `syscalls-changed`
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
relabel() {	# relabel DIR FROM TO: record readwrite's buffer FROM as TO
	sed -i "s/^copy,readwrite,random,16777216,$2,/copy,readwrite,random,16777216,$3,/" \
		"$work/$1/runs.csv" "$work/$1/syscalls.csv"
}

run base 1M && run same 1M && run slow 4K && run more 64K || { echo "FAIL: a run failed" >&2; exit 1; }
relabel slow 4096 1048576
relabel more 65536 1048576

"$bench" check --baseline "$work/base" --current "$work/same" >"$work/out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || no "identical builds: exit $rc, expected 0: $(cat "$work/out")"

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

echo "check_end_to_end: $pass passed, $fail failed"
[ $fail -eq 0 ]
