#!/usr/bin/env bash
# check-subjects.sh - every commit subject since the rule began is at most 72
# characters, so that `git log --oneline` can be scanned; the story goes in
# the body (docs/contributing.md, "Commits").
#
#   tools/check-subjects.sh [BASE]    commits in BASE..HEAD (default: since
#                                     the rule began, commit 80a625b)
# Outside a git clone (a tarball) there is nothing to check: exit 0, said.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-80a625b}
limit=72
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "check-subjects: not a git clone: nothing to check" >&2
	exit 0
fi
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "check-subjects: base $base is not in this clone (shallow?): nothing to check" >&2
	exit 0
fi
long=$(git log --no-merges --format='%h %s' "$base..HEAD" |
	awk -v n="$limit" '{ s = substr($0, index($0, " ") + 1) } length(s) > n { print length(s) ": " $0 }')
count=$(git rev-list --no-merges --count "$base..HEAD")
if [ -n "$long" ]; then
	echo "check-subjects: subjects over $limit characters (put the story in the body):" >&2
	echo "$long" >&2
	exit 1
fi
echo "check-subjects: $count commits since $base, every subject at most $limit characters" >&2
