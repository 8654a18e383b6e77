#!/usr/bin/env bash
# first_touch_cost_in_meta_and_table.sh - fresh memory's first-touch cost is
# measured once per invocation and written to meta.json
# (machine.first_touch_us_4k and machine.first_touch_us_huge, µs per 4 KiB)
# and under the table's first line, the same figures: a positive number below
# a tenth of a second per page, the huge-page one null exactly when the kernel
# has THP off.
. "$(dirname "$0")/../support/lib.sh"
command -v jq >/dev/null || skip "jq is not installed (Debian: jq)"

run "$BENCH" --strategy readwrite --size 1M --repeat 1 --warmup 0 --syscalls off --no-limits \
	--dir "$T/d" --out "$T/r"
expect_eq rc "$RC" 0
M=$T/r/meta.json
[ -f "$M" ] || { fail "no meta.json: $(cat "$T/.err")"; finish; }

sane='type == "number" and . > 0 and . < 100000'
expect_eq us_4k "$(jq -r ".machine.first_touch_us_4k | $sane" "$M")" true
huge=$(jq -r ".machine.first_touch_us_huge | if . == null then \"null\" else ($sane) end" "$M")
case "$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)" in
*"[never]"* | "") expect_eq us_huge_none "$huge" null ;;
*) if [ "$huge" = true ] || [ "$huge" = null ]; then pass; else fail "us_huge: $huge"; fi ;;
esac

# the table's line says the same figures
want_4k=$(jq -r '.machine.first_touch_us_4k * 100 | round / 100 | tostring' "$M")
got_4k=$(sed -n 's/^fresh memory: first touch \([0-9.]*\) µs per 4 KiB page, .*/\1/p' "$T/.out")
expect_eq table_4k "$(awk -v a="$got_4k" -v b="$want_4k" 'BEGIN { d = a - b; print (a != "" && d < 0.0101 && d > -0.0101) ? "same" : a " vs " b }')" same
expect_eq table_lines "$(grep -c '^fresh memory: first touch' "$T/.out")" 1
finish
