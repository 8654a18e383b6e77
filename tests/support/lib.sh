# shellcheck shell=bash
# lib.sh - helpers for the test scripts (cli/, e2e/, docs/ and the others):
# a temp dir removed on exit, expectations on exit status, the exact stderr
# line, and what is on disk.
#
# Each test script sources this file, calls expect_* and ends with finish.
# BENCH is the bench executable (set by CTest). Exit: 0 pass, 1 fail, 77 skip.
set -u

: "${BENCH:?BENCH must name the bench executable}"
BENCH=$(realpath "$BENCH")
# BENCH_FIXTURES is the test executable bench_fixtures (set by CTest): bench
# plus the fixture strategies corrupt, throttled, touch-source and holes
# (tests/fixtures/), which the product does not have. A script that runs
# one calls need_fixtures first.
need_fixtures() {
	: "${BENCH_FIXTURES:?BENCH_FIXTURES must name the bench_fixtures executable}"
	BENCH_FIXTURES=$(realpath "$BENCH_FIXTURES")
}
# Under AddressSanitizer the copying child's SIGBUS must stay a SIGBUS:
# what is tested is how bench reports it, not ASan's report.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}handle_sigbus=0"
PASSED=0
FAILED=0
T=$(mktemp -d "${TMPDIR:-/tmp}/copybench-cli-XXXXXX")
MOUNTS=()

cleanup() {
	local m
	for m in "${MOUNTS[@]}"; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	chmod -R u+rwx "$T" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

pass() { PASSED=$((PASSED + 1)); }
fail() { FAILED=$((FAILED + 1)); echo "FAIL: $*" >&2; }

# run CMD...: runs it with stdout and stderr in $T/.out and $T/.err; sets RC.
run() {
	"$@" >"$T/.out" 2>"$T/.err"
	RC=$?
}

# snapshot DIR...: every path under DIRs (hidden files too), sorted.
snapshot() {
	find "$@" -mindepth 0 2>/dev/null | LC_ALL=C sort
}

# expect_fail NAME CODE LINE CMD...: CMD exits CODE, prints exactly LINE as
# its only stderr line, and leaves everything under $T as it was.
expect_fail() {
	local name=$1 code=$2 line=$3 before after
	shift 3
	before=$(snapshot "$T" | grep -v "^$T/\.\(out\|err\)$")
	run "$@"
	after=$(snapshot "$T" | grep -v "^$T/\.\(out\|err\)$")
	if [ "$RC" != "$code" ]; then
		fail "$name: exit $RC, expected $code (stderr: $(head -c 300 "$T/.err"))"
	elif [ "$(cat "$T/.err")" != "$line" ]; then
		fail "$name: stderr was '$(cat "$T/.err")', expected '$line'"
	elif [ "$before" != "$after" ]; then
		fail "$name: files changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | tr '\n' ' ')"
	else
		pass
	fi
}

# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" == "$3" ]; then pass; else fail "$1: got '$2', expected '$3'"; fi
}

# expect_none NAME DIR PATTERN: no file under DIR matches the find -name PATTERN.
expect_none() {
	local left
	left=$(find "$2" -name "$3" 2>/dev/null)
	if [ -z "$left" ]; then pass; else fail "$1: left behind: $left"; fi
}

is_root() { [ "$(id -u)" = 0 ]; }

# mount_tmpfs DIR SIZE [ro]: a small tmpfs of our own (root only); 1 if not.
mount_tmpfs() {
	local opts="size=$2"
	[ "${3:-}" = ro ] && opts="$opts,ro"
	mkdir -p "$1"
	is_root || return 1
	mount -t tmpfs -o "$opts" copybench-test "$1" 2>/dev/null || return 1
	MOUNTS+=("$1")
}

# wait_for PID GLOB: until a path matches GLOB (or PID ended); 1 if it ended.
wait_for() {
	until compgen -G "$2" >/dev/null; do
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.01
	done
}

# wait_process PID PATTERN: until a process's command line matches PATTERN
# (pgrep -f), or PID ended; 1 if it ended.
wait_process() {
	until pgrep -f "$2" >/dev/null; do
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.01
	done
}

# interrupt PID: SIGINT to PID, a child of this shell; RC is its exit status.
interrupt() {
	kill -INT "$1"
	wait "$1"
	RC=$?
}

# bench_ok OUT ARGS...: bench ARGS --out OUT --quiet exits 0 and writes
# OUT/runs.csv; when it writes none, the script ends there (finish).
bench_ok() {
	local out=$1
	shift
	run "$BENCH" "$@" --out "$out" --quiet
	expect_eq "bench $*: exit" "$RC" 0
	[ -f "$out/runs.csv" ] || { fail "no runs.csv: $(cat "$T/.err")"; finish; }
}

# csv_awk [AWK OPTION...] PROGRAM FILE: awk -F, PROGRAM over FILE, a CSV
# file without quoted fields (runs.csv), with col[NAME] the column of each
# name of its header line.
csv_awk() {
	local opts=("${@:1:$#-2}") prog=${*: -2:1} file=${*: -1}
	awk -F, "${opts[@]}" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
'"$prog" "$file"
}

# skip WHY: the whole script cannot run here.
skip() {
	echo "SKIP: $*"
	exit 77
}

finish() {
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
	exit $?
}

# bench_commands: every command of bench, one a line, as bench names them:
# those of the list in bench --help, then each `bench history NAME` of bench
# history --help's usage (the run itself, "", is not listed).
bench_commands() {
	"$BENCH" --help | sed -n '/^Commands/,/^$/p' | awk 'NR > 1 && NF { print $1 }'
	"$BENCH" history --help | sed -n -E 's/^(usage:)? *bench (history [a-z]+) .*/\2/p'
}
