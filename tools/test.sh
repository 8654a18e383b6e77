#!/usr/bin/env bash
# test.sh - install what is missing, build, and run the whole test suite:
#   1. release build: every test, the >4 GiB sparse copy included
#   2. AddressSanitizer + UBSan build: the same suite but the >4 GiB copy
# Any failure, or a suite in which no test ran, exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
jobs=$(nproc)

echo "== release build and tests" >&2
cmake --preset release >/dev/null
cmake --build --preset release -j"$jobs"
ctest --preset release --no-tests=error -j"$jobs"

echo "== asan+ubsan build and tests" >&2
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$jobs"
ctest --preset asan --no-tests=error -j"$jobs" -LE large
