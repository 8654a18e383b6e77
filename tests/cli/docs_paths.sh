#!/usr/bin/env bash
# docs_paths.sh - every path of the source tree that the README, docs/ and
# the sources' comments name exists: a file moved or renamed without its
# pointers fails here with the pointer and where it is. So does a CTest
# test that README.md or docs/ name and the suite does not have, and a long
# option they name that neither bench nor the tool it belongs to takes. What bench makes
# when it runs (results/..., datasets/cache/...) and paths under a build
# folder (build/tests/...) are not the source tree's and are left out, as
# are names with placeholders (<name>, *). tests/e2e/add_plugins.sh names
# the files it makes in its scratch copy, so its own names are left out.
. "$(dirname "$0")/lib.sh"
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
	[ -e "$path" ] || missing="$missing
  ${hit%:*}: $path"
done <"$T/pointers"

expect_eq some_pointers_found "$([ "$checked" -gt 100 ] && echo yes)" yes
expect_eq pointers_to_missing_paths "$missing" ""

# Test names: `build/tests/NAME`, or a `snake_case_name` of three words or
# more on a line that speaks of a test, is a CTest test of this build --
# unless it is a name the sources use (a function, a column, a file's stem).
ctest --test-dir "$(dirname "$BENCH")" -N 2>/dev/null |
	sed -n 's/^ *Test *#[0-9]*: //p' | sort -u >"$T/ctest"
expect_eq ctest_lists_the_suite "$([ "$(wc -l <"$T/ctest")" -gt 100 ] && echo yes)" yes
{
	grep -rnoP 'build/tests/\K[a-z0-9_]+' README.md docs
	grep -rniP '\btests?\b' README.md docs |
		grep -oP '^[^:]+:[0-9]+:|`[a-z][a-z0-9]*(_[a-z0-9]+){2,}`' |
		awk '/:$/ { at = $0; next } { gsub(/`/, ""); print at $0 }'
} | sort -u >"$T/tests"
named=0
unknown=""
while IFS= read -r hit; do
	name=${hit##*:}
	named=$((named + 1))
	grep -qxF "$name" "$T/ctest" && continue
	grep -rqw --include='*.[ch]' --include='*.sh' --include='*.gp' --include='*.cmake' \
		--include='CMakeLists.txt' --include='README.md' -e "$name" harness lib strategies workloads datasets \
		tools plots CMakeLists.txt results/README.md 2>/dev/null && continue
	ls tests/"$name".* tests/*/"$name".* >/dev/null 2>&1 && continue
	unknown="$unknown
  ${hit%:*}: $name"
done <"$T/tests"
expect_eq some_test_names_found "$([ "$named" -gt 30 ] && echo yes)" yes
expect_eq test_names_not_in_the_suite "$unknown" ""
finish
