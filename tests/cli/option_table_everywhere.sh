#!/usr/bin/env bash
# option_table_everywhere.sh - what the one option table gives every
# subcommand: -h, --help and -V on each (exit 0, usage and the exit-code table
# on stdout, nothing on stderr); one wording for a missing value and for an
# unknown option whichever subcommand parses it; empty list items refused; an
# unusable --dir of bench list is an error; bench list --format json; the bash
# completion made from the table; --dry-run plans, prints and leaves nothing.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1

# the run (""), then every command bench lists
mapfile -t COMMANDS < <(echo; bench_commands)
expect_eq commands_listed "${#COMMANDS[@]}" "$("$BENCH" --help-markdown | grep -c '^## bench')"
for c in "${COMMANDS[@]}"; do
	for h in -h --help; do
		# shellcheck disable=SC2086
		run "$BENCH" $c $h
		expect_eq "'$c' $h" "$RC $(grep -c '^Exit status:' "$T/.out") $(wc -c <"$T/.err")" "0 1 0"
	done
	# shellcheck disable=SC2086
	run "$BENCH" $c -V
	expect_eq "'$c' -V" "$RC $(cat "$T/.out")" "0 bench (copybench) $("$BENCH" --version | awk '{ print $3 }')"
done

# The same mistake, the same words, on every subcommand.
expect_fail missing_run 2 "bench: missing value for '--size' (see bench --help)" "$BENCH" --size
expect_fail missing_list 2 "bench list: missing value for '--dir' (see bench list --help)" "$BENCH" list --dir
expect_fail missing_check 2 "bench check: missing value for '--current' (see bench check --help)" \
	"$BENCH" check --baseline a --current
expect_fail missing_history 2 "bench history plot: missing value for '--db' (see bench history plot --help)" \
	"$BENCH" history plot --db
expect_fail missing_ab 2 "bench ab: missing value for '--rounds' (see bench ab --help)" "$BENCH" ab --rounds
expect_fail bad_ab 2 "bench ab: --cache 'both': expected warm or cold" "$BENCH" ab --cache both a b
expect_fail empty_ab 2 "bench ab: --strategy 'readwrite,,splice': an empty item in the comma-separated list" \
	"$BENCH" ab --strategy readwrite,,splice a b
expect_fail operands_ab 2 "bench ab: expected two bench executables, A and B (see bench ab --help)" "$BENCH" ab a
expect_fail unknown_list 2 "bench list: unknown option '--format2' (see bench list --help)" "$BENCH" list --format2
expect_fail unknown_clean 2 "bench clean: unknown option '-x' (see bench clean --help)" "$BENCH" clean -x
expect_fail empty_item 2 "bench: --buffer '64K,,1M': an empty item in the comma-separated list" \
	"$BENCH" --buffer 64K,,1M
expect_fail empty_last 2 "bench: --strategy 'readwrite,': an empty item in the comma-separated list" \
	"$BENCH" --strategy readwrite,
expect_fail list_no_dir 2 "bench list: --dir '$T/none': No such file or directory" "$BENCH" list --dir "$T/none"
: >"$T/file"
expect_fail list_file_dir 2 "bench list: --dir '$T/file': not a folder" "$BENCH" list --dir "$T/file"

# A missing input file: exit 2 from every subcommand that reads one.
for args in "copy --strategy readwrite $T/none $T/dst" "evict $T/none" "--source $T/none --dir $T/d --out $T/r" \
	"check --baseline $T/none --current $T/none" "baseline save $T/none $T/b" "plot $T/none"; do
	# shellcheck disable=SC2086
	run "$BENCH" $args
	expect_eq "missing input: $args" "$RC $(wc -l <"$T/.err")" "2 1"
done
expect_none missing_inputs_left "$T" 'dst'

# bench list --format json: every strategy, channel and workload, availability.
run "$BENCH" list --format json --dir "$T"
expect_eq list_json_rc "$RC" 0
if command -v python3 >/dev/null; then
	got=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["schema_version"], all("available" in x for k in ("strategies","channels","workloads") for x in d[k]), len(d["workloads"]))' <"$T/.out")
	expect_eq list_json "$got" "2 True $("$BENCH" list | sed -n '/^workloads:/,$p' | grep -c '^  ')"
fi
expect_eq list_json_strategies "$(grep -c '"name": "readwrite"' "$T/.out")" 1

# Every JSON bench prints carries schema_version: check (history check
# prints through the same report) as well as list.
if [ -n "${SOURCE_DIR:-}" ] && [ -f "$SOURCE_DIR/results/baseline/ci-syscalls.csv" ]; then
	b=$SOURCE_DIR/results/baseline/ci-syscalls.csv
	run "$BENCH" check --only-syscalls --baseline "$b" --current "$b" --format json
	expect_eq check_json_schema "$RC $(sed -n 2p "$T/.out" | grep -o '"schema_version": 2')" '0 "schema_version": 2'
fi

# The completion script, in bash itself.
"$BENCH" --completion bash >"$T/complete.bash"
complete_words() {
	# shellcheck disable=SC1090
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _bench; printf "%s\n" "${COMPREPLY[@]}"' \
		_ "$T/complete.bash" "$@"
}
expect_eq complete_option "$(complete_words bench --str)" "--strategy"
expect_eq complete_strategy "$(complete_words bench --strategy rea)" "readwrite"
expect_eq complete_after_comma "$(complete_words bench --strategy readwrite,spl)" "readwrite,splice"
expect_eq complete_all_strategies "$(complete_words bench --strategy '' | grep -c -x -e sendfile -e splice -e pipe)" 3
expect_eq complete_subcommand "$(complete_words bench hist)" "history"
expect_eq complete_sub_option "$(complete_words bench history check --win)" "--window"
expect_eq complete_choice "$(complete_words bench list --format j)" "json"
expect_eq complete_ab "$(complete_words bench a)" "ab"
expect_eq complete_ab_option "$(complete_words bench ab --rou)" "--rounds"
expect_eq complete_ab_format "$(complete_words bench ab --format m)" "markdown"

# Comma lists are split in the parser, not in argv: meta.json records the
# command line as it was typed.
run "$BENCH" --strategy readwrite,splice --size 4K,8K --repeat 1 --warmup 0 --syscalls off \
	--no-limits --dir "$T/m" --out "$T/mr" -q
expect_eq meta_rc "$RC" 0
expect_eq meta_command_line "$(grep -o '"--strategy", "[^"]*", "--size", "[^"]*"' "$T/mr/meta.json")" \
	'"--strategy", "readwrite,splice", "--size", "4K,8K"'
rm -rf "$T/m" "$T/mr"

# --dry-run: the plan on stdout, exit 0, no dataset, results or --dir left.
before=$(snapshot "$T")
run "$BENCH" --strategy readwrite,splice --size 4K,1M --dir "$T/d" --out "$T/r" --dry-run
after=$(snapshot "$T" | grep -v "^$T/\.\(out\|err\)$")
expect_eq dry_rc "$RC" 0
expect_eq dry_cases "$(grep -c '^copy .* will run$' "$T/.out")" 4
expect_eq dry_lines "$(grep -c -e '^estimated duration: ' -e '^disk: ' "$T/.out")" 2
expect_eq dry_left "$(diff <(echo "$before" | grep -v "^$T/\.\(out\|err\)$") <(echo "$after"))" ""
finish
