#!/usr/bin/env bash
# add_plugins.sh - adding a strategy takes one new file and one line in the
# list of strategies/registry.c; adding a workload one new file and one line
# in workloads/registry.c; a tree method one new file and one line in
# workloads/tree.c; a subcommand one new file and one line in
# harness/options/cli.h; adding a per-run measurement one member, one line
# measuring it and one column line, all in harness/run/, as
# docs/contributing.md says.
#
# In a scratch copy of the source tree: strategies/readwrite.c is copied to
# strategies/copy_again.c, workloads/copy.c to workloads/copy_twice.c and
# workloads/tree_inode_order.c to workloads/tree_inode_again.c with their
# descriptors and names renamed, and one line is added to each list; a
# subcommand `bench hello` is written as harness/cli/cmd_hello.c with its
# line in CLI_COMMAND_LIST; a measurement rep_twice (twice the run's number)
# goes to harness/run/: nothing else changes. The tree is configured and
# `bench` built there; `bench list` must show copy-again and inode-again, a
# benchmark of copy-again must verify 5 of 5 runs, the workload copy-twice
# and the tree method inode-again must run and verify, runs.csv must carry
# rep_twice equal to twice rep, and `bench hello` must say hello, be listed
# by bench --help and have its own --help and errors. Needs cmake and a C
# compiler (skip otherwise); the copy is the tracked files (git ls-files)
# when SOURCE_DIR is a checkout.
. "$(dirname "$0")/../support/lib.sh"
src=${SOURCE_DIR:?SOURCE_DIR must name the source tree}

command -v cmake >/dev/null || { echo "skip: cmake is not installed"; exit 77; }

# The scratch tree: the tracked files, or everything but build output.
mkdir "$T/tree"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$src" ls-files -z | (cd "$src" && tar --null -T - -cf -) | tar -xf - -C "$T/tree"
else
	(cd "$src" && tar --exclude='./build*' --exclude='./results/2*' -cf - .) | tar -xf - -C "$T/tree"
fi
t=$T/tree
cp "$t/strategies/registry.c" "$T/registry.c.orig"

# one_line_added NAME ORIG FILE: FILE is ORIG and one more line.
one_line_added() {
	[ "$(diff "$2" "$3" | grep -c '^>')" -eq 1 ] && [ "$(diff "$2" "$3" | grep -c '^<')" -eq 0 ] && pass ||
		fail "$1 did not change by exactly one added line: $(diff "$2" "$3")"
}

# The one new file and the one new line.
sed -e 's/\bstrategy_readwrite\b/strategy_copy_again/' -e 's/\.name = "readwrite"/.name = "copy-again"/' \
	"$t/strategies/readwrite.c" >"$t/strategies/copy_again.c"
sed -i 's/^\tX(strategy_readwrite) \\$/&\n\tX(strategy_copy_again) \\/' "$t/strategies/registry.c"
added=$(diff "$T/registry.c.orig" "$t/strategies/registry.c" | grep -c '^>')
removed=$(diff "$T/registry.c.orig" "$t/strategies/registry.c" | grep -c '^<')
[ "$added" -eq 1 ] && [ "$removed" -eq 0 ] && pass || fail "registry.c changed by +$added -$removed lines, expected +1"
grep -q '^const struct copy_strategy strategy_copy_again = {' "$t/strategies/copy_again.c" && pass ||
	fail "the copied file has no strategy_copy_again descriptor"

# A workload: one new file and one line in its table.
cp "$t/workloads/registry.c" "$T/wregistry.c.orig"
sed -e 's/\bworkload_copy\b/workload_copy_twice/' -e 's/\.name = "copy"/.name = "copy-twice"/' \
	"$t/workloads/copy.c" >"$t/workloads/copy_twice.c"
sed -i 's/^\tX(workload_copy) \\$/&\n\tX(workload_copy_twice) \\/' "$t/workloads/registry.c"
[ "$(diff "$T/wregistry.c.orig" "$t/workloads/registry.c" | grep -c '^[<>]')" -eq 1 ] && pass ||
	fail "workloads/registry.c did not change by exactly one added line"

# A tree method: one new file and one line in TREE_METHOD_LIST.
cp "$t/workloads/tree.c" "$T/tree.c.orig"
sed -e 's/\btree_method_inode_order\b/tree_method_inode_again/' \
	"$t/workloads/tree_inode_order.c" >"$t/workloads/tree_inode_again.c"
sed -i 's/^\tX(tree_method_inode_order, .*$/&\n\tX(tree_method_inode_again, "inode-again", 0, "inode order, once more") \\/' \
	"$t/workloads/tree.c"
one_line_added workloads/tree.c "$T/tree.c.orig" "$t/workloads/tree.c"

# A subcommand: one new file and one line in CLI_COMMAND_LIST.
cp "$t/harness/options/cli.h" "$T/cli.h.orig"
cat >"$t/harness/cli/cmd_hello.c" <<'HELLO'
// SPDX-License-Identifier: MIT
/* cmd_hello.c - `bench hello`: says hello. */
#include "options/cli.h"

#include <stdio.h>

int cmd_hello(int argc, char **argv)
{
	struct cli_parser p = { .cmd = CMD_HELLO };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	puts("hello");
	return 0;
}
HELLO
sed -i 's/^\tCOMMAND(CMD_CLEAN, .*$/&\n\tCOMMAND(CMD_HELLO, "hello", cmd_hello, "say hello") \\/' \
	"$t/harness/options/cli.h"
one_line_added harness/options/cli.h "$T/cli.h.orig" "$t/harness/options/cli.h"

