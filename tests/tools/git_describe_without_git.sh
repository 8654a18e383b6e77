#!/usr/bin/env bash
# git_describe_without_git.sh - a build where no git program is installed
# still names its commit (tools/git-describe.cmake reads .git by hand): in a
# scratch repository, with git made unusable for the script
# (GIT_EXECUTABLE=/bin/false), the header names HEAD's first 7 hex digits
# with the branch's ref loose, packed (after git gc), and from a worktree (a
# .git file naming its git folder and a common one); outside a checkout it
# says "unknown". git itself is needed here only to make the repository.
. "$(dirname "$0")/../support/lib.sh"
command -v git >/dev/null || skip "git is not installed (needed to make the scratch repository)"
SCRIPT=${SOURCE_DIR:?SOURCE_DIR names the source tree}/tools/git-describe.cmake

describe() {
	cmake -DGIT_EXECUTABLE=/bin/false -DSRC="$1" -DOUT="$T/h" -P "$SCRIPT" >/dev/null 2>&1 &&
		sed -n 's/^#define COPYBENCH_GIT_DESCRIBE "\(.*\)"$/\1/p' "$T/h"
	rm -f "$T/h"
}

R=$T/repo
git init -q -b main "$R" && echo a >"$R/a" && git -C "$R" add a &&
	git -C "$R" -c user.name=t -c user.email=t@t commit -q -m a || fail "could not make a repository"
want=$(git -C "$R" rev-parse --short=7 HEAD)
expect_eq loose_ref "$(describe "$R")" "$want"
git -C "$R" gc -q
expect_eq packed_ref "$([ -e "$R/.git/refs/heads/main" ] && echo loose || describe "$R")" "$want"
git -C "$R" worktree add -q -b side "$T/wt" >/dev/null 2>&1
expect_eq worktree "$(describe "$T/wt")" "$want"
mkdir "$T/plain"
expect_eq not_a_checkout "$(describe "$T/plain")" unknown
finish
