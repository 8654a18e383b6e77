#!/usr/bin/env bash
# trees_in_list_help_and_headings.sh - the tree workload and its methods are
# found where the rest is: bench list (table and JSON), --help (--all runs it,
# --strategy names its methods); a tree run's heading says its files as "N x
# S" and does not repeat the workload.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1

run "$BENCH" list --dir "$T"
expect_eq list_rc "$RC" 0
expect_eq list_methods_heading "$(grep -c "^methods of workload tree (--strategy NAME; probed in $T):$" "$T/.out")" 1
for m in uring pool inode-order; do
	grep -Eq "^  $m +(available|unavailable) " "$T/.out" && pass || fail "list: no $m: $(cat "$T/.out")"
done
run "$BENCH" list --dir "$T" --format json
expect_eq list_json_methods "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(sorted(m["name"] + "/" + m["workload"] for m in d["methods"])))' "$T/.out" 2>&1)" \
	"inode-order/tree pool/tree uring/tree"

run "$BENCH" --help
grep -q -- '--all .*every workload (copy, split, transform, tree)' "$T/.out" && pass || fail "--help --all: $(grep -- '--all' "$T/.out")"
grep -A2 -- '--strategy LIST' "$T/.out" | grep -q 'tree methods (tree: uring, pool' && pass ||
	fail "--help --strategy: $(grep -A2 -- '--strategy LIST' "$T/.out")"

# bench list's --help says where it probes by default: ., as it does
run "$BENCH" list --help
expect_eq list_dir_default "$(grep -A1 -- '--dir DIR' "$T/.out" | grep -c '(default: \.)')" 1

run "$BENCH" --workload tree --files 10 --size 4K --strategy readwrite --repeat 1 --warmup 0 \
	--syscalls off --no-limits --quiet --dir "$T/d" --out "$T/res"
expect_eq tree_rc "$RC" 0
expect_eq tree_heading "$(grep -c '^tree · 10 x 4K (40K in all) · warm cache$' "$T/.out")" 1
expect_eq tree_not_twice "$(grep -c 'tree · tree' "$T/.out")" 0
finish
