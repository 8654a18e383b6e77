#!/usr/bin/env bash
# check-subjects.sh - every commit subject made under the rule is at most 72
# characters, so that `git log --oneline` can be scanned; the story goes in
# the body (docs/contributing.md, "Commits").
#
#   tools/check-subjects.sh [BASE]    commits that descend from BASE (git log
#                                     --ancestry-path BASE..HEAD; default:
#                                     acf40b0, the commit that made the rule)
# A branch begun before the rule and merged after it keeps its old subjects:
# its commits do not descend from BASE.
# Outside a git clone (a tarball) there is nothing to check: exit 0, said.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-acf40b0}
limit=72
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	echo "check-subjects: not a git clone: nothing to check" >&2
	exit 0
fi
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "check-subjects: base $base is not in this clone (shallow?): nothing to check" >&2
	exit 0
fi
long=$(git log --no-merges --ancestry-path --format='%h %s' "$base..HEAD" |
	awk -v n="$limit" '{ s = substr($0, index($0, " ") + 1) } length(s) > n { print length(s) ": " $0 }')
count=$(git rev-list --no-merges --ancestry-path --count "$base..HEAD")
if [ -n "$long" ]; then
	echo "check-subjects: subjects over $limit characters (put the story in the body):" >&2
	echo "$long" >&2
	exit 1
fi
echo "check-subjects: $count commits made since $base, every subject at most $limit characters" >&2
