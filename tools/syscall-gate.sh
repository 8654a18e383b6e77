#!/usr/bin/env bash
# syscall-gate.sh - fail when a strategy's system calls changed.
#
# Runs a small copy benchmark and compares its exact syscall counts with the
# committed baseline results/baseline/ci-syscalls.csv (bench check
# --only-syscalls). A change that adds or removes a system call anywhere in a
# strategy fails, however small its effect on time.
#
#   tools/syscall-gate.sh            compare (exit 1 on a change)
#   tools/syscall-gate.sh --update   re-record the baseline after an intended change
#
# Every strategy takes part (`all`: not the test-only ones); the gate names
# none. Those that run on several CPUs (STRATEGY_MULTI_CPU: io_uring's
# io_uring_enter depends on when completions arrive, parallel's futex calls
# on scheduling) make timing-dependent numbers of calls: bench check shows
# their change without a verdict. One unavailable here is unavailable in both.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${BENCH:-build/bench}
baseline=results/baseline/ci-syscalls.csv
strategies=all
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-gate-XXXXXX")
trap 'rm -rf "$work"' EXIT

"$bench" --workload copy --strategy "$strategies" --size 8M --repeat 1 --warmup 1 \
	--no-limits --quiet --syscalls auto --dir "$work/data" --out "$work/run" >/dev/null
if [ "${1:-}" = "--update" ]; then
	mkdir -p "$(dirname "$baseline")"
	"$bench" baseline save "$work/run" "$baseline"
	echo "syscall-gate: baseline written to $baseline" >&2
	exit 0
fi
# not exec: the EXIT trap must still remove $work
"$bench" check --only-syscalls --baseline "$baseline" --current "$work/run"
