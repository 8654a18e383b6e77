#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# hyperfine-compare.sh - times whole-process single copies with hyperfine:
# `bench copy --strategy S` for every available strategy, beside
# `cp --reflink=never`, `dd bs=...` and `cat`, with the source warm and cold
# (cold: a --prepare that evicts the source with `bench evict`, no root
# needed). Exports JSON, CSV and Markdown into a results folder, draws the
# hyperfine chart with `bench plot`, and cross-checks bench's in-process
# medians (summary.csv of that folder) against hyperfine's means and medians,
# flagging medians that differ by over 10% beyond what process start-up explains.
set -euo pipefail

usage() {
	cat <<'EOF'
usage: tools/hyperfine-compare.sh [options]

Times one whole-process copy per command with hyperfine, warm and cold:
bench copy --strategy S (every available strategy), cp --reflink=never,
dd bs=..., cat. Writes hyperfine-{warm,cold}.{json,csv,md} into the results
folder, draws hyperfine.png/.svg with `bench plot`, and compares with the
in-process medians in that folder's summary.csv when it has the same size.

options:
  --bench PATH        the bench executable (default: $BENCH, build/bench, or bench in PATH)
  --size SIZE         source size, as bench gen takes it (default 64M)
  --source FILE       time copies of this existing file instead (read only), e.g. the
                      dataset of the in-process run to cross-check: the same file's
                      page cache, so like is compared with like
  --runs N            hyperfine runs per command (default 10)
  --warmup N          warm-up runs per command, warm cache only (default 2)
  --strategies LIST   comma-separated strategies (default: all that run here)
  --dd-bs SIZE        dd block size (default 1M)
  --out DIR           results folder (default: the latest under results/, else a new one)
  --workdir DIR       where the test files go (default: a temporary dir under $TMPDIR or /var/tmp)
  --cold-only, --warm-only   run one cache state only
  --no-plot           do not run bench plot
  -h, --help          this text
EOF
}

log() { printf '%s\n' "$*" >&2; }
die() { printf 'hyperfine-compare: %s\n' "$*" >&2; exit 2; }

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src_dir=$(dirname "$script_dir")

bench=${BENCH:-}
size=64M
runs=10
warmup=2
strategies=""
source=""
dd_bs=1M
out=""
workdir_base=${TMPDIR:-/var/tmp}
states="warm cold"
plot=1

while [ $# -gt 0 ]; do
	case "$1" in
	--bench) bench=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--source) source=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--warmup) warmup=$2; shift 2 ;;
	--strategies) strategies=$2; shift 2 ;;
	--dd-bs) dd_bs=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--workdir) workdir_base=$2; shift 2 ;;
	--cold-only) states=cold; shift ;;
	--warm-only) states=warm; shift ;;
	--no-plot) plot=0; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; die "unknown option '$1'" ;;
	esac
done

# ------------------------------------------------------------ tools --
command -v hyperfine >/dev/null || die "hyperfine not found in PATH (Debian: apt install hyperfine)"
if [ -z "$bench" ]; then
	if [ -x "$src_dir/build/bench" ]; then
		bench=$src_dir/build/bench
	else
		bench=$(command -v bench) || die "bench not found; pass --bench PATH"
	fi
fi
bench=$(cd "$(dirname "$bench")" && pwd)/$(basename "$bench")
"$bench" copy --help 2>&1 | grep -q -e --strategy || die "$bench has no working 'copy' command"

