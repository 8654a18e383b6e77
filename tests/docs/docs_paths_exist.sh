#!/usr/bin/env bash
# docs_paths_exist.sh - every path of the source tree that the README, docs/
# and the sources' comments name exists: a file moved or renamed without its
# pointers fails here with the pointer and where it is. What bench makes
# when it runs (results/..., datasets/cache/...) and paths under a build
# folder (build/tests/...) are not the source tree's and are left out, as
# are names with placeholders (<name>, *). tests/e2e/add_plugins.sh names
# the files it makes in its scratch copy, so its own names are left out. A
# folder's CMakeLists.txt names files as CMake reads them, relative to that
# folder (the tests' folders in tests/CMakeLists.txt are under tests/).
. "$(dirname "$0")/../support/lib.sh"
cd "${SOURCE_DIR:?SOURCE_DIR names the source tree}" || exit 1

roots='harness|lib|strategies|workloads|datasets|tests|tools|plots|docs|\.ci'
pointers() {
	grep -rnoP "(?<![\w./-])($roots)/[\w.*<>/-]*[\w>*]" "$@" 2>/dev/null
}
{
	pointers README.md docs
	pointers --include='*.c' --include='*.h' --include='*.sh' --include='*.gp' \
		--include='*.cmake' --include='CMakeLists.txt' \
		harness lib strategies workloads datasets tests tools plots CMakeLists.txt
} | grep -v '^tests/e2e/add_plugins.sh:' >"$T/pointers"

checked=0
missing=""
while IFS= read -r hit; do
	path=${hit##*:}
	case "$path" in
	*'<'* | *'*'* | datasets/cache*) continue ;;
	esac
	checked=$((checked + 1))
	# a folder's CMakeLists.txt names files relative to that folder
	file=${hit%%:*}
	[[ $file == */CMakeLists.txt && -e ${file%/*}/$path ]] && continue
	[ -e "$path" ] || missing="$missing
  ${hit%:*}: $path"
done <"$T/pointers"

expect_eq some_pointers_found "$([ "$checked" -gt 100 ] && echo yes)" yes
expect_eq pointers_to_missing_paths "$missing" ""
finish
