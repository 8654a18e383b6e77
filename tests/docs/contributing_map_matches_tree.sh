#!/usr/bin/env bash
# contributing_map_matches_tree.sh - the newcomer's map in
# docs/contributing.md ("The layers, and what may include what"): its
# table of layers names every folder of the product and no other: lib/,
# strategies/, datasets/, workloads/ and each room of harness/, in the order
# the build stacks them (CMakeLists.txt, then harness/CMakeLists.txt's
# copybench_room calls, bottom to top), and each room's "may include" cell
# names the rooms it links directly; with the table of the folders beside
# them it covers every top-level folder of the tree.
. "$(dirname "$0")/../support/lib.sh"
cd "${SOURCE_DIR:?SOURCE_DIR names the source tree}" || exit 1

# The map's first table, the layers: "| `harness/run/` | ... | `options/`
# ... and below |" (three cells); the second, the folders beside them.
section=$(sed -n '/^## The layers/,/^## /p' docs/contributing.md)
map=$(grep -P '^\| `[^|]*\|[^|]*\|[^|]*\|$' <<<"$section" | grep -oP '^\| `\K[a-z_./]+/(?=` \|)')
beside=$(grep -P '^\| `[^|]*\|[^|]*\|$' <<<"$section" | grep -oP '^\| `\K[a-z_./]+/(?=` \|)')

# The tree's folders, in the build's order.
tree=$(printf '%s\n' lib/ strategies/ datasets/ workloads/
	grep -oP '^copybench_room\(\K[a-z_]+' harness/CMakeLists.txt | sed 's|.*|harness/&/|')
on_disk=$(printf '%s\n' lib/ strategies/ datasets/ workloads/
	find harness -mindepth 1 -maxdepth 1 -type d -printf '%p/\n' | LC_ALL=C sort)

expect_eq map_in_build_order "$map" "$tree"
expect_eq every_room_on_disk_built "$(LC_ALL=C sort <<<"$tree")" "$(LC_ALL=C sort <<<"$on_disk")"
# Every top-level folder of the source tree is in one table or the other.
# (Without git, as in a root that has none, the folders on disk but the
# build folders: build/, build-asan/, build-debug/, ...)
top=$(git ls-files 2>/dev/null | grep / | cut -d/ -f1 | sort -u | sed 's|$|/|')
[ -n "$top" ] || top=$(find . -mindepth 1 -maxdepth 1 -type d ! -name .git ! -name 'build' \
	! -name 'build-*' -printf '%f/\n' | LC_ALL=C sort)
unmapped=$(comm -23 <(LC_ALL=C sort <<<"$top") \
	<(printf '%s\n' $map $beside | sed 's|/.*|/|' | LC_ALL=C sort -u))
expect_eq every_folder_mapped "$unmapped" ""

# Each harness room's cell names the rooms it links (copybench_room(NAME
# LINKS...)): copybench_X as `X/`, or a room named there links it ("and below"), or the
# cell says "everything".
missing=""
while read -r room links; do
	cell=$(grep -P "^\| \`harness/$room/\` " <<<"$section" | awk -F'|' '{print $(NF-1)}')
	for l in $links; do
		case $l in copybench_*) ;; *) continue ;; esac
		grep -qw everything <<<"$cell" && continue
		name=${l#copybench_}
		grep -qF "\`$name/\`" <<<"$cell" && continue
		# "X/ and below" covers what X links.
		covered=no
		for named in $(grep -oP '`\K[a-z_]+(?=/`)' <<<"$cell"); do
			grep -qP "^copybench_room\($named .*\b$l\b" harness/CMakeLists.txt && covered=yes
		done
		[ "$covered" = yes ] || missing="$missing $room->$name"
	done
done < <(grep -oP '^copybench_room\(\K[^)]+' harness/CMakeLists.txt)
expect_eq every_link_in_its_cell "$missing" ""
finish