# ------------------------------------------------------- results dir --
if [ -z "$out" ]; then
	latest=$(find results -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' 2>/dev/null | sort | tail -n 1 || true)
	if [ -n "$latest" ]; then
		out=$latest
	else
		out=results/$(date -u +%Y%m%dT%H%M%SZ)-$(hostname -s)
	fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# ------------------------------------------------------- test files --
work=$(mktemp -d "$workdir_base/hyperfine-compare-XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
src=$work/src
dst=$work/dst
empty=$work/empty

if [ -n "$source" ]; then
	[ -f "$source" ] || die "--source '$source' is not a regular file"
	src=$source	# read only: never written or removed
else
	log "generating a $size source in $work"
	"$bench" gen random "$size" "$src" >&2
fi
: >"$empty"
size_bytes=$(stat -c %s "$src")

# Strategies: the first word of each `bench list` line, kept when a real
# copy of the empty file succeeds (unknown words and unavailable strategies
# fail it).
if [ -z "$strategies" ]; then
	for s in $("$bench" list 2>/dev/null | awk '{print $1}' | grep -E '^[a-z0-9_-]+$' | sort -u); do
		if "$bench" copy --strategy "$s" --force "$empty" "$work/probe" >/dev/null 2>&1; then
			strategies+="${strategies:+,}$s"
		fi
	done
	rm -f "$work/probe"
fi
[ -n "$strategies" ] || die "no strategy ran here (is 'bench list' working?)"
log "strategies: $strategies"

q() { printf '%q' "$1"; }

# One hyperfine command line per strategy, then the reference tools.
commands=()
IFS=, read -r -a strategy_list <<<"$strategies"
for s in "${strategy_list[@]}"; do
	commands+=(-n "bench:$s" "$(q "$bench") copy --strategy $s --force $(q "$src") $(q "$dst")")
done
commands+=(-n "cp" "cp --reflink=never $(q "$src") $(q "$dst")")
commands+=(-n "dd-bs$dd_bs" "dd if=$(q "$src") of=$(q "$dst") bs=$dd_bs status=none")
# hyperfine runs every command without a shell (-N), so that its shell
# calibration cannot turn a short copy into 0 ms; cat needs one for the
# redirection, so its figure includes one sh start-up (about 0.5 ms).
commands+=(-n "cat" "sh -c $(q "cat $(q "$src") > $(q "$dst")")")

# ---------------------------------------------------------- timing --
# Start-up cost: a whole bench copy of an empty file.
log "measuring process start-up (bench copy of an empty file)"
hyperfine -N --style basic --warmup 3 --runs 20 \
	--export-csv "$work/startup.csv" \
	"$(q "$bench") copy --strategy ${strategy_list[0]} --force $(q "$empty") $(q "$work/dst0")" >&2
startup_s=$(awk -F, 'NR == 2 { print $2 }' "$work/startup.csv")

for state in $states; do
	prepare="rm -f $(q "$dst")"
	extra=(--warmup "$warmup")
	if [ "$state" = cold ]; then
		prepare+=" && $(q "$bench") evict $(q "$src")"
		extra=()
	fi
	log "timing $state: ${#strategy_list[@]} strategies + cp, dd, cat; $runs runs each"
	hyperfine -N --style basic --runs "$runs" "${extra[@]}" --prepare "sh -c $(q "$prepare")" \
		--export-json "$out/hyperfine-$state.json" \
		--export-csv "$out/hyperfine-$state.csv" \
		--export-markdown "$out/hyperfine-$state.md" \
		"${commands[@]}" >&2
done
rm -f "$dst"

# ------------------------------------------------------ cross-check --
# summary.csv's plain columns come before any quoted one, so splitting on
# commas is safe for the fields read here.
summary=$out/summary.csv
printf '\nstart-up (bench copy of an empty file): %.2f ms\n' "$(awk -v s="$startup_s" 'BEGIN{print s*1000}')"
if [ ! -f "$summary" ]; then
	printf 'no summary.csv in %s: nothing to cross-check (run bench --workload copy --size %s first)\n' "$out" "$size"
else
	printf '%-22s %-5s %12s %14s %14s %10s  %s\n' strategy cache "in-process" "hyperfine-mean" "hyperfine-med" "residual" ""
	for state in $states; do
		for s in "${strategy_list[@]}"; do
			awk -F, -v s="$s" -v c="$state" -v sz="$size_bytes" -v up="$startup_s" \
				-v hf="$out/hyperfine-$state.csv" '
			NR == FNR {
				if (FNR == 1) { for (i = 1; i <= NF; i++) h[$i] = i; next }
				if ($h["workload"] != "copy" || $h["strategy"] != s || $h["cache"] != c ||
				    $h["size_bytes"] != sz || $h["median_ns"] == "") next
				if ("fsync" in h && $h["fsync"] != 0) next
				m = $h["median_ns"] / 1e9
				# bench copy runs the strategy at its default buffer:
				# 0 (none) or 128K, or when a strategy has another
				# default (1M), the only row of that strategy
				if ($h["buffer_bytes"] != 0 && $h["buffer_bytes"] != 131072) {
					other = m; nother++
					next
				}
				if (best == "" || m < best) best = m
				next
			}
			FNR == 1 && best == "" && nother == 1 { best = other }
			FNR == 1 { for (i = 1; i <= NF; i++) g[$i] = i; next }
			$g["command"] == "bench:" s { mean = $g["mean"]; med = $g["median"] }
			END {
				if (best == "" || mean == "") {
					printf "%-22s %-5s %12s %14s %14s %10s  %s\n", s, c, "-", (mean == "" ? "-" : sprintf("%.2f ms", mean * 1000)), "-", "-", "no in-process figure at this size"
					exit
				}
				# judged on the hyperfine median: a mean takes in the
				# outliers of a shared machine (a 450 ms first cold run)
				resid = (med - up - best) / best * 100
				flag = (resid > 10 || resid < -10) ? "DIFFERS by more than 10% beyond start-up" : "ok"
				printf "%-22s %-5s %9.2f ms %11.2f ms %11.2f ms %9.1f%%  %s\n", s, c, best * 1000, mean * 1000, med * 1000, resid, flag
			}' "$summary" "$out/hyperfine-$state.csv"
		done
	done
fi

# ------------------------------------------------------------ chart --
if [ "$plot" = 1 ]; then
	if "$bench" plot "$out" >&2; then
		log "chart: $out/hyperfine.png and .svg"
	else
		log "bench plot failed; draw the chart later with: bench plot $out"
	fi
fi
log "exports: $out/hyperfine-{warm,cold}.{json,csv,md}"
