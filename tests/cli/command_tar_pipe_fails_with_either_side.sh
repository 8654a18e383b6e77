#!/usr/bin/env bash
# command_tar_pipe_fails_with_either_side.sh - the default `tar` command row
# copies a tree through a tar c | tar x pipe and is verified; when the writing
# side fails while the reading side succeeds (here a tar that writes a whole
# archive, then exits 1), the row fails: the pipe's status is that of any side
# that failed (pipefail), not only of the last one.
. "$(dirname "$0")/../support/lib.sh"

tar=$(command -v tar) || skip "tar is not installed"
command -v bash >/dev/null || skip "bash is not installed"
D="$T/d"
common=(--workload tree --files 20 --size 4K --strategy readwrite --repeat 2 --warmup 0
	--no-limits --syscalls off --dir "$D" --quiet)
row() { awk -v s="$1" '$1 == s' "$T/.out"; }

run "$BENCH" "${common[@]}" --out "$T/ok" --command tar
expect_eq tar_rc "$RC" 0
# every run verified (a run the machine disturbed is rerun: 3/3 as well as 2/2)
row tar | grep -Eq ' ([2-9])/\1 ' && pass || fail "tar row not verified: $(cat "$T/.out" "$T/.err")"

mkdir -p "$T/bin"
printf '#!/bin/sh\ncase " $* " in\n*" -cf "*) "%s" "$@"; exit 1 ;;\n*) exec "%s" "$@" ;;\nesac\n' \
	"$tar" "$tar" >"$T/bin/tar"
chmod +x "$T/bin/tar"
PATH="$T/bin:$PATH" run "$BENCH" "${common[@]}" --out "$T/bad" --command tar
expect_eq writer_fails_rc "$RC" 1
finish
