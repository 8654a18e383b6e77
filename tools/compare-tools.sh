#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# compare-tools.sh - each technique beside the public tools that use it, in
# one bench invocation: bench's in-process strategies and `cp`,
# `cp --reflink=never`, `dd bs=4M` and `rsync --inplace` as --command rows
# (whole processes, their start-up inside the clock), in the same shuffled
# rounds, on the same dataset, verified and counted alike
# (docs/commands.md). Options after the script's own go to bench as they
# are (--cache both, --out DIR, --dir DIR ...). hyperfine stays the
# cross-check of whole processes: tools/hyperfine-compare.sh.
set -euo pipefail

usage() {
	cat <<'USAGE'
usage: tools/compare-tools.sh [--bench PATH] [--size SIZE] [BENCH OPTIONS...]

  --bench PATH   the bench executable (default: $BENCH, else build/bench)
  --size SIZE    source size (default 200M)
  -h, --help     this text

Runs: bench --workload copy --strategy copy_file_range,readwrite,sendfile,splice,io_uring
      --command cp --command cp-reflink-never --command dd --command rsync --size SIZE ...
USAGE
}

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bench=${BENCH:-$(dirname "$script_dir")/build/bench}
size=200M
while [ $# -gt 0 ]; do
	case $1 in
	--bench) bench=${2:?--bench needs a path}; shift 2 ;;
	--size) size=${2:?--size needs a size}; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) break ;;
	esac
done
exec "$bench" --workload copy --strategy copy_file_range,readwrite,sendfile,splice,io_uring \
	--command cp --command cp-reflink-never --command dd --command rsync --size "$size" "$@"
