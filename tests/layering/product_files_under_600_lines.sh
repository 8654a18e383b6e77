#!/usr/bin/env bash
# product_files_under_600_lines.sh - no C file of the product is over 600
# lines: a file past that has grown two jobs, and is split along its seam
# (docs/contributing.md, "The layers"). Prints each file over, then the
# count; exits 0 when it is 0.
set -u
cd "${SOURCE_DIR:?SOURCE_DIR names the source tree}" || exit 1
limit=600
files=$(find harness lib strategies workloads datasets tools -name '*.c' | LC_ALL=C sort)
[ -n "$files" ] || { echo "no C files found: the scan is broken" >&2; exit 1; }
over=0
while read -r n f; do
	[ "$f" = total ] && continue
	if [ "$n" -gt "$limit" ]; then
		echo "$f: $n lines, over $limit"
		over=$((over + 1))
	fi
done < <(xargs wc -l <<<"$files")
echo "$(wc -l <<<"$files") product C files, $over over $limit lines"
[ "$over" -eq 0 ]
