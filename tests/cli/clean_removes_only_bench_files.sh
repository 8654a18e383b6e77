#!/usr/bin/env bash
# clean_removes_only_bench_files.sh - bench clean removes bench's datasets
# (each file with bench's manifest that still describes it, with its manifest)
# and the work directories of killed runs, prints each path it removes, and
# touches nothing else: look-alike files without a manifest, a stranger's
# manifest (or a copy of bench's beside a file it does not name), a dataset
# changed since bench made it (named as kept), a live run's work directory,
# results.
. "$(dirname "$0")/../support/lib.sh"
mkdir "$T/cwd" && cd "$T/cwd" || exit 1
D=$T/d

run "$BENCH" --strategy readwrite --size 64K,128K --repeat 1 --syscalls off --no-limits \
	--dir "$D" --out "$T/r" --quiet
expect_eq made_rc "$RC" 0
sleep 0 & dead=$!
wait "$dead"
mkdir "$D/work-$dead-AbC123" "$D/work-$$-XyZ789" "$D/work-notapid"
echo partial >"$D/work-$dead-AbC123/out-1"
head -c 4096 /dev/zero >"$D/random-4096-s1.dat"			# no manifest: not bench's
printf 'kind=random\nsize=9\n' >"$D/notes.manifest"		# not bench's manifest
echo "my notes" >"$D/notes.txt"
cp "$D/random-131072-s1.dat" "$D/copy-of-mine.dat"
cp "$D/random-131072-s1.dat.manifest" "$D/copy-of-mine.dat.manifest"	# names another file
echo changed >>"$D/random-131072-s1.dat"				# bench's, changed since
before_results=$(snapshot "$T/r")

run "$BENCH" clean --dir "$D"
expect_eq clean_rc "$RC" 0
expect_eq clean_stderr "$(cat "$T/.err")" ""
expect_eq clean_output "$(cat "$T/.out")" "kept $D/random-131072-s1.dat: changed since bench made it
removed $D/random-65536-s1.dat (64K)
removed $D/random-65536-s1.dat.manifest
removed $D/work-$dead-AbC123/ (the work directory of a killed run)
bench clean: 2 files (64K), 1 work directory and 0 test filesystem folders removed from $D"
expect_eq left "$(ls -A "$D" | tr '\n' ' ')" \
	"copy-of-mine.dat copy-of-mine.dat.manifest notes.manifest notes.txt random-131072-s1.dat random-131072-s1.dat.manifest random-4096-s1.dat work-$$-XyZ789 work-notapid "
expect_eq live_workdir_kept "$(cat "$D/work-$$-XyZ789/keep" 2>/dev/null; ls "$D/work-$$-XyZ789" | wc -l)" 0
expect_eq results_untouched "$(snapshot "$T/r")" "$before_results"
expect_eq nothing_in_cwd "$(ls -A)" ""

# A manifest of bench's whose file is gone goes too; then nothing is left.
rm "$D/random-131072-s1.dat"
run "$BENCH" clean --dir "$D"
expect_eq orphan_manifest "$(cat "$T/.out")" "removed $D/random-131072-s1.dat.manifest
bench clean: 1 file (0), 0 work directories and 0 test filesystem folders removed from $D"
run "$BENCH" clean --dir "$D"
expect_eq nothing_more "$(cat "$T/.out")" "bench clean: nothing of bench's to remove in $D"
run "$BENCH" clean --dir "$T/none"
expect_eq no_dir "$RC $(cat "$T/.out")" "0 bench clean: nothing to clean: $T/none does not exist"
expect_fail clean_bad_option 2 "bench clean: unknown option '--bogus' (see bench clean --help)" \
	"$BENCH" clean --bogus
# A run killed a moment ago is a zombie until its parent reaps it: its work
# directory is a killed run's all the same (a parent that never reaps here).
zdir=$(mktemp -d "$T/z-XXXXXX")
python3 -c 'import os, sys, time
pid = os.fork()
if pid == 0:
    os._exit(0)
print(pid, flush=True)
time.sleep(30)' >"$T/zombie" &
holder=$!
until [ -s "$T/zombie" ]; do sleep 0.01; done
zombie=$(cat "$T/zombie")
until grep -q '^State:.*Z' "/proc/$zombie/status" 2>/dev/null; do sleep 0.01; done
mkdir "$zdir/work-$zombie-ZoM123"
run "$BENCH" clean --dir "$zdir"
expect_eq zombie_workdir_removed "$(ls -A "$zdir")" ""
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
finish
