#!/usr/bin/env bash
# command_rows_verified_counted_and_contained.sh - any program as a row
# (--command): `cp` on the copy workload is verified, counted and shown in
# class command with its template; a command that writes one byte wrong fails
# verification; one that exits non-zero fails with its status and the first
# line of its stderr; one that writes nothing says so; one that hangs is
# killed at --command-timeout with its process group (a missing program is
# refused before the run: named_but_unrunnable_exits_2.sh); an interrupted
# bench kills a running command; a bad --command is one line and exit 2.
# Nothing is left in the work directory or running after any of them.
. "$(dirname "$0")/../support/lib.sh"

command -v cp >/dev/null || skip "cp is not installed"
D="$T/d"
common=(--workload copy --strategy copy_file_range --size 64K --repeat 2 --warmup 1
	--no-limits --dir "$D" --quiet)

# The one-byte-wrong copier, a program of the test's own.
cat >"$T/wrong.sh" <<'EOF'
#!/bin/sh
cp "$1" "$2" && printf 'X' | dd of="$2" bs=1 seek=100 conv=notrunc status=none
EOF
chmod +x "$T/wrong.sh"

# left_in_dir: what bench left in its --dir besides the datasets.
left_in_dir() {
	find "$D" -mindepth 1 ! -name '*.dat' ! -name '*.dat.manifest' | LC_ALL=C sort | tr '\n' ' '
}
# row NAME: the table line of the row NAME.
row() { awk -v s="$1" '$1 == s' "$T/.out"; }
# summary_col NAME COLUMN: a plain column of row NAME in summary.csv (no
# quoted commas before it).
summary_col() {
	awk -F, -v s="$1" -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$2 == s { print $k }' "$T/res/summary.csv"
}

run "$BENCH" "${common[@]}" --out "$T/res" --command cp \
	--command "wrong=$T/wrong.sh {src} {dst}" \
	--command "fails=sh -c 'echo oops on stderr >&2; echo more >&2; exit 3' sh {src} {dst}" \
	--command "nothing=true {src} {dst}" \
	--command "hangs=sh -c 'sleep 61.25' sh {src} {dst}" --command-timeout 0.5
expect_eq rc "$RC" 1
row cp | grep -Eq ' ([2-9])/\1 .*whole process: start-up included$' && pass || fail "cp row: $(row cp)"
expect_eq cp_class "$(summary_col cp class)" command
expect_eq cp_status "$(summary_col cp status)" ok
expect_eq cp_template "$(summary_col cp command)" "cp {src} {dst}"
expect_eq cfr_template "$(summary_col copy_file_range command)" ""
# like with like: the only command row is its own pace, not the copies'
expect_eq cp_ratio "$(summary_col cp ratio_to_fastest)" 1.000
expect_eq cfr_ratio "$(summary_col copy_file_range ratio_to_fastest)" 1.000
# syscall_col NAME SYSCALL COLUMN: COLUMN of row NAME's SYSCALL in syscalls.csv.
syscall_col() {
	awk -F, -v s="$1" -v y="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == c) k = i; if ($i == "syscall") n = i }; next }
		$2 == s && $n == y { print $k }' "$T/res/syscalls.csv"
}
# The program's own calls are counted (perf inherits the counters to the
# processes the child starts): cp opens files, the child itself opens none
# inside its clock.
method=$(syscall_col cp total method)
if [ -n "$method" ] && [ "$method" != n/a ]; then
	[ "$(syscall_col cp openat count)" -ge 2 ] && pass ||
		fail "cp's openat counted $(syscall_col cp openat count) times by $method"
fi
row wrong | grep -q 'FAILED.*verification failed: output hash [0-9a-f]* differs from the source' && pass ||
	fail "wrong: $(row wrong)"
row fails | grep -qF 'FAILED: the command exited with status 3: "oops on stderr"' && pass ||
	fail "fails: $(row fails)"
