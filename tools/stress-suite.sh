#!/usr/bin/env bash
# stress-suite.sh - the full release suite, several rounds in a row, beside a
# process-starting neighbour, as on a busy CI machine:
#   1. builds the release preset;
#   2. starts the neighbour, a loop running /bin/true without end (a fork and
#      an exec at a time: new processes, page faults, a CPU kept busy);
#   3. runs `ctest --preset release --no-tests=error -j2` N times (default 3),
#      printing each round's summary line and the tests that failed;
#   4. stops the neighbour, also when interrupted (Ctrl-C) or on an error.
# Every round runs with a private TMPDIR and CI cleared, as tools/test.sh
# does; each round's whole ctest output (--output-on-failure) is kept in
# build/stress/round-<i>.log. Exits 0 only when every round passed.
#
# Usage: tools/stress-suite.sh [N] [-- CTEST ARGS...]
#   N            rounds (1 to 99, default 3)
#   CTEST ARGS   added to each ctest run (e.g. -R tree to stress a few tests)
# A round of the whole suite takes about 15 minutes on 2 CPUs.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=""
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; break ;;
	*) [[ $1 =~ ^[1-9][0-9]?$ ]] ||
		{ echo "stress-suite: '$1': expected a number of rounds from 1 to 99 (see --help)" >&2; exit 2; }
		[ -z "$rounds" ] ||
			{ echo "stress-suite: '$1': one number of rounds only (ctest arguments go after --)" >&2; exit 2; }
		rounds=$1 ;;
	esac
	shift
done
rounds=${rounds:-3}

cmake --preset release >/dev/null
cmake --build --preset release -j2
logs=build/stress
mkdir -p "$logs"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/copybench-stress-XXXXXX")
neighbour=""
stop() {
	if [ -n "$neighbour" ]; then
		kill "$neighbour" 2>/dev/null || true
		wait "$neighbour" 2>/dev/null || true
		neighbour=""
	fi
	# Interrupted, a test killed with ctest may still be removing its files.
	rm -rf "$tmp" 2>/dev/null || { sleep 1; rm -rf "$tmp"; }
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

export TMPDIR=$tmp
unset CI
(while :; do /bin/true; done) &
neighbour=$!
echo "stress-suite: neighbour (a loop of /bin/true) is process $neighbour" >&2

failed=0
for i in $(seq "$rounds"); do
	log=$logs/round-$i.log
	start=$(date +%s)
	set +e
	ctest --preset release --no-tests=error -j2 --output-on-failure "$@" >"$log" 2>&1
	rc=$?
	set -e
	summary=$(grep -E '^[0-9]+% tests passed' "$log" || echo "no summary line (ctest exit $rc)")
	echo "round $i of $rounds: $summary ($(($(date +%s) - start)) s)"
	if [ $rc -ne 0 ]; then
		failed=$((failed + 1))
		sed -n '/^The following tests FAILED:/,$p' "$log" | grep -E '^[[:space:]]+[0-9]+ - ' |
			sed 's/^[[:space:]]*/   failed: /' || true
		echo "   (its output: $log)"
	fi
done
echo "stress-suite: $rounds rounds beside a process-starting neighbour: $((rounds - failed)) passed, $failed failed"
[ $failed -eq 0 ]
