#!/usr/bin/env bash
# stale_workdir_removed_next_run.sh - a run killed with SIGKILL cannot remove
# its work directory; the next run in the same --dir removes it, and only it:
# not a live run's, not anything that merely looks alike.
. "$(dirname "$0")/../support/lib.sh"

d=$T/data
mkdir -p "$d"
sleep 0 & dead=$!
wait "$dead"
mkdir "$d/work-$dead-AbC123" "$d/work-$$-XyZ789" "$d/work-notapid" "$d/mywork-$dead-AbC123"
echo partial >"$d/work-$dead-AbC123/out-1"
echo mine >"$d/work-$$-XyZ789/keep"

"$BENCH" --strategy readwrite --size 64K --repeat 1 --no-limits --quiet --dir "$d" \
	--out "$T/res" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && pass || fail "exit $rc: $(cat "$T/err")"
[ ! -e "$d/work-$dead-AbC123" ] && pass || fail "the dead run's work directory is still there"
grep -qx "bench: removed work directories of killed runs in $d" "$T/err" && pass || fail "no notice: $(cat "$T/err")"
[ -f "$d/work-$$-XyZ789/keep" ] && pass || fail "a live process's work directory was touched"
[ -d "$d/work-notapid" ] && [ -d "$d/mywork-$dead-AbC123" ] && pass || fail "a look-alike was removed"
[ -z "$(ls -d "$d"/work-* 2>/dev/null | grep -v "work-$$-XyZ789\|work-notapid")" ] && pass ||
	fail "the run left its own work directory: $(ls "$d")"

finish
