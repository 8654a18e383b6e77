#!/usr/bin/env bash
# ownership_budget_enospc.sh - bench writes only in its --dir and its results
# folder, only files it made, and takes away its work directory; someone
# else's file with a dataset's name is refused, never replaced. Also the RAM
# budget of strategies that hold a whole file, and ENOSPC in the middle of a
# run.
. "$(dirname "$0")/../support/lib.sh"
mkdir "$T/cwd" && cd "$T/cwd" || exit 1
D=$T/d
R=$T/r

# A normal small run: datasets and manifests in --dir, meta.json and three CSVs in --out,
# nothing in the working directory, no work directory left.
run "$BENCH" --size 64K --strategy readwrite,copy_file_range --repeat 1 --syscalls off --dir "$D" --out "$R" --quiet
expect_eq small_run_rc "$RC" 0
expect_eq small_run_dir "$(ls -A "$D" | tr '\n' ' ')" "random-65536-s1.dat random-65536-s1.dat.manifest "
expect_eq small_run_results "$(ls -A "$R" | tr '\n' ' ')" "meta.json runs.csv summary.csv syscalls.csv "
expect_eq small_run_cwd "$(ls -A "$T/cwd")" ""
# Run again into the same places: the datasets reused, the results replaced
# (--force: a results folder is not overwritten without it).
run "$BENCH" --size 64K --strategy readwrite --repeat 1 --syscalls off --dir "$D" --out "$R" --force --quiet
expect_eq rerun_rc "$RC" 0
expect_eq rerun_dir "$(ls -A "$D" | tr '\n' ' ')" "random-65536-s1.dat random-65536-s1.dat.manifest "

# Someone's file under a dataset's name: refused, untouched, nothing made.
mkdir "$T/foreign"
echo "my notes" >"$T/foreign/random-65536-s1.dat"
expect_fail foreign_dataset 1 "bench: $T/foreign/random-65536-s1.dat exists and was not made by bench (no manifest); move it away or choose another --dir" \
	"$BENCH" --size 64K --strategy readwrite --dir "$T/foreign" --out "$R/x" --quiet
expect_eq foreign_dataset_kept "$(cat "$T/foreign/random-65536-s1.dat")" "my notes"
rm "$T/foreign/random-65536-s1.dat"
echo "not a manifest" >"$T/foreign/random-65536-s1.dat.manifest"
expect_fail foreign_manifest 1 "bench: $T/foreign/random-65536-s1.dat.manifest exists and was not made by bench (no manifest); move it away or choose another --dir" \
	"$BENCH" --size 64K --strategy readwrite --dir "$T/foreign" --out "$R/x" --quiet
# bench gen does not replace a file without --force.
expect_fail gen_existing 1 "bench gen: $T/foreign/random-65536-s1.dat.manifest exists; use --force to replace it" \
	"$BENCH" gen random 4K "$T/foreign/random-65536-s1.dat.manifest"
run "$BENCH" gen random 4K "$T/foreign/random-65536-s1.dat.manifest" --force --seed 3
expect_eq gen_force_rc "$RC" 0
expect_eq gen_force_size "$(stat -c %s "$T/foreign/random-65536-s1.dat.manifest")" 4096

# RAM budget: a whole-file strategy refuses, with a message, not an OOM kill.
head -c 65536 /dev/urandom >"$T/src64k"
expect_fail ram_budget_copy 1 "bench copy: $T/src64k: full-buffer needs the whole file in memory, over the RAM budget (half of available memory)" \
	env COPYBENCH_RAM_BUDGET=4096 "$BENCH" copy --strategy full-buffer "$T/src64k" "$T/dst"
run env COPYBENCH_RAM_BUDGET=4096 "$BENCH" --size 64K --strategy full-buffer --repeat 1 --syscalls off --no-limits --dir "$D" --out "$T/ram" --quiet
# the only case asked for could not run: said, and exit 2
# (named_but_unrunnable_exits_2.sh)
expect_eq ram_budget_run_rc "$RC" 2
expect_eq ram_budget_run_line "$(cat "$T/.err")" "bench: no case asked for could run here (1 unavailable: the table says why)"
grep -Fq "unavailable: the whole file does not fit the RAM budget (half of available memory)" "$T/.out" &&
	pass || fail "ram_budget_run: $(cat "$T/.out")"

# ENOSPC in the middle of a run (root: a small tmpfs filled once the runs
# have started): the case fails naming the error and both paths whole (a
# long folder name, as under a deep TMPDIR), its output is removed, the
# results are written, and the work directory is gone.
if mount_tmpfs "$T/small" 48M; then
	L=$T/small/$(printf 'long-folder-name-%.0s' 1 2 3 4 5 6 7 8 9 10)
	mkdir -p "$L" || exit 1
	"$BENCH" --size 8M --strategy readwrite --repeat 100000 --syscalls off --no-limits \
		--dir "$L/d" --out "$T/enospc" --quiet >"$T/.out" 2>"$T/.err" &
	pid=$!
	until compgen -G "$L/d/work-*" >/dev/null || ! kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
	# like another program filling the disk: take each block that frees up
	while kill -0 "$pid" 2>/dev/null; do
		cat /dev/zero >>"$T/small/filler" 2>/dev/null
		sleep 0.01
	done
	wait "$pid"
	expect_eq enospc_run_rc $? 1
	grep -Eq "readwrite .*FAILED( \([0-9]+ of [0-9]+ runs verified\))?: No space left on device writing the copy of $L/d/random-8388608-s1.dat into $L/d/work-[0-9]+-[A-Za-z0-9]+ \(output removed\)" "$T/.out" &&
		pass || fail "enospc_run: $(grep -i readwrite "$T/.out")"
	expect_eq enospc_run_left "$(ls -A "$L/d" | tr '\n' ' ')" "random-8388608-s1.dat random-8388608-s1.dat.manifest "
	rm -f "$T/small/filler"
	expect_eq enospc_run_results "$(ls -A "$T/enospc" | tr '\n' ' ')" "meta.json runs.csv summary.csv syscalls.csv "
fi
expect_eq cwd_untouched "$(ls -A "$T/cwd")" ""
finish
