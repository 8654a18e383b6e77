#!/usr/bin/env bash
# valgrind.sh - memcheck over the smoke commands of a release build: no
# invalid access, no use of uninitialised memory, no leak. The runner's
# children are forked without exec, so memcheck follows them too;
# --trace-children=no only leaves out programs bench executes (gnuplot).
#
#   tools/valgrind.sh [BENCH]      default build/bench
set -euo pipefail
cd "$(dirname "$0")/.."
bench=$(realpath "${1:-build/bench}")
command -v valgrind >/dev/null || { echo "valgrind.sh: valgrind not found (Debian: valgrind)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/copybench-valgrind-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

vg() {	# NAME EXPECTED_STATUS ARGS...
	local name=$1 want=$2 rc=0
	shift 2
	valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
		--errors-for-leak-kinds=definite,indirect --trace-children=no \
		"$bench" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
	if [ "$rc" != "$want" ]; then
		echo "valgrind.sh: $name: status $rc, expected $want" >&2
		cat "$tmp/$name.err" >&2
		exit 1
	fi
	echo "valgrind.sh: $name clean" >&2
}

vg list 0 list --dir "$tmp"
vg run 0 --size 1M --repeat 1 --strategy readwrite,copy_file_range --syscalls off \
	--out "$tmp/res" --dir "$tmp/d" --quiet
vg run_csv 0 --size 64K --repeat 1 --strategy readwrite --syscalls off --format json \
	--out "$tmp/res2" --dir "$tmp/d" --quiet
vg copy 0 copy --strategy readwrite "$tmp/d/random-1048576-s1.dat" "$tmp/copy"
vg copy_exists 1 copy --strategy readwrite "$tmp/d/random-1048576-s1.dat" "$tmp/copy"
vg copy_char_device 2 copy --strategy readwrite /dev/zero "$tmp/copy2"
vg gen 0 gen text 100K "$tmp/text"
vg bad_size 2 --size 10Q --dir "$tmp/d"
# one run a side cannot be judged: inconclusive, exit 3 (docs/check.md)
vg check 3 check --baseline "$tmp/res" --current "$tmp/res"
vg baseline 0 baseline save "$tmp/res" "$tmp/base.csv"
vg check_baseline 3 check --baseline "$tmp/base.csv" --current "$tmp/res"
vg run_exports 0 --size 64K --repeat 1 --strategy 'read*,-stdio' --syscalls off --quiet \
	--out "$tmp/res3" --dir "$tmp/d" --export-json "$tmp/e.json" --export-csv "$tmp/e.csv" \
	--export-markdown "$tmp/e.md"
vg source 0 --source "$tmp/text" --strategy 'readwrite,splice' --repeat 1 --syscalls off \
	--no-limits --out "$tmp/res4" --dir "$tmp/d" --quiet
vg clean 0 clean --dir "$tmp/d"
echo "valgrind.sh: all clean" >&2
