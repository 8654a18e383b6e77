#!/usr/bin/env bash
# tree_cold_on_tmpfs_unavailable.sh - a tree cannot be made cold on tmpfs (its
# files are the page cache): a cold tree there, generated or the user's own
# folder, is unavailable with the reason and the resident share measured after
# the eviction, and no run of it is recorded (never "cold" at the share that
# was asked for). Asked for cold alone, bench refuses the run before it starts
# (tests/cli/named_but_unrunnable_exits_2.sh); asked for both, the warm case
# runs and the cold one must be found out by its residency. Needs a tmpfs of
# its own (root).
. "$(dirname "$0")/../support/lib.sh"
mkdir "$T/cwd" && cd "$T/cwd" || exit 1
mount_tmpfs "$T/tm" 64M || skip "cannot mount a tmpfs (needs root)"
QUICK=(--strategy readwrite --cache both --repeat 1 --warmup 0 --syscalls off --no-limits --quiet)
WHY="unavailable: cannot evict the source from the page cache (100% resident after POSIX_FADV_DONTNEED, as on tmpfs)"

col() { head -n 1 "$1" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
# field RESULTS COLUMN: the column of the unavailable (cold) row
field() { grep unavailable "$1/summary.csv" | cut -d, -f"$(col "$1/summary.csv" "$2")" | tr -d '"'; }

# check NAME RESULTS: the warm case ran; the cold one is unavailable with
# the reason and has no run recorded
check() {
	local cache
	cache=$(col "$2/runs.csv" cache)
	expect_eq "$1_rc" "$RC" 0
	expect_eq "$1_cache" "$(field "$2" cache)" cold
	expect_eq "$1_status" "$(tail -n +2 "$2/summary.csv" | grep -o 'unavailable: [^"]*')" "$WHY"
	expect_eq "$1_runs" "$(field "$2" runs)" 0
	expect_eq "$1_no_cold_rows" "$(tail -n +2 "$2/runs.csv" | cut -d, -f"$cache" | grep -c cold)" 0
	expect_eq "$1_warm_ran" "$(tail -n +2 "$2/runs.csv" | cut -d, -f"$cache" | grep -c warm)" 1
}

# a generated tree on the tmpfs
run "$BENCH" --workload tree --files 20 --size 4K "${QUICK[@]}" --dir "$T/tm/d" --out "$T/r1"
check generated "$T/r1"

# the user's folder on the tmpfs: files of several sizes, an empty one too
U=$T/tm/u
mkdir -p "$U/a/b" "$U/c"
head -c 100000 /dev/urandom >"$U/a/b/f1"
head -c 5000 /dev/urandom >"$U/c/f2"
: >"$U/c/empty"
run "$BENCH" --source "$U" "${QUICK[@]}" --dir "$T/tm/d" --out "$T/r2"
check user "$T/r2"
expect_eq user_workload "$(field "$T/r2" workload)" tree
finish
