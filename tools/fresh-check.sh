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
#
# Usage: tools/fresh-check.sh [--keep] [--no-sys] [--dir DIR] [-- QUICKSTART ARGS...]
#   --keep      leave the root (and the logs in it) in place
#   --no-sys    do not mount /sys in the root (a container without /sys/class/dmi)
#   --dir DIR   make the root under DIR (default: ${TMPDIR:-/var/tmp}); it needs
#               about 4 GiB free
# QUICKSTART ARGS replace quickstart's default `--all --size 200M`.
# Cache: ${XDG_CACHE_HOME:-~/.cache}/copybench/fresh-root/ holds the base root
# tarball and the downloaded .deb files (bench clean does not touch it; remove
# the folder to start from nothing).
#
# Root only; needs debootstrap (Debian: debootstrap) and the network to the
# Debian mirror. Not part of CI (it downloads a whole system): run it before a
# change to set-up, tests or dependencies lands (docs/contributing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)

keep=0 sys=1 parent=${TMPDIR:-/var/tmp}
while [ $# -gt 0 ]; do
	case $1 in
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

work=$(mktemp -d "$parent/copybench-fresh-XXXXXX")
root=$work/root
cleanup() {
	# The mounts lived in the namespace of the run, which has ended: what
	# is left are plain folders (--one-file-system guards against a mistake).
	[ $keep -eq 1 ] && { echo "fresh-check: root kept in $root" >&2; return; }
	rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ ! -s "$base" ]; then
	mirror=$(debian_mirror)
	echo "fresh-check: making the base root with debootstrap from $mirror (once; cached)" >&2
	mkdir "$work/base"
	debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 ||
		{ echo "fresh-check: debootstrap failed; its log:" >&2; tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
	rm -f "$work/base"/var/cache/apt/archives/*.deb
	tar -C "$work/base" -czf "$base.part" . && mv "$base.part" "$base"
	rm -rf --one-file-system "$work/base"
fi

mkdir "$root"
tar -C "$root" -xzf "$base"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
commit=$(git rev-parse HEAD)
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
	echo "fresh-check: note: uncommitted changes are not in the root (it gets $commit)" >&2
git clone -q --no-local --no-checkout "$src" "$root/root/copybench"
git -C "$root/root/copybench" checkout -q "$commit"

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
export root work
qargs=""
[ $# -eq 0 ] || qargs=$(printf ' %q' "$@")
# One private mount namespace for both steps: its mounts end with it.
set +e
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
set -e
echo "fresh-check: commit $commit: $([ $rc -eq 0 ] && echo "both commands exited 0" || echo FAILED)"
exit $rc