row nothing | grep -qF 'verification failed: the command exited 0 but wrote nothing at {dst}' && pass ||
	fail "nothing: $(row nothing)"
row hangs | grep -qF 'the command did not end within the timeout (0.5 s, --command-timeout): killed with its process group' &&
	pass || fail "hangs: $(row hangs)"
expect_eq left_after_rows "$(left_in_dir)" ""
expect_eq hang_killed "$(pgrep -f '^sleep 61.25$')" ""

# Counted by ptrace too: it follows the command's forks.
run env COPYBENCH_SYSCOUNT=ptrace "$BENCH" "${common[@]}" --out "$T/res" --force --command cp
if [ "$RC" = 0 ] && [ "$(syscall_col cp total method)" = ptrace ]; then
	[ "$(syscall_col cp openat count)" -ge 2 ] && pass ||
		fail "ptrace counted cp's openat $(syscall_col cp openat count) times"
fi
rm -rf "$T/res"

# Interrupted while a command runs: bench kills it and its group.
"$BENCH" "${common[@]}" --out "$T/int" --command "hold=sh -c 'sleep 62.25; true' sh {src} {dst}" \
	>"$T/.out" 2>"$T/.err" &
pid=$!
wait_process "$pid" '^sleep 62.25$'
interrupt "$pid"
expect_eq interrupted_rc "$RC" 130
for _ in $(seq 100); do pgrep -f '^sleep 62.25$' >/dev/null || break; sleep 0.05; done
expect_eq interrupted_killed "$(pgrep -f '^sleep 62.25$')" ""
expect_eq left_after_interrupt "$(left_in_dir)" ""
rm -rf "$T/int"

# Mistakes on the command line: one line, exit 2, nothing made.
expect_fail unknown_default 2 "bench: --command 'nosuch': no default command 'nosuch' (bench list shows them); write NAME='program {src} {dst}'" \
	"$BENCH" "${common[@]}" --command nosuch
expect_fail no_dst 2 "bench: --command 'x=cp {src}': the template must name {src} and {dst}" \
	"$BENCH" "${common[@]}" --command 'x=cp {src}'
expect_fail open_quote 2 "bench: --command 'x=cp '{src} {dst}': a quote is not closed" \
	"$BENCH" "${common[@]}" --command "x=cp '{src} {dst}"
expect_fail twice 2 "bench: --command 'cp': a command of this name was given before" \
	"$BENCH" "${common[@]}" --command cp --command cp
expect_fail clash 2 "bench: --command 'splice': a strategy, channel or limit row has that name; name the command otherwise" \
	"$BENCH" "${common[@]}" --command 'splice=cp {src} {dst}'
# A command row and a row not ranked (direct: device I/O) in one table:
# each under its own heading, the direct row not under "commands:".
run "$BENCH" --workload copy --strategy readwrite,direct --size 64K --repeat 2 --warmup 0 --no-limits \
	--syscalls off --dir "$D" --out "$T/res-direct" --quiet --command cp
if grep -q '^  direct .*device I/O around the page cache' "$T/.out"; then
	expect_eq direct_heading "$(grep -E '^  (commands:|not ranked:|cp |direct )' "$T/.out" | awk '{ print $1 }' | tr '\n' ' ')" \
		"commands: cp not direct "
else
	echo "note: direct is not device I/O here: its heading is not checked"
fi
# A command row gets no %limit: the limit rows time the work alone, not a
# process around it.
run "$BENCH" --workload copy --strategy copy_file_range --size 64K --repeat 2 --warmup 0 \
	--syscalls off --dir "$D" --quiet --out "$T/lim" --command cp
expect_eq limits_rc "$RC" 0
limit_of() {
	awk -F, -v s="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "pct_of_limit") k = i; next }
		$2 == s { print ($k == "" ? "empty" : "set") }' "$T/lim/summary.csv"
}
expect_eq cp_no_limit "$(limit_of cp)" empty
expect_eq cfr_limit "$(limit_of copy_file_range)" set
finish
