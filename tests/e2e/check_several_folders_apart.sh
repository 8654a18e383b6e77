#!/usr/bin/env bash
# check_several_folders_apart.sh - bench check reads several results folders per
# side: two small runs on different filesystems (the temp folder's and
# /dev/shm's tmpfs; no root needed) stay apart, case by case, each labelled
# with its filesystem and matched to the same filesystem on the other side,
# never pooled; one folder holding both (as bench --fs writes) reads the same;
# a baseline file, which has no environment columns, refuses such a folder.
. "$(dirname "$0")/../support/lib.sh"
shm=$(mktemp -d /dev/shm/copybench-chk-XXXXXX 2>/dev/null) || skip "no /dev/shm to run on"
trap 'rm -rf "$shm"; cleanup' EXIT
[ "$(stat -f -c %T "$T")" != "$(stat -f -c %T "$shm")" ] ||
	{ echo "skip: $T and /dev/shm are on one filesystem type"; exit 77; }

for i in 1 2; do
	dir=$T/data
	[ $i = 2 ] && dir=$shm
	"$BENCH" --strategy readwrite,splice --size 1M --repeat 3 --syscalls off --quiet \
		--dir "$dir" --out "$T/r$i" >/dev/null 2>&1 || { echo "FAIL: run $i failed" >&2; exit 1; }
done
fs_of() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fs_type") c = i; next }
	{ print $c; exit }' "$1/runs.csv"; }
t1=$(fs_of "$T/r1") t2=$(fs_of "$T/r2")

# cases COMMAND...: the case lines of a check's table ("case ... verdict").
cases() { "$BENCH" check "$@" 2>/dev/null | awk 'NR > 1 && NF > 4 && !/^bench check:/'; }

out=$(cases --baseline "$T/r1" --baseline "$T/r2" --current "$T/r1" --current "$T/r2")
expect_eq several_rows "$(echo "$out" | wc -l)" 10
expect_eq several_on_1 "$(echo "$out" | grep -c " warm on $t1 ")" 5
expect_eq several_on_2 "$(echo "$out" | grep -c " warm on $t2 ")" 5
# not pooled: each case has its own 3 runs on each side
expect_eq several_runs "$(echo "$out" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) print $i }' |
	sort -u)" 3/3
# 3 runs a side cannot rule a slowdown out (1 / C(6, 3) = 0.05 > alpha): the
# copy cases are inconclusive, the limit rows (no code) ok
expect_eq several_verdicts "$(echo "$out" | awk '{ print $(NF - 1) }' | sort -u | tr '\n' ' ')" "inconclusive ok "

# one folder on each side, different filesystems: compared case by case
out=$(cases --baseline "$T/r1" --current "$T/r2")
expect_eq one_each_rows "$(echo "$out" | wc -l)" 5
expect_eq one_each_no_label "$(echo "$out" | grep -c ' on ')" 0

# one folder holding both filesystems, as bench --fs writes it
mkdir "$T/both"
{ cat "$T/r1/runs.csv"; tail -n +2 "$T/r2/runs.csv"; } >"$T/both/runs.csv"
out=$(cases --baseline "$T/both" --current "$T/r2" --current "$T/r1")
expect_eq both_rows "$(echo "$out" | wc -l)" 10
expect_eq both_on_2 "$(echo "$out" | grep -c " warm on $t2 ")" 5
"$BENCH" baseline save "$T/both" "$T/b.csv" >"$T/save.out" 2>&1
expect_eq save_rc $? 2
expect_eq save_line "$(cat "$T/save.out")" "bench baseline: the results hold several machines, kernels or filesystems; save a baseline from the results of one"
[ ! -e "$T/b.csv" ] && pass || fail "a baseline was written"

finish
