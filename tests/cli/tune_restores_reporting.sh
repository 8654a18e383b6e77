#!/usr/bin/env bash
# tune_restores_reporting.sh - `bench --tune` (root) turns a VM's free-page
# reporting off for the run (page_reporting_order 11) and puts the old value
# back at the end, also when the run is interrupted. Skipped where the kernel
# has no free-page reporting or without root.
. "$(dirname "$0")/../support/lib.sh"

param=/sys/module/page_reporting/parameters/page_reporting_order
is_root || skip "not root: --tune changes a kernel parameter"
[ -w "$param" ] || skip "no free-page reporting here ($param)"
before=$(cat "$param")
[ "$before" -lt 11 ] || skip "free-page reporting is off already (order $before)"

"$BENCH" --tune --size 1M --strategy readwrite --repeat 100000 --syscalls off --no-limits \
	--dir "$T/d" --out "$T/res" >"$T/.out" 2>"$T/.err" &
pid=$!
until grep -q '^bench: round 2/[0-9]* done' "$T/.err" 2>/dev/null; do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.01
done
expect_eq during_run "$(cat "$param")" 11
grep -q "^bench: --tune: free-page reporting off for this run (page_reporting_order $before -> 11), restored at the end$" "$T/.err" &&
	pass || fail "no --tune line: $(head -5 "$T/.err")"
kill -INT "$pid"
wait "$pid"
expect_eq interrupted_rc $? 130
expect_eq restored "$(cat "$param")" "$before"
finish
