#!/usr/bin/env bash
# history_cli_bad_input.sh - bench history's command line: --help prints the
# usage on stdout with exit 0; a missing subcommand, an unknown one, a bad
# option or value, a missing history or results folder is one line on stderr,
# exit 2, and creates nothing (no database is made for an add that cannot
# happen).
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1

for args in "--help" "-h" "add --help" "check -h" "plot --help"; do
	# shellcheck disable=SC2086
	run "$BENCH" history $args
	expect_eq "history $args exit" "$RC" 0
	expect_eq "history $args usage" "$(head -c 20 "$T/.out")" "usage: bench history"
	expect_eq "history $args stderr" "$(cat "$T/.err")" ""
done

db=$T/h.sqlite
expect_fail none 2 "bench history: which one: add, check, changes, plot or export? (see bench history --help)" \
	"$BENCH" history
expect_fail unknown 2 "bench history: unknown subcommand 'remove' (see bench history --help)" \
	"$BENCH" history remove
expect_fail add_nothing 2 "bench history add: which results folders? (see bench history add --help)" \
	"$BENCH" history add --commit c1 --db "$db"
expect_fail add_bogus 2 "bench history add: unknown option '--bogus' (see bench history add --help)" \
	"$BENCH" history add --bogus x
expect_fail add_no_folder 2 "bench history add: $T/nothere: not a results folder" \
	"$BENCH" history add "$T/nothere" --commit c1 --db "$db"
expect_fail add_empty_commit 2 "bench history add: --commit '': empty" \
	"$BENCH" history add "$T" --commit "" --db "$db"
expect_fail check_required 2 "bench history check: --current DIR is required (see bench history check --help)" \
	"$BENCH" history check --db "$db"
expect_fail check_value 2 "bench history check: missing value for '--current' (see bench history check --help)" \
	"$BENCH" history check --current
expect_fail check_window 2 "bench history check: --window '2': must be a whole number from 3 to 1000" \
	"$BENCH" history check --current x --window 2
expect_fail check_threshold 2 "bench history check: --threshold 'ten': must be a percentage from 0 to 1000, like 5%" \
	"$BENCH" history check --current x --threshold ten
expect_fail changes_extra 2 "bench history changes: unexpected argument 'extra' (see bench history changes --help)" \
	"$BENCH" history changes extra
expect_fail changes_alpha 2 "bench history changes: --alpha '1': must be a number between 0 and 1" \
	"$BENCH" history changes --alpha 1
expect_fail export_format 2 "bench history export: --format 'json': expected csv" \
	"$BENCH" history export --format json
expect_fail export_missing 2 "bench history export: $db: no history database here (bench history add makes one)" \
	"$BENCH" history export --db "$db"
expect_fail plot_missing 2 "bench history plot: $db: no history database here (bench history add makes one)" \
	"$BENCH" history plot --db "$db" --out "$T"
finish
