#!/usr/bin/env bash
# subcommands_help_and_bad_options.sh - bench check, bench baseline and bench
# plot: --help and -h print their usage on stdout and exit 0; a bad option or
# argument is one line on stderr naming it, exit 2.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1

for cmd in check baseline plot; do
	for h in --help -h; do
		run "$BENCH" "$cmd" "$h"
		expect_eq "$cmd $h exit" "$RC" 0
		expect_eq "$cmd $h usage" "$(head -c 12 "$T/.out")" "usage: bench"
		expect_eq "$cmd $h stderr" "$(cat "$T/.err")" ""
	done
done

expect_fail check_unknown 2 "bench check: unknown option '--bogus' (see bench check --help)" \
	"$BENCH" check --baseline a --bogus
expect_fail check_flag_value 2 "bench check: no value expected for '--absolute' (see bench check --help)" \
	"$BENCH" check --baseline a --current b --absolute=1
expect_fail check_missing_value 2 "bench check: missing value for '--current' (see bench check --help)" \
	"$BENCH" check --baseline a --current
expect_fail check_stray 2 "bench check: unexpected argument 'extra' (see bench check --help)" \
	"$BENCH" check --baseline a --current b extra
expect_fail check_bad_alpha 2 "bench check: --alpha '2': must be a number between 0 and 1" \
	"$BENCH" check --baseline a --current b --alpha=2
expect_fail check_required 2 "bench check: --baseline and --current are both required (see bench check --help)" \
	"$BENCH" check --current b
expect_fail baseline_unknown 2 "bench baseline: unknown option '--bogus' (see bench baseline --help)" \
	"$BENCH" baseline --bogus save a b
expect_fail baseline_short 2 "bench baseline: expected save RESULTS FILE (see bench baseline --help)" \
	"$BENCH" baseline save a

mkdir "$T/res"
for args in "--bogus" "$T/res extra"; do
	# shellcheck disable=SC2086
	run "$BENCH" plot $args
	expect_eq "plot $args exit" "$RC" 2
	if [ "$args" = --bogus ]; then
		expect_eq "plot $args line" "$(cat "$T/.err")" "bench plot: unknown option '--bogus' (see bench plot --help)"
	else	# every folder named is read: one that is not there is named
		expect_eq "plot $args line" "$(cat "$T/.err")" "bench plot: 'extra' is not a results folder"
	fi
done
finish
