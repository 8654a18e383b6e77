#!/usr/bin/env bash
# private_headers.sh - no product file includes another room's private
# header. A room's private header is a <name>_internal.h in its folder
# (harness/<room>/, lib/, strategies/, ...); only files of that same folder
# may include it, however the #include names it (bare, by room, or by a
# relative path). Nor does any include climb out of its folder with "../":
# another room's header is named with its room ("run/runner.h"), which the
# build's doors resolve (copybench_door in CMakeLists.txt). And each run of
# project includes is in order (below). Prints each
# include that breaks a rule, then the counts; exits 0 when all are 0, 1
# otherwise.
set -u
cd "${SOURCE_DIR:?SOURCE_DIR names the source tree}" || exit 1
product=(harness lib strategies workloads datasets tools/gbench)

# The folder of each private header, by its name (names are unique).
declare -A home
while IFS= read -r h; do
	home[${h##*/}]=${h%/*}
done < <(find "${product[@]}" -name '*_internal.h' | LC_ALL=C sort)
[ "${#home[@]}" -gt 0 ] || { echo "no *_internal.h found under ${product[*]}" >&2; exit 1; }

# includes REGEX: each product line "file:line:text" whose quoted include
# starts with REGEX.
includes() {
	grep -rnE --include='*.c' --include='*.h' --include='*.cc' \
		"^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$1" "${product[@]}" | LC_ALL=C sort
}
# report WHY: prints each line read with WHY after it, then their count.
report() {
	local n=0 hit
	while IFS= read -r hit; do
		echo "$hit: $1" >&2
		n=$((n + 1))
	done
	echo "$n"
}

wrong=0
checked=0
while IFS=: read -r file line text; do
	name=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1/' <<<"$text")
	name=${name##*/}
	checked=$((checked + 1))
	if [ "${home[$name]:-}" != "${file%/*}" ]; then
		echo "$file:$line: includes $name, private to ${home[$name]:-no room (not found)}/"
		wrong=$((wrong + 1))
	fi
done < <(includes '[^"]*_internal\.h"')

climbing=$(includes '[^"]*\.\./' | report "climbs out of its folder; name the room instead")

# Each run of project includes is in order: the file's own header, the
# others of its folder (bare names), then other rooms' by path, each group
# sorted, so a reader finds a name's room at a glance.
unsorted=$(find "${product[@]}" \( -name '*.c' -o -name '*.h' -o -name '*.cc' \) -print0 |
	LC_ALL=C sort -z | LC_ALL=C xargs -0 awk '
	FNR == 1 { own = FILENAME; sub(/.*\//, "", own); sub(/\.[a-z]+$/, ".h", own); prev = "" }
	/^#include "/ {
		name = $2; gsub(/"/, "", name)
		key = (name == own ? "0" : index(name, "/") ? "2" : "1") name
		if (prev != "" && key < prev) print FILENAME ":" FNR ": " name
		prev = key; next
	}
	{ prev = "" }' | report "out of order (own header, own folder's, then rooms' by name)")

echo "$checked includes of a private header, $wrong of another room's, $climbing climbing with ../, $unsorted out of order"
[ "$checked" -gt 0 ] || { echo "no include of a private header found: the scan is broken" >&2; exit 1; }
[ "$wrong" -eq 0 ] && [ "$climbing" -eq 0 ] && [ "$unsorted" -eq 0 ]
