#!/usr/bin/env bash
# subcommand_help_exit_0.sh - `bench list|gen|evict|copy --help` (and -h) print
# their usage on stdout, nothing on stderr, exit 0 and touch nothing; their
# bad options give one line on stderr and exit 2. Every command `bench --help`
# lists (and `columns`) answers --help so.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1

# expect_help NAME FIRST_LINE CMD...: exit 0, stdout starts with FIRST_LINE,
# stderr empty, nothing created.
expect_help() {
	local name=$1 first=$2 before after
	shift 2
	before=$(snapshot "$T" | grep -v "^$T/\.\(out\|err\)$")
	run "$@"
	after=$(snapshot "$T" | grep -v "^$T/\.\(out\|err\)$")
	if [ "$RC" != 0 ]; then
		fail "$name: exit $RC (stderr: $(head -c 300 "$T/.err"))"
	elif [ "$(head -n 1 "$T/.out")" != "$first" ]; then
		fail "$name: stdout began '$(head -n 1 "$T/.out")', expected '$first'"
	elif [ -s "$T/.err" ]; then
		fail "$name: stderr: $(cat "$T/.err")"
	elif [ "$before" != "$after" ]; then
		fail "$name: files changed"
	else
		pass
	fi
}

for h in --help -h; do
	expect_help "list$h" "usage: bench list [--dir DIR] [--format table|json]" "$BENCH" list $h
	expect_help "gen$h" "usage: bench gen KIND SIZE FILE [--seed N] [--force]" "$BENCH" gen $h
	expect_help "evict$h" "usage: bench evict FILE..." "$BENCH" evict $h
done
expect_help copy--help "usage: bench copy --strategy S [options] SRC DST" "$BENCH" copy --help
# --help wins wherever it stands, and is never taken for a file name
expect_help gen_help_after_operands "usage: bench gen KIND SIZE FILE [--seed N] [--force]" \
	"$BENCH" gen text 4K "$T/g" --help
expect_help evict_help_after_file "usage: bench evict FILE..." "$BENCH" evict "$T/none" --help

# Every command of bench --help's list: its own usage first, exit 0.
cmds=$("$BENCH" --help | sed -n '/^Commands/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
expect_eq commands_listed "$(echo $cmds | wc -w)" "$("$BENCH" --help-markdown | grep -c '^## bench [a-z]*$')"
for c in $cmds; do
	run "$BENCH" "$c" --help
	expect_eq "$c--help" "$RC $(head -c $((14 + ${#c})) "$T/.out") $(wc -c <"$T/.err")" "0 usage: bench $c  0"
done
expect_eq main_usage "$("$BENCH" --help | head -n 1)" "Usage: bench [options]"

expect_fail list_missing_dir 2 "bench list: missing value for '--dir' (see bench list --help)" \
	"$BENCH" list --dir
expect_fail list_unknown_option 2 "bench list: unknown option '--bogus' (see bench list --help)" \
	"$BENCH" list --bogus
expect_fail gen_bad_seed 2 "bench gen: --seed '1K': not a whole number" \
	"$BENCH" gen text 4K "$T/g" --seed 1K
expect_fail gen_unknown_option 2 "bench gen: unknown option '--bogus' (see bench gen --help)" \
	"$BENCH" gen text 4K "$T/g" --bogus
expect_fail gen_operands 2 "bench gen: expected KIND SIZE FILE (see bench gen --help)" \
	"$BENCH" gen text 4K
expect_fail evict_unknown_option 2 "bench evict: unknown option '--bogus' (see bench evict --help)" \
	"$BENCH" evict --bogus
expect_fail evict_no_file 2 "bench evict: which files? (see bench evict --help)" "$BENCH" evict
finish
