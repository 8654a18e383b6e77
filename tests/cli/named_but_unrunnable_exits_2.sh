#!/usr/bin/env bash
# named_but_unrunnable_exits_2.sh - what is asked for by name and cannot run
# here is an error (exit 2, one line), never a run that exits 0 with nothing
# measured: a --command whose program is missing, --cache cold where the
# datasets live in memory (tmpfs), --plot without gnuplot, and a run whose
# every case turned out unavailable.
. "$(dirname "$0")/../support/lib.sh"

D="$T/d"
common=(--workload copy --size 64K --repeat 2 --warmup 1 --no-limits --quiet)

expect_fail missing_command 2 \
	"bench: --command 'missing': no-such-program-copybench is not installed (not found in PATH)" \
	"$BENCH" "${common[@]}" --dir "$D" --out "$T/res" --strategy readwrite \
	--command "missing=no-such-program-copybench {src} {dst}"
expect_fail missing_command_path 2 \
	"bench: --command 'gone': $T/nothing-here cannot be run (No such file or directory)" \
	"$BENCH" "${common[@]}" --dir "$D" --out "$T/res" --strategy readwrite \
	--command "gone=$T/nothing-here {src} {dst}"

# --plot without gnuplot: said before the run, not after it
expect_fail plot_without_gnuplot 2 \
	"bench: --plot: gnuplot not found in PATH; install it (Debian: apt install gnuplot-nox) or leave out --plot" \
	env PATH=/nonexistent "$BENCH" "${common[@]}" --dir "$D" --out "$T/res" --strategy readwrite --plot

# tar has no form for a file: its only row on the copy workload cannot run.
if command -v tar >/dev/null && command -v bash >/dev/null; then
	run "$BENCH" "${common[@]}" --dir "$D" --out "$T/res" --strategy uring --command tar
	expect_eq none_ran_rc "$RC" 2
	expect_eq none_ran_line "$(cat "$T/.err")" \
		"bench: no case asked for could run here (1 unavailable: the table says why)"
fi

M="$T/mem"
if mount_tmpfs "$M" 64M; then
	expect_fail cold_on_tmpfs 2 \
		"bench: --cache cold: $M/d is on tmpfs, whose pages cannot be evicted: no case can run cold there; choose another --dir" \
		"$BENCH" "${common[@]}" --dir "$M/d" --out "$T/res2" --strategy readwrite --cache cold
	expect_fail cold_on_tmpfs_dry 2 \
		"bench: --cache cold: $M/d is on tmpfs, whose pages cannot be evicted: no case can run cold there; choose another --dir" \
		"$BENCH" "${common[@]}" --dir "$M/d" --strategy readwrite --cache cold --dry-run
else
	echo "note: no tmpfs of our own (not root): the cold-on-tmpfs checks are not run"
fi
finish
