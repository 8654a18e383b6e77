#!/usr/bin/env bash
# deps.sh - install the Debian packages copybench needs, if any are missing.
# Run as root (or with sudo available). Idempotent: does nothing when all are present.
set -euo pipefail

packages=(build-essential cmake pkg-config liburing-dev libxxhash-dev
	  libbenchmark-dev libbenchmark-tools hyperfine gnuplot-nox strace
	  clang libclang-rt-dev valgrind jq btrfs-progs xfsprogs python3-scipy python3-jsonschema
	  libsqlite3-dev help2man rsync)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
