#!/usr/bin/env bash
# quickstart.sh - install what is missing, build, and run the main job:
#   bench --all --size 200M   (extra arguments replace "--all --size 200M")
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"
if [ $# -eq 0 ]; then set -- --all --size 200M; fi
exec build/bench "$@"
