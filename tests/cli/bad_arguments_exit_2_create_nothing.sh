#!/usr/bin/env bash
# bad_arguments_exit_2_create_nothing.sh - every bad argument gives one line
# on stderr naming the problem, exit status 2, and creates nothing (no --dir,
# no results folder).
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1
D=$T/d/sub
R=$T/r
run_bad() {	# NAME LINE ARGS...: bench ARGS --dir D --out R fails with LINE
	local name=$1 line=$2
	shift 2
	expect_fail "$name" 2 "$line" "$BENCH" "$@" --dir "$D" --out "$R" --quiet
}

run_bad unknown_strategy "bench: unknown strategy 'nope' (bench list shows them all)" --strategy readwrite,nope
run_bad unknown_workload "bench: unknown workload 'nope' (known: copy, split, transform, tree)" --workload nope
run_bad unknown_dataset "bench: unknown dataset 'nope' (known: random, text, zero, sparse)" --dataset nope
run_bad size_abc "bench: --size 'abc': not a size (examples: 4096, 64K, 200M, 1.5G)" --size abc
run_bad size_negative "bench: --size '-1': not a size (examples: 4096, 64K, 200M, 1.5G)" --size -1
run_bad size_bad_unit "bench: --size '10Q': not a size (examples: 4096, 64K, 200M, 1.5G)" --size 10Q
run_bad size_zero "bench: --size '0': must be greater than zero" --size 0
run_bad size_in_list "bench: --size '0': must be greater than zero" --size 4K,0
run_bad size_overflow "bench: --size '99999999999999999999': size too large" --size 99999999999999999999
run_bad size_fraction "bench: --size '0.3K': not a size (examples: 4096, 64K, 200M, 1.5G)" --size 0.3K
run_bad buffer_zero "bench: --buffer '0': must be greater than zero" --buffer 0
run_bad part_size_zero "bench: --part-size '0': not a size greater than zero" --part-size 0
run_bad part_size_below_line "bench: --part-size '63': smaller than one line (text lines are up to 64 bytes)" --part-size 63
run_bad repeat_zero "bench: --repeat '0': must be a whole number from 1 to 100000" --repeat 0
run_bad repeat_word "bench: --repeat 'x': not a whole number" --repeat x
run_bad cache_mode "bench: --cache 'hot': expected warm, cold or both" --cache hot
run_bad unknown_option "bench: unknown option '--bogus' (see bench --help)" --bogus
expect_fail missing_value 2 "bench: missing value for '--size' (see bench --help)" \
	"$BENCH" --dir "$D" --out "$R" --size
expect_fail stray_argument 2 "bench: unexpected argument 'extra' (see bench --help)" \
	"$BENCH" --dir "$D" --out "$R" extra
expect_fail unknown_command 2 "bench: unknown command 'nope' (see bench --help)" "$BENCH" nope

# --out naming a file, or a folder holding someone else's runs.csv
echo keep >"$T/file"
mkdir "$T/theirs" && echo "name,age" >"$T/theirs/runs.csv"
expect_fail out_is_file 2 "bench: --out '$T/file': exists and is not a directory" \
	"$BENCH" --dir "$D" --out "$T/file" --size 4K --quiet
expect_fail out_not_ours 2 "bench: --out '$T/theirs': runs.csv there was not written by bench; choose another --out" \
	"$BENCH" --dir "$D" --out "$T/theirs" --size 4K --quiet
expect_eq out_not_ours_kept "$(cat "$T/theirs/runs.csv")" "name,age"

# More than the free space of --dir: refused before generating anything.
if mount_tmpfs "$T/small" 4M; then
	expect_fail size_over_free_space 2 "bench: not enough free space in $T/small/d: the run needs about 32.0M, 4.0M is free" \
		"$BENCH" --size 8M --strategy readwrite --dir "$T/small/d" --out "$R" --quiet
else
	run "$BENCH" --size 1000T --strategy readwrite --dir "$D" --out "$R" --quiet
	expect_eq size_over_free_space_rc "$RC" 2
	grep -Eqx "bench: not enough free space in $D: the run needs about 2000\.0T, [0-9.]+[KMGT] is free" "$T/.err" &&
		pass || fail "size_over_free_space: $(cat "$T/.err")"
	[ -e "$T/d" ] && fail "size_over_free_space: --dir was left behind" || pass
fi

# Subcommands.
echo data >"$T/src"
expect_fail copy_unknown_strategy 2 "bench copy: --strategy 'nope': unknown strategy (see bench list)" \
	"$BENCH" copy --strategy nope "$T/src" "$T/dst"
expect_fail copy_no_strategy 2 "bench copy: --strategy is required (see bench copy --help)" \
	"$BENCH" copy "$T/src" "$T/dst"
expect_fail copy_buffer_zero 2 "bench copy: --buffer '0': not a size greater than zero" \
	"$BENCH" copy --strategy readwrite --buffer 0 "$T/src" "$T/dst"
expect_fail copy_unknown_option 2 "bench copy: unknown option '--bogus' (see bench copy --help)" \
	"$BENCH" copy --strategy readwrite --bogus "$T/src" "$T/dst"
expect_fail copy_one_path 2 "bench copy: expected SRC and DST (see bench copy --help)" \
	"$BENCH" copy --strategy readwrite "$T/src"
expect_fail gen_unknown_kind 2 "bench gen: unknown dataset kind 'nope' (known: random, text, zero, sparse)" \
	"$BENCH" gen nope 4K "$T/gen"
expect_fail gen_bad_size 2 "bench gen: '10Q' is not a size (examples: 4096, 64K, 200M, 1.5G)" \
	"$BENCH" gen random 10Q "$T/gen"
expect_fail list_bad_argument 2 "bench list: unexpected argument 'x' (see bench list --help)" \
	"$BENCH" list x
finish
