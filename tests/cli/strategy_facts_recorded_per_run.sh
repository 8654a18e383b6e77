#!/usr/bin/env bash
# strategy_facts_recorded_per_run.sh - what a strategy chose at run time is a
# column of each run: splice's pipe size as the kernel granted it (its buffer,
# or /proc/sys/fs/pipe-max-size when the buffer is larger), io_uring's buffer
# mode (1 registered, 0 plain when registering fails: under a memlock limit of
# 0 for a user without CAP_IPC_LOCK); empty for the other strategies.
. "$(dirname "$0")/../support/lib.sh"
D=$T/d

# col DIR STRATEGY COLUMN: that column of the strategy's runs, distinct values.
col() {
	awk -F, -v s="$2" -v want="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i; next }
		$2 == s { print $c }' "$1/runs.csv" | sort -u | tr '\n' ' '
}

max=$(cat /proc/sys/fs/pipe-max-size)
run "$BENCH" --strategy splice,readwrite --buffer 64K,64M --size 1M --repeat 2 --syscalls off \
	--no-limits --dir "$D" --out "$T/s" --quiet
expect_eq splice_rc "$RC" 0
want=$(printf '%s\n' 65536 $((max < 67108864 ? max : 67108864)) | sort -u | tr '\n' ' ')
expect_eq splice_pipe_bytes "$(col "$T/s" splice pipe_bytes)" "$want"
expect_eq readwrite_no_pipe "$(col "$T/s" readwrite pipe_bytes)" " "
expect_eq readwrite_no_ring "$(col "$T/s" readwrite fixed_buffers)" " "

run "$BENCH" --strategy io_uring --size 1M --repeat 2 --syscalls off --no-limits --dir "$D" \
	--out "$T/u" --quiet
if grep -q 'io_uring .*unavailable' "$T/.out"; then
	skip "io_uring is unavailable here"
fi
expect_eq uring_rc "$RC" 0
expect_eq uring_fixed "$(col "$T/u" io_uring fixed_buffers)" "1 "
expect_eq uring_no_pipe "$(col "$T/u" io_uring pipe_bytes)" " "
# Registered buffers count against the memlock limit (the ring itself needs
# a little): at 64 KiB, without CAP_IPC_LOCK, registering 1 MiB fails.
plain() { ulimit -l 64 && exec "$BENCH" --strategy io_uring --size 1M --repeat 2 --syscalls off \
	--no-limits --dir "$D" --out "$T/p" --quiet; }
if ! is_root; then
	(plain) >/dev/null 2>&1
elif command -v capsh >/dev/null; then
	export -f plain; export BENCH D T
	capsh --drop=cap_ipc_lock -- -c plain >/dev/null 2>&1
fi
if [ -f "$T/p/runs.csv" ] && [ -n "$(col "$T/p" io_uring fixed_buffers | tr -d ' ')" ]; then
	expect_eq uring_plain_under_memlock "$(col "$T/p" io_uring fixed_buffers)" "0 "
fi
finish
