#!/usr/bin/env bash
# holes_fail_verification.sh - an output whose bytes are right but that has
# holes fails verification unless it is a clone: the fixture `holes`
# (bench_fixtures) copies zero data like readwrite, then punches a hole over the
# output's first 64 KiB (the bytes still read as zeros, so the hash alone
# cannot see it). bench exits 1, the row says how many bytes were holes, and
# readwrite beside it (which writes every byte) verifies, its output_blocks
# covering the whole size.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
D=$T/d
run "$BENCH_FIXTURES" --strategy holes,readwrite --dataset zero --size 256K --repeat 2 --warmup 0 \
	--syscalls off --no-limits --dir "$D" --out "$T/r"
if grep -q 'holes .*Operation not supported' "$T/.out" "$T/.err"; then
	skip "the filesystem under $D cannot punch holes"
fi
expect_eq exit_1 "$RC" 1
expect_eq row_says_holes "$(grep -c '^  holes .*FAILED.*verification failed: the output has 65536 bytes in holes' "$T/.out")" 1
expect_eq summary_status "$(grep -c '^copy,holes,.*,failed: verification failed: the output has 65536 bytes in holes' "$T/r/summary.csv")" 1
expect_eq holes_not_verified "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verified") v = i; next } $2 == "holes" && $v != 0' "$T/r/runs.csv")" ""
expect_eq readwrite_ok "$(grep -c '^copy,readwrite,.*,ok,' "$T/r/summary.csv")" 1
blocks=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "output_blocks") b = i; next }
	$2 == "readwrite" { print $b }' "$T/r/runs.csv" | sort -u)
expect_eq readwrite_all_blocks "$([ "${blocks:-0}" -ge 512 ] && echo yes)" yes
finish
