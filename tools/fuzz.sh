#!/usr/bin/env bash
# fuzz.sh - build the libFuzzer targets in tests/fuzz with clang (address and
# undefined-behaviour sanitizers on) and run each for a bounded time over its
# committed corpus. A crash, leak or sanitizer report fails the script; the
# input that caused it is left in build-fuzz/ to be added to the corpus.
#
#   tools/fuzz.sh [SECONDS]      default 20 seconds per target
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
cc=${CLANG:-clang}
out=build-fuzz
command -v "$cc" >/dev/null || { echo "fuzz.sh: $cc not found (Debian: clang)" >&2; exit 1; }
mkdir -p "$out"

flags=(-std=c17 -D_GNU_SOURCE -DCOPYBENCH_VERSION='"fuzz"' -g -O1
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-Wall -Wextra -Werror)
# Headers are named with their room ("lib/units.h", "options/options.h"),
# which the build's doors resolve (copybench_door in CMakeLists.txt):
# configuring makes them.
[ -d build/doors ] || cmake --preset release >/dev/null
for door in build/doors/*/; do
	flags+=(-I"$door")
done
declare -A sources=(
	[fuzz_parse_size]="lib/units.c"
	[fuzz_options]="harness/options/options.c harness/options/cli_parse.c harness/options/cli_help.c harness/options/cli_table.c harness/options/command.c harness/host/paths.c lib/units.c"
	[fuzz_csv]="lib/csv.c"
	[fuzz_meta]="harness/history/history_meta.c"
)
# what a target needs besides: a room's private header, a library
declare -A extra=(
	[fuzz_meta]="-DCOPYBENCH_ROOM_HISTORY -lsqlite3"
)

for t in fuzz_parse_size fuzz_options fuzz_csv fuzz_meta; do
	echo "== $t: build" >&2
	# shellcheck disable=SC2086
	"$cc" "${flags[@]}" -o "$out/$t" "tests/fuzz/$t.c" ${sources[$t]} ${extra[$t]:-}
	echo "== $t: ${seconds}s over tests/fuzz/corpus/$t" >&2
	work="$out/corpus-$t"
	rm -rf "$work"
	mkdir -p "$work"
	# new inputs go to a scratch corpus; the committed seeds are read only
	(cd "$out" && ./"$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=4096 -close_fd_mask=3 -print_final_stats=1 "corpus-$t" "../tests/fuzz/corpus/$t") \
		2>"$out/$t.log" || { tail -40 "$out/$t.log" >&2; echo "fuzz.sh: $t failed" >&2; exit 1; }
	grep -E "stat::number_of_executed_units|Done" "$out/$t.log" | tail -2 >&2
done
echo "fuzz.sh: no crash in ${seconds}s per target" >&2
