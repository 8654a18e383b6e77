#!/usr/bin/env bash
# subcommand_options.sh - bench check, bench baseline and bench plot: --help
# and -h print their usage on stdout and exit 0; a bad option or argument is
# one line on stderr naming it, exit 2 (plot adds its usage below the line).
. "$(dirname "$0")/lib.sh"
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
expect_fail check_flag_value 2 "bench check: unknown option '--absolute=1' (see bench check --help)" \
	"$BENCH" check --baseline a --current b --absolute=1
expect_fail check_missing_value 2 "bench check: --current needs a value" \
	"$BENCH" check --baseline a --current
expect_fail check_stray 2 "bench check: unexpected argument 'extra' (see bench check --help)" \
	"$BENCH" check --baseline a --current b extra
expect_fail check_bad_alpha 2 "bench check: bad value '2' for --alpha (threshold: a percentage 0-1000 like 5%; alpha: between 0 and 1; vs: cases, memcpy or absolute; format: table, csv, json or markdown)" \
	"$BENCH" check --baseline a --current b --alpha=2
expect_fail check_required 2 "bench check: --baseline and --current are both required (see bench check --help)" \
	"$BENCH" check --current b
expect_fail baseline_unknown 2 "bench baseline: usage: bench baseline save RESULTS FILE" \
	"$BENCH" baseline --bogus save a b
expect_fail baseline_short 2 "bench baseline: usage: bench baseline save RESULTS FILE" \
	"$BENCH" baseline save a

mkdir "$T/res"
for args in "--bogus" "$T/res extra"; do
	# shellcheck disable=SC2086
	run "$BENCH" plot $args
	expect_eq "plot $args exit" "$RC" 2
	expect_eq "plot $args line" "$(head -1 "$T/.err")" "bench plot: unexpected argument '${args##* }'"
	expect_eq "plot $args usage" "$(sed -n 2p "$T/.err" | head -c 15)" "usage: bench pl"
done
finish
