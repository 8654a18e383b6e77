#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# compare-tools.sh - is each strategy as fast as the best public tool that
# uses its technique? Times whole processes with hyperfine on one warm file:
#
#   bench copy --strategy copy_file_range     vs  cp --reflink=never, and cp
#       (coreutils 9.x: --reflink=never is a 128 KiB read/write loop, the
#       default --reflink=auto tries FICLONE, then copy_file_range)
#   bench copy --strategy readwrite --buffer 128K  vs  dd bs=128K
#   bench copy --strategy readwrite --buffer 4M    vs  dd bs=4M
#   bench copy --strategy io_uring  --buffer B     vs  readwrite --buffer B
#   bench copy --strategy parallel --threads 2     vs  copy_file_range
#   bench copy of an empty file (the process start-up cost)
#
# The machine may be shared, so the commands are interleaved: hyperfine runs
# every command --runs-per-round times, ROUNDS times over, in a rotated
# order each round; the times of all rounds are pooled and medians (not
# means) are compared. Each round's hyperfine JSON and Markdown are kept in
# the results folder, with the pooled medians and ratios in
# compare-tools.md and compare-tools.json.
set -euo pipefail

usage() {
	cat <<'EOF'
usage: tools/compare-tools.sh [options]

  --bench PATH          the bench executable (default: $BENCH, else build/bench)
  --size SIZE           source size (default 200M)
  --rounds N            interleaved hyperfine rounds (default 3)
  --runs-per-round N    runs of each command per round (default 7)
  --warmup N            warm-up runs of each command per round (default 2)
  --uring-buffers LIST  block sizes for io_uring vs readwrite (default 128K,1M)
  --out DIR             results folder (default results/<UTC stamp>-<host>-tools)
  --workdir DIR         where the files go (default: a temporary dir under $TMPDIR or /var/tmp)
  -h, --help            this text
EOF
}

die() { printf 'compare-tools: %s\n' "$*" >&2; exit 2; }

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src_dir=$(dirname "$script_dir")
bench=${BENCH:-$src_dir/build/bench}
size=200M
rounds=3
per_round=7
warmup=2
uring_buffers=128K,1M
out=""
workdir_base=${TMPDIR:-/var/tmp}

while [ $# -gt 0 ]; do
	case "$1" in
	--bench) bench=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--runs-per-round) per_round=$2; shift 2 ;;
	--warmup) warmup=$2; shift 2 ;;
	--uring-buffers) uring_buffers=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--workdir) workdir_base=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; die "unknown option '$1'" ;;
	esac
done

command -v hyperfine >/dev/null || die "hyperfine not found (Debian: apt install hyperfine)"
command -v jq >/dev/null || die "jq not found (Debian: apt install jq)"
[ -x "$bench" ] || die "no bench executable at $bench; build first or pass --bench"
bench=$(cd "$(dirname "$bench")" && pwd)/$(basename "$bench")

[ -n "$out" ] || out=$src_dir/results/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s)-tools
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d "$workdir_base/compare-tools-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work"
"$bench" gen random "$size" src >/dev/null
: >empty
cat src >/dev/null	# warm

# name<TAB>command; hyperfine -N runs them without a shell.
cmds=(
	"startup	$bench copy --strategy readwrite empty dst"
	"bench-copy_file_range	$bench copy --strategy copy_file_range src dst"
	"cp-reflink-never	cp --reflink=never src dst"
	"cp-reflink-auto	cp src dst"
	"bench-readwrite-128K	$bench copy --strategy readwrite --buffer 128K src dst"
	"dd-bs128K	dd if=src of=dst bs=128K status=none"
	"bench-readwrite-4M	$bench copy --strategy readwrite --buffer 4M src dst"
	"dd-bs4M	dd if=src of=dst bs=4M status=none"
	"bench-parallel-2	$bench copy --strategy parallel --threads 2 src dst"
)
IFS=, read -r -a ubufs <<<"$uring_buffers"
for b in "${ubufs[@]}"; do
	cmds+=("bench-io_uring-$b	$bench copy --strategy io_uring --buffer $b src dst")
	[ "$b" = 128K ] || [ "$b" = 4M ] ||
		cmds+=("bench-readwrite-$b	$bench copy --strategy readwrite --buffer $b src dst")
done

n=${#cmds[@]}
for ((r = 1; r <= rounds; r++)); do
	args=()
	for ((k = 0; k < n; k++)); do
		line=${cmds[$(((k + r - 1) % n))]}
		args+=(-n "${line%%	*}" "${line#*	}")
	done
	printf 'compare-tools: round %d of %d\n' "$r" "$rounds" >&2
	hyperfine -N --style basic --warmup "$warmup" --runs "$per_round" \
		--prepare "rm -f $work/dst" \
		--export-json "$out/compare-tools-round$r.json" \
		--export-markdown "$out/compare-tools-round$r.md" \
		"${args[@]}" >/dev/null
done

# Pool the rounds: command -> all times; medians in ms.
jq -s '
	def median: sort | if length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	[.[].results[]] | group_by(.command)
	| map({ name: .[0].command, runs: (map(.times) | add | length),
		median_ms: (map(.times) | add | median * 1000),
		min_ms: (map(.times) | add | min * 1000) })
	| INDEX(.name)' "$out"/compare-tools-round*.json >"$out/compare-tools.json"

med() { jq -r --arg n "$1" '.[$n].median_ms // empty' "$out/compare-tools.json"; }
# A check row: ours, theirs, the goal "ours not slower" as a ratio <= 1.
row() {
	local ours=$1 theirs=$2 a b
	a=$(med "$ours")
	b=$(med "$theirs")
	[ -n "$a" ] && [ -n "$b" ] || return 0
	awk -v o="$ours" -v t="$theirs" -v a="$a" -v b="$b" 'BEGIN {
		printf "| %s | %.1f | %s | %.1f | %.3f | %s |\n", o, a, t, b, a / b,
		       a <= b * 1.02 ? "yes" : "no"
	}'
}

{
	printf '# compare-tools: %s warm source, %s\n\n' "$size" "$(uname -r)"
	printf 'Whole processes (hyperfine -N), %d interleaved rounds of %d runs; medians of the pooled runs.\n\n' \
		"$rounds" "$per_round"
	printf '| command | runs | median ms | min ms |\n| --- | ---: | ---: | ---: |\n'
	jq -r 'to_entries | sort_by(.value.median_ms)[] |
		"| \(.key) | \(.value.runs) | \(.value.median_ms * 10 | round / 10) | \(.value.min_ms * 10 | round / 10) |"' \
		"$out/compare-tools.json"
	printf '\n| ours | median ms | reference | median ms | ratio | not slower (2%% noise) |\n'
	printf '| --- | ---: | --- | ---: | ---: | --- |\n'
	row bench-copy_file_range cp-reflink-never
	row bench-copy_file_range cp-reflink-auto
	row bench-readwrite-128K dd-bs128K
	row bench-readwrite-4M dd-bs4M
	for b in "${ubufs[@]}"; do
		row "bench-io_uring-$b" "bench-readwrite-$b"
	done
	row bench-parallel-2 bench-copy_file_range
} >"$out/compare-tools.md"
cat "$out/compare-tools.md"
printf '\ncompare-tools: exports in %s\n' "$out" >&2
