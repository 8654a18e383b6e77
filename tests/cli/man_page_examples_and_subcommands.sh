#!/usr/bin/env bash
# man_page_examples_and_subcommands.sh - the man page made from --help
# (help2man with tools/man-include.sh) shows each example on a line of its own
# and has a section for each subcommand with its options.
. "$(dirname "$0")/../support/lib.sh"
command -v help2man >/dev/null || skip "help2man is not installed"
command -v man >/dev/null || skip "man is not installed"

bash "${SOURCE_DIR:?}/tools/man-include.sh" "$BENCH" "$T/bench.h2m" || fail "man-include.sh failed"
help2man --no-info --no-discard-stderr --version-string=0 --name=test --include="$T/bench.h2m" \
	--output="$T/bench.1" "$BENCH" || fail "help2man failed"
MANWIDTH=200 man -l "$T/bench.1" 2>/dev/null | sed 's/^ *//' >"$T/page"
# every example of --help, alone on its line of the page
n=0
while IFS= read -r ex; do
	n=$((n + 1))
	grep -qxF -- "$ex" "$T/page" && pass || fail "example not on a line of its own: $ex"
done < <("$BENCH" --help | sed -n '/^Examples:$/,$p' | tail -n +2 | sed 's/^  //')
[ "$n" -ge 3 ] && pass || fail "only $n examples in --help"
for c in $(bench_commands | grep -v ' '); do
	grep -qx "bench $c" "$T/page" && pass || fail "no section for bench $c"
done
sed -n '/^bench copy$/,/^bench gen$/p' "$T/page" | grep -q -- '--strategy' && pass ||
	fail "bench copy's section does not list --strategy"
finish
