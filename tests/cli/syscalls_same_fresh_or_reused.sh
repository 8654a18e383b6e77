#!/usr/bin/env bash
# syscalls_same_fresh_or_reused.sh - a run's system-call counts do not depend on
# what the bench process did before the run: the same cases counted in an
# invocation that generated its datasets (the parent's heap grew and shrank)
# and in one that reused them give exactly the same syscalls.csv.
set -u
bench=${BENCH:?BENCH must name the bench executable}
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-sysfresh-XXXXXX")
trap 'rm -rf "$work"' EXIT

# Under AddressSanitizer malloc is the sanitizer's allocator, whose state the
# timed child inherits from bench: when it maps memory depends on what the
# parent did (seen: lines' mmap 2 vs 3 in a build chroot). The fresh child
# allocator is glibc's; the exact counts are a release build's.
if ldd "$bench" 2>/dev/null | grep -q libasan; then
	echo "SKIP: a sanitizer build: its allocator's mmaps follow the parent's history (counts are exact in a release build)"
	exit 77
fi

run() {	# run NAME: three strategies that allocate differently, counted
	"$bench" --strategy readwrite,stdio,lines --size 2M --dataset text --repeat 1 --no-limits \
		--quiet --dir "$work/data" --out "$work/$1" >"$work/$1.out" 2>&1 ||
		{ echo "FAIL: bench run $1: $(cat "$work/$1.out")" >&2; exit 1; }
}
run fresh	# makes the dataset first
run reused
if ! grep -q ',perf,\|,ptrace,' "$work/fresh/syscalls.csv"; then
	echo "SKIP: no syscall counting here: $(grep -m1 'syscalls: n/a' "$work/fresh.out")"
	exit 77
fi
if diff <(cut -d, -f1-17 "$work/fresh/syscalls.csv") <(cut -d, -f1-17 "$work/reused/syscalls.csv") >"$work/diff"; then
	echo "syscalls_fresh_or_reused: 1 passed, 0 failed"
	exit 0
fi
echo "FAIL: the counts differ between a run that made its dataset and one that reused it:" >&2
cat "$work/diff" >&2
exit 1
