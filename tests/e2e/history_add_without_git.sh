#!/usr/bin/env bash
# history_add_without_git.sh - `bench history add` where no git program is on
# PATH: the run is added with the commit its results folder's meta.json
# names (bench.git_describe, reduced to its commit) and the branch
# "unknown", and `bench history export` shows that row; a folder whose
# meta.json names no commit is refused (exit 2) and adds nothing.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1
mkdir "$T/nogit"

run "$BENCH" --strategy readwrite --size 64K --repeat 1 --no-limits --syscalls off --quiet \
	--dir "$T/d" --out "$T/r"
expect_eq run "$RC" 0
# the commit of a build two commits past a tag, from a changed tree
sed -i -E 's/"git_describe": "[^"]*"/"git_describe": "v0.1-2-g0123abcd-dirty"/' "$T/r/meta.json"
expect_eq meta_names_commit "$(grep -c '"git_describe": "v0.1-2-g0123abcd-dirty"' "$T/r/meta.json")" 1
cp -r "$T/r" "$T/none"
sed -i -E 's/"git_describe": "[^"]*"/"git_describe": "unknown"/' "$T/none/meta.json"

expect_eq no_git_on_path "$(PATH=$T/nogit command -v git)" ""
PATH=$T/nogit run "$BENCH" history add "$T/r" --db "$T/h.sqlite"
expect_eq add_exit "$RC" 0
expect_eq add_line "$(cat "$T/.out")" \
	"$T/r: added as run 1 (commit 0123abcd-dirty, branch unknown, 1 cases, 1 runs)"
PATH=$T/nogit run "$BENCH" history export --db "$T/h.sqlite"
expect_eq export_exit "$RC" 0
expect_eq row_commit_branch "$(awk -F, 'NR > 1 { print $1 "," $2 "," $3 }' "$T/.out")" \
	"1,0123abcd-dirty,unknown"

PATH=$T/nogit run "$BENCH" history add "$T/none" --db "$T/h.sqlite"
expect_eq refused_exit "$RC" 2
expect_eq refused_line "$(cat "$T/.err")" \
	"bench history add: no --commit given, git rev-parse HEAD failed here (not a git work tree?) and $T/none/meta.json names no commit: give it with --commit SHA"
PATH=$T/nogit run "$BENCH" history export --db "$T/h.sqlite"
expect_eq still_one_row "$(($(wc -l <"$T/.out") - 1))" 1
finish
