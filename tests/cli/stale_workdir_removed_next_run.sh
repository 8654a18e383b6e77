#!/usr/bin/env bash
# stale_workdir_removed_next_run.sh - a run killed with SIGKILL cannot remove
# its work directory; the next run in the same --dir removes it, and only it:
# not a live run's, not anything that merely looks alike.
set -u
bench=${BENCH:?BENCH must name the bench executable}
work=$(mktemp -d "${TMPDIR:-/tmp}/copybench-stale-XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

d=$work/data
mkdir -p "$d"
sleep 0 & dead=$!
wait "$dead"
mkdir "$d/work-$dead-AbC123" "$d/work-$$-XyZ789" "$d/work-notapid" "$d/mywork-$dead-AbC123"
echo partial >"$d/work-$dead-AbC123/out-1"
echo mine >"$d/work-$$-XyZ789/keep"

"$bench" --strategy readwrite --size 64K --repeat 1 --no-limits --quiet --dir "$d" \
	--out "$work/res" >/dev/null 2>"$work/err"
rc=$?
[ $rc -eq 0 ] && ok || no "exit $rc: $(cat "$work/err")"
[ ! -e "$d/work-$dead-AbC123" ] && ok || no "the dead run's work directory is still there"
grep -qx "bench: removed work directories of killed runs in $d" "$work/err" && ok || no "no notice: $(cat "$work/err")"
[ -f "$d/work-$$-XyZ789/keep" ] && ok || no "a live process's work directory was touched"
[ -d "$d/work-notapid" ] && [ -d "$d/mywork-$dead-AbC123" ] && ok || no "a look-alike was removed"
[ -z "$(ls -d "$d"/work-* 2>/dev/null | grep -v "work-$$-XyZ789\|work-notapid")" ] && ok ||
	no "the run left its own work directory: $(ls "$d")"

echo "stale_workdir: $pass passed, $fail failed"
[ $fail -eq 0 ]
