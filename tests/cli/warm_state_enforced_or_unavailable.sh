#!/usr/bin/env bash
# warm_state_enforced_or_unavailable.sh - warm is enforced like cold: when the
# source cannot stay in the page cache (here: a memory cgroup smaller than the
# source), the warm case is `unavailable` with the residency it reached, no
# run of it is recorded as warm, and since no case asked for could run, bench
# says so and exits 2 (named_but_unrunnable_exits_2.sh). As root, with a
# memory cgroup (v1 or v2) this process may make; skipped otherwise.
. "$(dirname "$0")/../support/lib.sh"

is_root || skip "not root: cannot make a memory cgroup"
# A sanitizer's own memory (shadow, quarantine) does not fit the 48 MiB the
# test gives bench (seen killed, exit 137): the release build is tested.
ldd "$BENCH" 2>/dev/null | grep -q libasan &&
	skip "a sanitizer build does not fit in the test's 48 MiB memory cgroup"
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	grep -qw memory /sys/fs/cgroup/cgroup.controllers || skip "cgroup v2 without the memory controller"
	parent=/sys/fs/cgroup$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
	limit_file=memory.max
else
	[ -d /sys/fs/cgroup/memory ] || skip "no memory cgroup controller"
	parent=/sys/fs/cgroup/memory$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
	limit_file=memory.limit_in_bytes
fi
cg="$parent/copybench-warm-$$"
mkdir "$cg" 2>/dev/null || skip "cannot make a cgroup under $parent"
cleanup_cg() { rmdir "$cg" 2>/dev/null; cleanup; }
trap cleanup_cg EXIT
echo $((48 << 20)) >"$cg/$limit_file" || skip "cannot limit memory in $cg"

# the dataset is made outside the cgroup; the run inside it cannot keep
# 96 MiB resident in 48 MiB
"$BENCH" gen random 96M "$T/d/random-100663296-s1.dat" >/dev/null 2>&1 || true
run bash -c "echo \$\$ >'$cg/cgroup.procs' && exec '$BENCH' --strategy readwrite,sendfile --size 96M \
	--no-limits --repeat 2 --syscalls off --dir '$T/d' --out '$T/res' --quiet"
expect_eq warm_unreachable_rc "$RC" 2
expect_eq warm_unreachable_said "$(cat "$T/.err")" "bench: no case asked for could run here (2 unavailable: the table says why)"
grep -Eq '^  copy +readwrite +unavailable: cannot keep the source in the page cache \([0-9]+% resident after reading it 3 times' "$T/.out" &&
	pass || fail "no unavailable line for readwrite: $(cat "$T/.out" "$T/.err")"
grep -q '^copy,readwrite,.*,unavailable: cannot keep the source in the page cache' "$T/res/summary.csv" &&
	pass || fail "summary.csv does not say unavailable"
[ "$(grep -c '^copy,' "$T/res/runs.csv")" = 0 ] && pass || fail "a run was recorded as warm: $(cat "$T/res/runs.csv")"
finish
