#!/usr/bin/env bash
# fixtures_unknown_to_product_bench.sh - the strategies that exist only to
# test the harness (corrupt, throttled, touch-source, holes:
# tests/fixtures/) are not in the product: bench answers each name with its
# unknown-strategy line and exit 2, as a run and as `bench copy`, and
# `bench list --format json` names none of them. The tests' executable
# bench_fixtures knows each (its `bench copy` runs it: corrupt's output
# differs from the source, throttled's does not) and hides them from
# `bench list` as the product's list is: the two lists are the same.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
cd "$T" || exit 1
head -c 100000 /dev/urandom >"$T/src"

for f in corrupt throttled touch-source holes; do
	expect_fail "copy_$f" 2 "bench copy: --strategy '$f': unknown strategy (see bench list)" \
		"$BENCH" copy --strategy "$f" "$T/src" "$T/dst"
	expect_fail "run_$f" 2 "bench: unknown strategy '$f' (bench list shows them all)" \
		"$BENCH" --strategy "$f" --size 64K --dry-run --dir "$T/d" --out "$T/r-$f"
done
"$BENCH" list --format json --dir "$T" >"$T/product.json" 2>"$T/.err"
expect_eq product_list_rc "$?" 0
expect_eq product_list_names_none \
	"$(grep -Eo '"name": "(corrupt|throttled|touch-source|holes)"' "$T/product.json")" ""
expect_eq product_list_has_readwrite "$(grep -c '"name": "readwrite"' "$T/product.json")" 1

for f in corrupt throttled touch-source holes; do
	cp "$T/src" "$T/src-$f"
	run "$BENCH_FIXTURES" copy --strategy "$f" "$T/src-$f" "$T/dst-$f"
	expect_eq "fixtures_copy_${f}_rc" "$RC $(cat "$T/.err")" "0 "
done
expect_eq fixtures_corrupt_runs "$(cmp -s "$T/src" "$T/dst-corrupt" && echo same || echo differs)" differs
expect_eq fixtures_throttled_runs "$(cmp -s "$T/src" "$T/dst-throttled" && echo same || echo differs)" same
"$BENCH_FIXTURES" list --format json --dir "$T" >"$T/fixtures.json" 2>"$T/.err"
expect_eq fixtures_list_hides_them "$(diff "$T/product.json" "$T/fixtures.json")" ""
finish
