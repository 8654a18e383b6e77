#!/usr/bin/env bash
# interrupt_keeps_results_removes_temp.sh - SIGINT/SIGTERM at each stage of a
# run: the children stop, temporary and partial files go, the results of the
# runs already done are kept (complete files, never half of one), and bench
# exits 130/143.
. "$(dirname "$0")/../support/lib.sh"
cd "$T" || exit 1


# complete_results NAME DIR: the three CSV files, each ending in a newline,
# no temporary files beside them, runs.csv with at least one run.
complete_results() {
	local f
	for f in runs summary syscalls; do
		if [ ! -s "$2/$f.csv" ] || [ "$(tail -c 1 "$2/$f.csv" | od -An -c | tr -d ' ')" != '\n' ]; then
			fail "$1: $f.csv missing or cut short"
			return
		fi
	done
	expect_none "$1_no_temp" "$2" '*.tmp-*'
	[ "$(wc -l <"$2/runs.csv")" -ge 2 ] && pass || fail "$1: no run kept in runs.csv"
}

# 1. During dataset generation: no temporary file, no half dataset.
"$BENCH" --size 2G --dataset random --strategy readwrite --dir "$T/gen" --out "$T/gen-res" --quiet \
	>"$T/.out" 2>"$T/.err" &
pid=$!
wait_for "$pid" "$T/gen/*.tmp-*" || fail "generation: the temporary file never appeared"
interrupt "$pid"
expect_eq generation_sigint_rc "$RC" 130
expect_eq generation_sigint_left "$(ls -A "$T/gen")" ""
expect_eq generation_sigint_no_results "$(ls -d "$T/gen-res" 2>/dev/null)" ""
expect_eq generation_sigint_said "$(cat "$T/.err")" "bench: interrupted by SIGINT before any run: no results written"

# wait_line PID FILE PATTERN: until FILE has a line matching PATTERN (or PID ended).
wait_line() {
	until grep -q "$3" "$2" 2>/dev/null; do
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.01
	done
}

# 2. Mid-run, SIGTERM: the case's runs so far are kept. The interruption
# comes once the first measured round has ended (bench says so on stderr).
run_then() {	# NAME SIGNAL COUNT CODE: interrupt a long run COUNT times
	local name=$1 sig=$2 count=$3 code=$4 i
	"$BENCH" --size 1M --strategy readwrite,sendfile --repeat 100000 --syscalls off --no-limits \
		--dir "$T/$name" --out "$T/$name-res" >"$T/.out" 2>"$T/$name.err" &
	pid=$!
	wait_line "$pid" "$T/$name.err" '^bench: round 2/[0-9]* done' || fail "$name: no measured round ended"
	for ((i = 0; i < count; i++)); do
		kill "-$sig" "$pid" 2>/dev/null
		sleep 0.001
	done
	wait "$pid"
	expect_eq "${name}_rc" $? "$code"
	expect_eq "${name}_left" "$(cd "$T/$name" && ls -A)" \
		"$(printf '%s\n' random-1048576-s1.dat random-1048576-s1.dat.manifest)"
	complete_results "$name" "$T/$name-res"
	grep -q "readwrite" "$T/.out" && pass || fail "$name: no table printed"
	expect_eq "${name}_said" "$(tail -n 1 "$T/$name.err")" \
		"bench: interrupted by SIG$sig: the runs done are in $T/$name-res; the cases not run say 'not run'"
}
run_then run_sigterm TERM 1 143
run_then run_sigint INT 1 130
# 3. Ctrl-C pressed again and again while bench cleans up and writes.
run_then run_sigint_repeated INT 50 130

# 4. Interrupted in the warm-up round (a command row that sleeps holds it
# there): no case has a measured run, and every row says "not run", in the
# table and in summary.csv, never 0 MiB/s.
"$BENCH" --size 64K --strategy readwrite,sendfile --warmup 1 --repeat 3 --syscalls off --no-limits \
	--dir "$T/w" --out "$T/w-res" --command "hang=sh -c 'sleep 30.25' sh {src} {dst}" \
	>"$T/.out" 2>"$T/w.err" &
pid=$!
wait_process "$pid" '^sleep 30.25$'
interrupt "$pid"
expect_eq warmup_sigint_rc "$RC" 130
expect_eq warmup_rows_not_run "$(grep -Ec '^  (readwrite|sendfile|hang) .* not run$' "$T/.out")" 3
expect_eq warmup_no_figures "$(grep -Ec '^  (readwrite|sendfile|hang) .* [0-9]+/[0-9]+ ' "$T/.out")" 0
expect_eq warmup_status_not_run "$(grep -c ',not run,' "$T/w-res/summary.csv")" 3
expect_eq warmup_said "$(tail -n 1 "$T/w.err")" \
	"bench: interrupted by SIGINT: the runs done are in $T/w-res; the cases not run say 'not run'"
expect_eq warmup_hang_killed "$(pgrep -f '^sleep 30.25$')" ""

# 5. bench copy interrupted: no DST, no temporary file.
truncate -s 4G "$T/sparse"
mkdir "$T/copy"
"$BENCH" copy --strategy readwrite "$T/sparse" "$T/copy/dst" >"$T/.out" 2>"$T/.err" &
pid=$!
wait_for "$pid" "$T/copy/.bench-copy-*"
interrupt "$pid"
expect_eq copy_sigint_rc "$RC" 130
expect_eq copy_sigint_msg "$(cat "$T/.err")" "bench copy: interrupted by SIGINT; $T/copy/dst was not written"
expect_eq copy_sigint_left "$(ls -A "$T/copy")" ""
finish
