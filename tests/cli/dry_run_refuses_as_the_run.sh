#!/usr/bin/env bash
# dry_run_refuses_as_the_run.sh - the dry run refuses every input the run
# refuses, with the same line on stderr and the same exit status, before any
# work: an unknown --fs, a file as --dir, a read-only --dir, a --size that
# does not fit the free space. Neither leaves anything behind.
. "$(dirname "$0")/../support/lib.sh"

common=(--strategy readwrite --no-limits --repeat 1 --warmup 0 --quiet)

# same_refusal NAME LINE ARGS...: the run and its dry run both exit 2 with
# LINE (a pattern for grep -E, anchored) as their only line on stderr.
same_refusal() {
	local name=$1 line=$2 dry
	shift 2
	run "$@" -n
	dry=$(cat "$T/.err")
	expect_eq "$name: dry run exit" "$RC" 2
	grep -Eqx -- "$line" <<<"$dry" && pass || fail "$name: dry run said '$dry'"
	run "$@" --out "$T/res"
	expect_eq "$name: run exit" "$RC" 2
	# the free space may move between the two (other writers)
	expect_eq "$name: the same line" "$(sed 's/, [0-9.]*[KMGTPE] is free$//' "$T/.err")" \
		"$(sed 's/, [0-9.]*[KMGTPE] is free$//' <<<"$dry")"
	expect_none "$name: no results" "$T" res
}

echo x >"$T/file"
same_refusal unknown_fs "bench: --fs 'ntfs': expected ext4, xfs, btrfs, tmpfs or the path of a mounted filesystem" \
	"$BENCH" "${common[@]}" --size 64K --dir "$T/d" --fs ntfs
same_refusal file_as_dir "bench: --dir '$T/file': not a folder" \
	"$BENCH" "${common[@]}" --size 64K --dir "$T/file"
same_refusal too_big "bench: not enough free space in $T/d: the run needs about 200\.0T, .* is free" \
	"$BENCH" "${common[@]}" --size 100T --dir "$T/d"
expect_none no_dir_left "$T" d

if mount_tmpfs "$T/ro" 1M ro; then
	same_refusal read_only_dir "bench: --dir '$T/ro': Read-only file system" \
		"$BENCH" "${common[@]}" --size 64K --dir "$T/ro"
	same_refusal read_only_parent "bench: --dir '$T/ro/sub': Read-only file system" \
		"$BENCH" "${common[@]}" --size 64K --dir "$T/ro/sub"
else
	echo "note: no read-only tmpfs of our own (not root): the read-only checks are not run"
fi
# A dry run that passes says its estimate as a range, never "X to X"
run "$BENCH" "${common[@]}" --size 64K --dir "$T/d" -n
expect_eq dry_ok "$RC" 0
grep -Eq '^estimated duration: ([0-9.]+ (s|min|h) to [0-9.]+ (s|min|h)|about [0-9.]+ (s|min|h))( |$)' "$T/.out" &&
	pass || fail "estimate: $(grep estimated "$T/.out")"
expect_eq no_degenerate_range "$(grep -Ec '^estimated duration: ([0-9.]+ [a-z]+) to \1 ' "$T/.out")" 0
finish
