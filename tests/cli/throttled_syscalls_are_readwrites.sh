#!/usr/bin/env bash
# throttled_syscalls_are_readwrites.sh - the fixture throttled (bench_fixtures) is a
# known slowdown of readwrite and nothing else: at any COPYBENCH_THROTTLE_PCT
# its counted system calls are readwrite's, call by call, so that a history or
# a check sees the slowdown as a timing change, not as changed system calls.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
D=$T/d

# calls DIR STRATEGY: "name=count" of the strategy's counting run, sorted.
calls() {
	awk -F, -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "syscall") n = i; if ($i == "count") c = i }; next }
		$2 == s && $c > 0 { print $n "=" $c }' "$1/syscalls.csv" | sort | tr '\n' ' '
}

for pct in 0 50; do
	COPYBENCH_THROTTLE_PCT=$pct run "$BENCH_FIXTURES" --strategy readwrite,throttled --size 1M --repeat 2 \
		--no-limits --dir "$D" --out "$T/p$pct" --quiet
	expect_eq "rc_at_$pct" "$RC" 0
	if [ ! -s "$T/p$pct/syscalls.csv" ] || [ -z "$(calls "$T/p$pct" readwrite)" ]; then
		skip "system calls cannot be counted here"
	fi
	expect_eq "throttled_calls_at_$pct" "$(calls "$T/p$pct" throttled)" "$(calls "$T/p$pct" readwrite)"
done
finish
