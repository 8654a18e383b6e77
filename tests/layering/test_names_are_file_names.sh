#!/usr/bin/env bash
# test_names_are_file_names.sh CTEST BUILD_DIR - every CTest test is named
# after its file (tests/README.md), read from what CTest itself would run
# (`ctest --show-only=json-v1` in BUILD_DIR): a script's file is the one
# bash runs, a C test's file is the source of its program
# (build/tests/run/budget_plan_synthetic is
# tests/run/budget_plan_synthetic.c), a layering test's is
# layering/layering.c. A test's name is its file's name without the
# extension; a file that several tests run names each FILE_SUFFIX. And
# every .c and .sh under tests/ but support/, fixtures/ and fuzz/ is some
# test's file.
# Each name that differs, each test whose file is missing and each file no
# test runs is printed.
. "$(dirname "$0")/../support/lib.sh"
ctest=${1:?usage: test_names_are_file_names.sh CTEST BUILD_DIR}
build=$(cd "${2:?usage: test_names_are_file_names.sh CTEST BUILD_DIR}" && pwd) || exit 1
src=$(cd "${SOURCE_DIR:?SOURCE_DIR names the source tree}" && pwd) || exit 1
command -v jq >/dev/null || skip "jq is not installed"

"$ctest" --test-dir "$build" --show-only=json-v1 >"$T/tests.json" ||
	{ fail "ctest --show-only=json-v1 in $build"; finish; }
# A line per test: its name, then its command, tab separated.
jq -r '.tests[] | [.name] + .command | @tsv' "$T/tests.json" >"$T/tests"

# file_of COMMAND...: the source file, under tests/, that the command runs.
file_of() {
	case $1 in
	bash | */bash) echo "${2#"$src"/}" ;;
	"$build"/tests/*) echo "tests/${1#"$build"/tests/}.c" ;;
	*) [[ " $* " == *" --target layering_"* ]] && echo tests/layering/layering.c ;;
	esac
}

while IFS=$'\t' read -r -a cmd; do
	echo "${cmd[0]}	$(file_of "${cmd[@]:1}")"
done <"$T/tests" >"$T/files"

wrong="" missing=""
while IFS=$'\t' read -r name file; do
	if [ -z "$file" ] || [ ! -f "$src/$file" ]; then
		missing="$missing
  $name: ${file:-no file in its command}"
		continue
	fi
	stem=$(basename "$file")
	stem=${stem%.*}
	runs=$(cut -f2 "$T/files" | grep -cxF "$file")
	if [ "$name" != "$stem" ] && ! { [ "$runs" -gt 1 ] && [[ $name == "${stem}_"?* ]]; }; then
		wrong="$wrong
  $name: $file"
	fi
done <"$T/files"

unrun=$(cd "$src" && find tests -path tests/support -prune -o -path tests/fixtures -prune \
	-o -path tests/fuzz -prune -o \
	\( -name '*.c' -o -name '*.sh' \) -print | LC_ALL=C sort |
	LC_ALL=C comm -23 - <(cut -f2 "$T/files" | LC_ALL=C sort -u))

echo "$(wc -l <"$T/files") tests, $(cut -f2 "$T/files" | sort -u | wc -l) files"
expect_eq tests_found "$([ -s "$T/files" ] && echo yes)" yes
expect_eq names_other_than_their_file "$wrong" ""
expect_eq tests_without_their_file "$missing" ""
expect_eq files_no_test_runs "$unrun" ""
finish
