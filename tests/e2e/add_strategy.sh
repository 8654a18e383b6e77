#!/usr/bin/env bash
# add_strategy.sh - adding a strategy takes one new file and one line in the
# table of strategies/registry.c, as README and strategies/strategy.h say.
#
# In a scratch copy of the source tree: strategies/readwrite.c is copied to
# strategies/copy_again.c with its descriptor and name renamed, one line is
# added to the table, and nothing else changes. The tree is configured and
# `bench` built there; `bench list` must show copy-again, and a benchmark of
# it must verify 5 of 5 runs. Needs cmake and a C compiler (skip otherwise);
# the copy is the tracked files (git ls-files) when SOURCE_DIR is a checkout.
set -u
src=${SOURCE_DIR:?SOURCE_DIR must name the source tree}
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-add-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

command -v cmake >/dev/null || { echo "skip: cmake is not installed"; exit 77; }

# The scratch tree: the tracked files, or everything but build output.
mkdir "$work/tree"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$src" ls-files -z | (cd "$src" && tar --null -T - -cf -) | tar -xf - -C "$work/tree"
else
	(cd "$src" && tar --exclude='./build*' --exclude='./results/2*' -cf - .) | tar -xf - -C "$work/tree"
fi
t=$work/tree
cp "$t/strategies/registry.c" "$work/registry.c.orig"

# The one new file and the one new line.
sed -e 's/\bstrategy_readwrite\b/strategy_copy_again/' -e 's/\.name = "readwrite"/.name = "copy-again"/' \
	"$t/strategies/readwrite.c" >"$t/strategies/copy_again.c"
sed -i 's/^\t&strategy_readwrite,$/&\n\t\&strategy_copy_again,/' "$t/strategies/registry.c"
added=$(diff "$work/registry.c.orig" "$t/strategies/registry.c" | grep -c '^>')
removed=$(diff "$work/registry.c.orig" "$t/strategies/registry.c" | grep -c '^<')
[ "$added" -eq 1 ] && [ "$removed" -eq 0 ] && ok || no "registry.c changed by +$added -$removed lines, expected +1"
grep -q '^const struct copy_strategy strategy_copy_again = {' "$t/strategies/copy_again.c" && ok ||
	no "the copied file has no strategy_copy_again descriptor"

cmake -S "$t" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >"$work/configure.log" 2>&1 &&
	cmake --build "$work/build" --target bench -j2 >"$work/build.log" 2>&1
rc=$?
[ $rc -eq 0 ] && ok || no "the tree with the new strategy does not build: $(tail -n 5 "$work/configure.log" "$work/build.log")"
b=$work/build/bench
if [ $rc -eq 0 ]; then
	"$b" list --dir "$work" >"$work/list" 2>&1
	grep -q '^  copy-again  *available ' "$work/list" && ok || no "bench list does not show copy-again: $(cat "$work/list")"
	"$b" --strategy copy-again --size 1M --no-limits --dir "$work/data" --out "$work/res" >"$work/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && ok || no "bench --strategy copy-again exit $rc: $(cat "$work/out")"
	grep -Eq '^  copy-again .* ([0-9]+)/\1 ' "$work/out" && ok || no "not every run verified: $(cat "$work/out")"
fi

echo "add_strategy: $pass passed, $fail failed"
[ $fail -eq 0 ]
