#!/usr/bin/env bash
# man-include.sh BENCH OUT - the help2man include file of bench.1, written
# from bench itself: its examples one to a line (help2man would run them
# into one paragraph) and a section per subcommand with that subcommand's
# --help (bench --help names the subcommands only).
set -euo pipefail
bench=$1
out=$2

# roff: a line is literal text (\ as \e; a leading . or ' escaped)
literal() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

{
	echo '[=EXAMPLES]'
	echo '.nf'
	"$bench" --help | sed -n '/^Examples:$/,$p' | tail -n +2 | sed 's/^  //' | literal
	echo '.fi'
	echo
	echo '[SUBCOMMANDS]'
	for c in $("$bench" --help | awk '/^Commands/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }'); do
		echo ".SS \"bench $c\""
		echo '.nf'
		"$bench" "$c" --help | literal
		echo '.fi'
	done
} >"$out"
