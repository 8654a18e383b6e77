#!/usr/bin/env bash
# readme-columns.sh - rewrite the column list of results/README.md (the block
# between its `<!-- columns: ... -->` markers) from the table in
# harness/results/columns.c, as printed by `bench columns --markdown`. Run it after
# changing a column; the test columns_readme_agrees fails until then.
#
#   tools/readme-columns.sh [BENCH]      default build/bench
set -euo pipefail
cd "$(dirname "$0")/.."
bench=${1:-build/bench}
readme=results/README.md
block=$(mktemp)
out=$(mktemp)
trap 'rm -f "$block" "$out"' EXIT
"$bench" columns --markdown >"$block"
grep -q '^<!-- columns: generated' "$readme" && grep -q '^<!-- columns: end -->$' "$readme" ||
	{ echo "readme-columns.sh: $readme has no columns block" >&2; exit 1; }
awk -v block="$block" '
	/^<!-- columns: generated/ { while ((getline line < block) > 0) print line; skip = 1; next }
	/^<!-- columns: end -->$/ { skip = 0; next }
	!skip { print }
' "$readme" >"$out"
cat "$out" >"$readme"
echo "readme-columns.sh: $readme updated" >&2
