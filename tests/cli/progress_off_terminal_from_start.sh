#!/usr/bin/env bash
# progress_off_terminal_from_start.sh - with stderr not a terminal (a CI log),
# the progress shows from the first case on, before any round ends: one plain
# line with the round and the case and the time left by the plan's estimate,
# the rounds counted as planned (the counting round and the measured ones;
# retries count past them).
. "$(dirname "$0")/../support/lib.sh"

run "$BENCH" --strategy readwrite,sendfile --size 64K --repeat 2 --no-limits \
	--dir "$T/d" --out "$T/r"
expect_eq run "$RC" 0
# 2 cases (readwrite, sendfile; --no-limits: no memcpy rows), 1
# counting round + 2 measured rounds
first=$(grep -n -m 1 '^bench: \[round' "$T/.err")
done1=$(grep -n -m 1 '^bench: round 1/' "$T/.err")
expect_eq first_case_line "$(sed -E 's/^[0-9]+:(bench: \[round 1\/3, case 1\/2, 0 s, about )[0-9]+( s left\]) .*/\1N\2/' <<<"$first")" \
	"bench: [round 1/3, case 1/2, 0 s, about N s left]"
expect_eq before_round_end "$([ -n "$first" ] && [ "${first%%:*}" -lt "${done1%%:*}" ] && echo yes)" yes
expect_eq rounds_as_planned "$(grep -c '^bench: round [123]/3 done' "$T/.err")" 3
finish
