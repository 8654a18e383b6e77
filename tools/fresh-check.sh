#!/usr/bin/env bash
# fresh-check.sh - the README's two commands on a fresh Debian 12 machine, as
# a new user (or a package build) would meet them:
#   1. a debootstrap minbase root of Debian 12 (bookworm), made from the
#      machine's configured Debian mirror and cached as a tarball between
#      runs, unpacked anew each time;
#   2. the current commit (HEAD, not uncommitted changes) cloned into it;
#   3. tools/quickstart.sh, then tools/test.sh, each run in the root as root
#      with an empty environment (HOME, PATH, TERM=dumb: no locale, no TTY,
#      no standard input).
# Prints each command's exit code and the tail of its log; exits 0 only when
# both exited 0. Everything runs in a private mount namespace, so the root's
# /proc, /sys and /dev mounts end with it; the root is removed at the end
# (--keep leaves it and its logs for a look).
# With --runs N the whole round (a fresh root unpacked, the clone, both
# commands) is done N times in a row; each run prints its number, each
# command's exit code and the summary lines of tools/test.sh (the ctest
# summaries and its "stages:" line), and a last line says how many runs
# passed. It exits 0 only when every command of every run exited 0.
#
# Usage: tools/fresh-check.sh [--runs N] [--keep] [--no-sys] [--dir DIR] [--dry-run]
#                             [-- QUICKSTART ARGS...]
#   --runs N    do the round N times in a row, each from a fresh root (default 1)
#   --keep      leave the root (and the logs in it) in place (every run's)
#   --no-sys    do not mount /sys in the root (a container without /sys/class/dmi)
#   --dir DIR   make the root under DIR (default: ${TMPDIR:-/var/tmp}); it needs
#               about 4 GiB free
#   --dry-run   print what would be run, check nothing, make nothing
# QUICKSTART ARGS replace quickstart's default `--all --size 200M`.
# Cache: ${XDG_CACHE_HOME:-~/.cache}/copybench/fresh-root/ holds the base root
# tarball and the downloaded .deb files (bench clean does not touch it; remove
# the folder to start from nothing).
#
# Root only; needs debootstrap (Debian: debootstrap) and the network to the
# Debian mirror. Not part of CI (it downloads a whole system): run it before a
# change to set-up, tests or dependencies lands (docs/contributing.md). A run
# takes about 20 minutes on 2 CPUs; --runs 2 is what a change to the suite's
# determinism is checked with.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)

keep=0 sys=1 parent=${TMPDIR:-/var/tmp} runs=1 dry=0
while [ $# -gt 0 ]; do
	case $1 in
	--runs) [ $# -ge 2 ] || { echo "fresh-check: missing value for --runs" >&2; exit 2; }
		[[ $2 =~ ^[1-9][0-9]{0,2}$ ]] ||
			{ echo "fresh-check: --runs '$2': expected a whole number from 1 to 999" >&2; exit 2; }
		runs=$2; shift ;;
	--dry-run) dry=1 ;;
	--keep) keep=1 ;;
	--no-sys) sys=0 ;;
	--dir) [ $# -ge 2 ] || { echo "fresh-check: missing value for --dir" >&2; exit 2; }
		parent=$2; shift ;;
	--) shift; break ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "fresh-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done

