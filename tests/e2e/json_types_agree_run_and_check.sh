#!/usr/bin/env bash
# json_types_agree_run_and_check.sh - a field has one JSON type wherever bench
# writes it: the identifying columns (sizes, counts, flags) that a run's JSON
# gives as numbers and booleans, bench check's JSON gives the same way, not as
# strings.
. "$(dirname "$0")/../support/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"

run "$BENCH" --strategy readwrite --size 64K --repeat 3 --warmup 0 --no-limits --quiet --syscalls off \
	--dir "$T/d" --out "$T/r" --format json
expect_eq run_rc "$RC" 0
cp "$T/.out" "$T/run.json"
run "$BENCH" check --baseline "$T/r" --current "$T/r" --format json
# three runs a side can never clear a case: inconclusive, exit 3 (docs/check.md)
expect_eq check_rc "$RC" 3
cp "$T/.out" "$T/check.json"
# every key the two share in a case: the same JSON type
python3 - "$T/run.json" "$T/check.json" >"$T/types" 2>&1 <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["cases"][0]
chk = json.load(open(sys.argv[2]))["cases"][0]
name = lambda v: "null" if v is None else type(v).__name__.replace("int", "number").replace("float", "number")
shared = sorted(k for k in run if k in chk)
print("shared", len(shared))
for k in shared:
    if name(run[k]) != name(chk[k]) and None not in (run[k], chk[k]):
        print("differs", k, name(run[k]), name(chk[k]))
PY
grep -q '^shared [1-9]' "$T/types" && pass || fail "no shared keys: $(cat "$T/types")"
expect_eq same_types "$(grep -v '^shared ' "$T/types")" ""
finish
