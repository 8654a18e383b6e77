#!/usr/bin/env bash
# per_line_cases_capped_and_said.sh - the default transform matrix runs its
# per-line cases on at most 4M of input, in a group of their own whose header
# says why; the batched cases run at the size asked for, under a plain header;
# and --batch-lines 1 runs per-line sends at the size asked for, with no note.
. "$(dirname "$0")/../support/lib.sh"

NOTE='per-line cases on 4M whatever --size: their MiB/s does not depend on size'
common=(--workload transform --strategy pipe --repeat 1 --warmup 0 --syscalls off --no-limits
	--dir "$T/d" --quiet)

run "$BENCH" "${common[@]}" --size 8M --out "$T/a"
expect_eq rc "$RC" 0
headers=$(grep '^transform · ' "$T/.out")
expect_eq headers "$headers" "transform · text · 8M · warm cache
transform · text · 4M · warm cache · $NOTE"
small=$(awk '/^transform · text · 4M/ { on = 1; next } /^[a-z]+ · / { on = 0 } on && /^  pipe /' "$T/.out")
expect_eq per_line_rows "$(echo "$small" | awk '{ print $3 }')" 1
big=$(awk '/^transform · text · 8M/ { on = 1; next } /^[a-z]+ · |^$/ { on = 0 } on && /^  pipe /' "$T/.out")
expect_eq batched_rows "$(echo "$big" | awk '{ print $3 }' | sort | tr '\n' ' ')" "5000 buf buf buf "

run "$BENCH" "${common[@]}" --size 8M --batch-lines 1 --out "$T/b"
expect_eq asked_rc "$RC" 0
expect_eq asked_headers "$(grep '^transform · ' "$T/.out")" "transform · text · 8M · warm cache"
finish