commit=$(git rev-parse HEAD)
qargs=""
[ $# -eq 0 ] || qargs=$(printf ' %q' "$@")

if [ $dry -eq 1 ]; then
	echo "fresh-check: dry run: commit $commit, $runs run(s) in a row, each in a fresh root under $parent ($([ $sys -eq 1 ] && echo "with" || echo "without") /sys), running:"
	echo "   tools/quickstart.sh$qargs"
	echo "   tools/test.sh"
	[ "$(id -u)" -eq 0 ] || echo "fresh-check: note: a real run must be root"
	exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo "fresh-check: must run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
for tool in debootstrap unshare chroot git tar; do
	command -v "$tool" >/dev/null ||
		{ echo "fresh-check: $tool is not installed (Debian: apt-get install $tool)" >&2; exit 2; }
done

# The machine's Debian mirror: deb822 sources first, then the one-line format.
debian_mirror() {
	local uri
	uri=$(awk '/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ && u { print u; exit }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null || true)
	echo "${uri:-http://deb.debian.org/debian}"
}

cache=${XDG_CACHE_HOME:-$HOME/.cache}/copybench/fresh-root
base=$cache/bookworm-minbase.tar.gz
mkdir -p "$cache/archives/partial"

# work: the folder of the run under way (the base root while it is made).
work=""
cleanup() {
	# The mounts lived in the namespace of the run, which has ended: what
	# is left are plain folders (--one-file-system guards against a mistake).
	[ -n "$work" ] || return 0
	if [ $keep -eq 1 ] && [ -d "$work/root" ]; then
		echo "fresh-check: root kept in $work/root" >&2
	else
		rm -rf --one-file-system "$work"
	fi
	work=""
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ ! -s "$base" ]; then
	mirror=$(debian_mirror)
	echo "fresh-check: making the base root with debootstrap from $mirror (once; cached)" >&2
	work=$(mktemp -d "$parent/copybench-fresh-XXXXXX")
	mkdir "$work/base"
	debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
		{ echo "fresh-check: debootstrap failed; its log:" >&2; tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
	rm -f "$work/base"/var/cache/apt/archives/*.deb
	tar -C "$work/base" -czf "$base.part" . && mv "$base.part" "$base"
	cleanup
fi
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	echo "fresh-check: note: uncommitted changes are not in the root (it gets $commit)" >&2

# inside CMD: runs CMD in the root as a fresh machine's root user would.
inside() {
	env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
		setsid chroot "$root" /bin/bash -c "cd /root/copybench && $1" </dev/null
}

# run_step NAME CMD: one of the README's commands, its exit code and log tail.
run_step() {
	local name=$1 cmd=$2 rc start
	start=$(date +%s)
	echo "fresh-check: $name: $cmd" >&2
	set +e
	inside "$cmd" >"$work/$name.log" 2>&1
	rc=$?
	set -e
	echo "== $name: exit $rc after $(($(date +%s) - start)) s; last lines of its log:"
	tail -n 15 "$work/$name.log" | sed 's/^/   /'
	return $rc
}
export -f inside run_step

# one_run: a fresh root, the clone, both commands in one private mount
# namespace (its mounts end with it); 0 when both exited 0. It is called
# as a condition, where set -e does not act: each step checks itself.
one_run() {
	local rc
	work=$(mktemp -d "$parent/copybench-fresh-XXXXXX") || return 1
	root=$work/root
	export root work
	{ mkdir "$root" && tar -C "$root" -xzf "$base" &&
		cp -L /etc/resolv.conf "$root/etc/resolv.conf" &&
		git clone -q --no-local --no-checkout "$src" "$root/root/copybench" &&
		git -C "$root/root/copybench" checkout -q "$commit"; } ||
		{ echo "fresh-check: cannot make the root in $work" >&2; cleanup; return 1; }
	unshare --mount --propagation private bash -euo pipefail -c '
		mount -t proc proc "$root/proc"
		[ "$1" = 1 ] && mount -t sysfs sysfs "$root/sys"
		mount --rbind /dev "$root/dev"
		mount --bind "$2" "$root/var/cache/apt/archives"
		rc=0
		run_step quickstart "tools/quickstart.sh$3" || rc=1
		run_step tests "tools/test.sh" || rc=1
		exit $rc
	' fresh-check "$sys" "$cache/archives" "$qargs"
	rc=$?
	# test.sh's summaries: each ctest stage's, then its own "stages:" line
	echo "== tests summary:"
	grep -E '^[0-9]+% tests passed|^stages: ' "$work/tests.log" 2>/dev/null | sed 's/^/   /' ||
		echo "   (no summary line: tools/test.sh stopped before its suites ended)"
	cleanup
	return $rc
}

passed=0 failed=""
for i in $(seq "$runs"); do
	echo "=== run $i of $runs (commit $commit)"
	if one_run; then
		passed=$((passed + 1))
		echo "=== run $i of $runs: both commands exited 0"
	else
		failed="$failed $i"
		echo "=== run $i of $runs: FAILED"
	fi
done
if [ -z "$failed" ]; then
	echo "fresh-check: commit $commit: $passed of $runs runs passed, both commands exited 0 in each"
	exit 0
fi
echo "fresh-check: commit $commit: FAILED: $passed of $runs runs passed (failed: run${failed})"
exit 1