# A history subcommand: one new file and one line in CLI_HISTORY_LIST.
cp "$t/harness/options/cli.h" "$T/cli.h.orig"
cat >"$t/harness/cli/cmd_history_hello.c" <<'HELLO'
// SPDX-License-Identifier: MIT
/* cmd_history_hello.c - `bench history hello`: says hello. */
#include "commands.h"
#include "history/history.h"

#include <stdio.h>

int hhello_cli(int argc, char **argv, const struct history_io *io)
{
	struct cli_parser p = { .cmd = CMD_HHELLO };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	fprintf(io->out, "hello from %s\n", io->who);
	return 0;
}
HELLO
sed -i 's/^\tSUB(CMD_HEXPORT, .*$/\tSUB(CMD_HHELLO, "hello", hhello_cli, "", "says hello.") \\\n&/' \
	"$t/harness/options/cli.h"
one_line_added harness/options/cli.h "$T/cli.h.orig" "$t/harness/options/cli.h"

# A per-run measurement: a member of struct run_result, the line that
# measures it and its column, all three in harness/run/ (one line each).
run=$t/harness/run
cp -r "$run" "$T/run.orig"
sed -i 's/^\tunsigned rep;\t.*$/&\n\tunsigned rep_twice;/' "$run/case.h"
sed -i 's/^\tc->runs\[c->nruns\].rep = (unsigned)c->nruns + 1;$/&\n\tc->runs[c->nruns].rep_twice = 2 * c->runs[c->nruns].rep;/' "$run/runner_rounds.c"
sed -i 's/^\t{ "rep", COL_U64, .*RUN(rep) },$/&\n\t{ "rep_twice", COL_U64, 0, false, ROLE_MEASURE, "", "twice the run'"'"'s number", RUN(rep_twice) },/' "$run/run_columns.c"
[ "$(diff -r "$T/run.orig" "$run" | grep -c '^>')" -eq 3 ] &&
	[ "$(diff -r "$T/run.orig" "$run" | grep -c '^<')" -eq 0 ] && pass ||
	fail "the measurement is not three added lines in harness/run/: $(diff -r "$T/run.orig" "$run")"

cmake -S "$t" -B "$T/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >"$T/configure.log" 2>&1 &&
	cmake --build "$T/build" --target bench -j2 >"$T/build.log" 2>&1
rc=$?
[ $rc -eq 0 ] && pass || fail "the tree with the new strategy does not build: $(tail -n 5 "$T/configure.log" "$T/build.log")"
b=$T/build/bench
if [ $rc -eq 0 ]; then
	"$b" list --dir "$T" >"$T/list" 2>&1
	grep -q '^  copy-again  *available ' "$T/list" && pass || fail "bench list does not show copy-again: $(cat "$T/list")"
	grep -q '^  inode-again  *available  *inode order, once more$' "$T/list" && pass ||
		fail "bench list does not show inode-again: $(cat "$T/list")"
	"$b" history hello >"$T/hh" 2>&1 && [ "$(cat "$T/hh")" = "hello from bench history hello" ] && pass ||
		fail "bench history hello: $(cat "$T/hh")"
	"$b" history --help | grep -q 'hello' && pass || fail "bench history --help does not list hello"
	"$b" --strategy copy-again --size 1M --no-limits --dir "$T/data" --out "$T/res" >"$T/out" 2>&1
	rc=$?
	[ $rc -eq 0 ] && pass || fail "bench --strategy copy-again exit $rc: $(cat "$T/out")"
	grep -Eq '^  copy-again .* ([0-9]+)/\1 ' "$T/out" && pass || fail "not every run verified: $(cat "$T/out")"
	"$b" --workload copy-twice --strategy readwrite --size 1M --repeat 3 --no-limits --syscalls off \
		--dir "$T/data" --out "$T/res2" >"$T/out2" 2>&1
	rc=$?
	[ $rc -eq 0 ] && pass || fail "bench --workload copy-twice exit $rc: $(cat "$T/out2")"
	[ "$(grep -c '^copy-twice,readwrite,' "$T/res2/summary.csv")" -eq 1 ] &&
		grep -Eq '^  readwrite .* ([0-9]+)/\1 ' "$T/out2" && pass || fail "copy-twice did not run and verify: $(cat "$T/out2")"
	# rep_twice is the column after rep, and twice it on every row
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rep") r = i; ok = ($(r + 1) == "rep_twice"); next }
		$(r + 1) != 2 * $r { ok = 0 } END { exit !(ok && NR > 1) }' "$T/res2/runs.csv" && pass ||
		fail "runs.csv has no rep_twice equal to 2 rep: $(head -n 2 "$T/res2/runs.csv")"
	"$b" --workload tree --strategy inode-again --files 50 --size 4K --repeat 3 --no-limits --syscalls off \
		--dir "$T/data" --out "$T/res3" >"$T/out3" 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ "$(grep -c '^tree,inode-again,' "$T/res3/summary.csv")" -eq 1 ] &&
		grep -Eq '^  inode-again .* 3/3 ' "$T/out3" && pass ||
		fail "the tree method inode-again did not run and verify (exit $rc): $(cat "$T/out3")"
	[ "$("$b" hello)" = hello ] && pass || fail "bench hello does not say hello: $("$b" hello 2>&1)"
	"$b" --help | grep -qx '  hello       say hello' && pass || fail "bench --help does not list hello"
	[ "$("$b" hello --help | head -n 1)" = "usage: bench hello [options]" ] && pass ||
		fail "bench hello --help: $("$b" hello --help 2>&1 | head -n 3)"
	[ "$("$b" hello --bogus 2>&1)" = "bench hello: unknown option '--bogus' (see bench hello --help)" ] && pass ||
		fail "bench hello --bogus: $("$b" hello --bogus 2>&1)"
fi

finish
