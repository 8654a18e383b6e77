#!/usr/bin/env bash
# ab_end_to_end.sh - bench ab with this build as A and as B, where the
# verdict is certain whatever the machine's noise (verdicts on real noise
# belong to benchmarks, not to a test):
#   A/A, the same build twice, threshold 100 %  -> exit 0 (no regression: every case's
#                                                  interval below +100 %), every case
#                                                  ok/slower/faster, one CSV row per case
#                                                  and round with the case's verdict, the
#                                                  raw figures beside the times compared
#                                                  (a worker's own figure never above this
#                                                  bench's clock, the time compared its wall
#                                                  less the CPU wait), the order of a pair
#                                                  random and balanced (AB in one round of
#                                                  each two-round block, BA in the other)
#   (14 rounds to the first look for two cases, 12 for one: enough that the
#   signed-rank interval at alpha over the cases and 6 looks exists; a case the
#   first look leaves undecided is sampled on, with looks at 28, 56, ... rounds)
#   a --max-time that ends before the first look -> exit 3, inconclusive, said
#   B: the fixture `throttled` spinning 2000 % of its copy's CPU time (21x: a verdict
#      that holds at a load of 10 on 2 CPUs, where 4x was once judged ok)
#      (a script setting COPYBENCH_THROTTLE_PCT, as two configurations are
#      compared), threshold 100 %               -> exit 1, `regression`
#      (A, B and the judge bench_fixtures: the tests' build with the
#      fixtures, tests/fixtures/)
#   a --dir whose parents do not exist          -> made (exit 0 or 3)
#   B counting its workers                     -> one for the probes, then a new one
#                                                  for every pair made
#   B whose worker says its copies took 3x their time (COPYBENCH_TEST_WORKER_TIME_SCALE)
#                                               -> not a regression (exit 0 or 3: this
#                                                  bench's clock is used), the disagreement
#                                                  reported for B
#   B whose worker says half its time, 16M      -> the disagreement reported, none for A
#   B whose copies differ from the source       -> exit 1, `failed`, verification named
#      (B's worker bench_fixtures, readwrite rewritten to its fixture corrupt;
#      so for holes below)
#   B whose probe of the strategy fails         -> exit 1, `failed` before any copy
#   B whose worker never answers one case      -> exit 1, that case `failed` after the
#                                                  reply deadline, the worker killed; a
#                                                  new one serves the other case
#   B whose copies have holes, --dataset zero   -> exit 1, `failed`, the holes named (the
#                                                  bytes are right: a bench run's check)
#   a cold source on tmpfs (cannot be evicted)  -> exit 2, the set-up failed, not A or B
#   A that does not exist                       -> exit 2 (cannot judge)
#   too few rounds for any interval             -> exit 2 before anything runs (12 for
#                                                  2 cases: 2 / 2^n <= 0.01 / 2 / 6)
# and nothing is left in --dir but the dataset and its manifest.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
judge=$BENCH
unset COPYBENCH_THROTTLE_PCT CI

ab() {	# ab ARGS...: a small, quick comparison
	"$judge" ab --size 2M --dir "$T/data" "$@" >"$T/out" 2>&1
}

ab --strategy readwrite,sendfile --rounds 14 --threshold 100% --csv "$T/pairs.csv" \
	"$BENCH" "$BENCH"
rc=$?
[ $rc -eq 0 ] && pass || fail "A/A: exit $rc, expected 0: $(cat "$T/out")"
grep -Eq '^readwrite +(14|28|56|112|224|448) .* (ok|slower|faster)$' "$T/out" && pass || fail "A/A readwrite row: $(cat "$T/out")"
grep -q 'stopped by every case decided; ' "$T/out" && pass || fail "A/A not stopped by its decisions: $(cat "$T/out")"
grep -Eq '^bench ab: 2 cases: .*; no regression; exit 0$' "$T/out" && pass || fail "A/A summary: $(cat "$T/out")"
grep -q 'B/A per round (time without waits for a CPU, wall for a strategy on several CPUs, timed by this bench from each request to its reply)' "$T/out" &&
	pass || fail "A/A clock not named: $(cat "$T/out")"
nrw=$(grep -Ec '^readwrite,.*,(ok|slower|faster)$' "$T/pairs.csv")
nsf=$(grep -Ec '^sendfile,.*,(ok|slower|faster)$' "$T/pairs.csv")
[ $((nrw % 14)) -eq 0 ] && [ "$nrw" -gt 0 ] && [ $((nsf % 14)) -eq 0 ] && [ "$nsf" -gt 0 ] &&
	grep -Eq "^readwrite +$nrw " "$T/out" &&
	[ "$(head -n 1 "$T/pairs.csv")" = strategy,round,order,a_wall_ns,a_cpu_wait_ns,a_worker_ns,b_wall_ns,b_cpu_wait_ns,b_worker_ns,a_ns,b_ns,log_ratio,verdict ] &&
	pass || fail "pairs.csv: $(cat "$T/pairs.csv")"
# ABBA: each case has as many AB rounds as BA rounds
[ "$(grep -c '^readwrite,[0-9]*,AB,' "$T/pairs.csv")" -eq $((nrw / 2)) ] && pass || fail "readwrite not ABBA"
# The raw figures: each worker's own figure within this bench's clock (its
# interval is inside the request's), the time compared the wall less the
# worker's CPU wait (neither strategy is on several CPUs).
bad=$(awk -F, 'NR > 1 && ($6 > $4 || $9 > $7 || $10 != ($5 < $4 ? $4 - $5 : $4) ||
	$11 != ($8 < $7 ? $7 - $8 : $7)) { print }' "$T/pairs.csv")
[ -z "$bad" ] && pass || fail "raw figures do not add up: $bad"
# The order: per case, rounds 2k-1 and 2k the other way round from each other.
bad=$(awk -F, 'NR > 1 { o[$1 "," $2] = $3 } END { for (k in o) { split(k, p, ",");
	if (p[2] % 2 && (p[1] "," p[2] + 1) in o && o[p[1] "," p[2] + 1] == o[k]) print k } }' "$T/pairs.csv")
[ -z "$bad" ] && pass || fail "a two-round block in one order: $bad"
left=$(cd "$T/data" && ls | grep -v '^random-2097152-s1\.dat\(\.manifest\)\?$')
[ -z "$left" ] && pass || fail "left in --dir: $left"

printf '#!/bin/sh\nCOPYBENCH_THROTTLE_PCT=2000 exec "%s" "$@"\n' "$BENCH_FIXTURES" >"$T/slow.sh"
chmod +x "$T/slow.sh"
judge=$BENCH_FIXTURES
ab --strategy throttled --rounds 16 --threshold 100% --format markdown "$BENCH_FIXTURES" "$T/slow.sh"
rc=$?
[ $rc -eq 1 ] && pass || fail "throttled B: exit $rc, expected 1: $(cat "$T/out")"
grep -Eq '^\| throttled .* \| regression \|$' "$T/out" && pass || fail "no regression row: $(cat "$T/out")"
grep -q '^\*\*bench ab:\*\* 1 cases: 1 regression,' "$T/out" && pass || fail "markdown summary: $(cat "$T/out")"
ab --strategy throttled --rounds 16 --threshold 100% --wall "$BENCH_FIXTURES" "$T/slow.sh"
rc=$?
[ $rc -eq 1 ] && grep -q '^bench ab: 1 cases: 1 regression, B/A per round (wall time, timed by this bench from each request to its reply)' "$T/out" &&
	pass || fail "throttled B, --wall: exit $rc: $(cat "$T/out")"
judge=$BENCH

# A --dir whose parents do not exist yet (a fresh $XDG_CACHE_HOME) is made.
"$BENCH" ab --size 1M --dir "$T/new/cache/copybench" --strategy readwrite --rounds 12 \
	--threshold 100% "$BENCH" "$BENCH" >"$T/out" 2>&1
rc=$?
{ [ $rc -eq 0 ] || [ $rc -eq 3 ]; } && [ -e "$T/new/cache/copybench/random-1048576-s1.dat" ] &&
	pass || fail "--dir with missing parents: exit $rc: $(cat "$T/out")"

# Every pair by new workers, ready before the clock: B's wrapper counts its
# starts (the first worker, which probes, then one for each pair made: the
# warm-up round's, the measured ones and those made again).
printf '#!/bin/sh\n[ "$1" = copy ] && echo "$$" >>"%s"\nexec "%s" "$@"\n' "$T/starts" "$BENCH" >"$T/count.sh"
chmod +x "$T/count.sh"
ab --strategy readwrite --rounds 12 --threshold 100% "$BENCH" "$T/count.sh"
rc=$?
rounds=$(awk '$1 == "readwrite" { print $2 }' "$T/out")
again=$(grep -Eo '[0-9]+ pairs made again' "$T/out" | grep -Eo '^[0-9]+')
{ [ $rc -eq 0 ] || [ $rc -eq 3 ]; } && [ -n "$rounds" ] &&
	[ "$(wc -l <"$T/starts")" -eq $((1 + 1 + rounds + ${again:-0})) ] &&
	pass || fail "workers per pair: exit $rc, $(wc -l <"$T/starts") B workers for $rounds rounds, ${again:-?} again: $(cat "$T/out")"

# B whose worker lies about its time: the verdict is this bench's clock's
# (the lie of 3x would be a regression at 100 %), and the disagreement is
# said for B alone.
printf '#!/bin/sh\nCOPYBENCH_TEST_WORKER_TIME_SCALE=3 exec "%s" "$@"\n' "$BENCH" >"$T/liar.sh"
chmod +x "$T/liar.sh"
ab --strategy readwrite --rounds 12 --threshold 100% "$BENCH" "$T/liar.sh"
rc=$?
{ [ $rc -eq 0 ] || [ $rc -eq 3 ]; } && pass || fail "B that lies: exit $rc, expected 0 or 3: $(cat "$T/out")"
grep -Eq "^bench ab: disagreement: readwrite: B's own figures disagree with this bench's clock in [0-9]+ of [0-9]+ copies \(median own/outside [0-9.]+; tolerance: not above it, below it by at most a quarter or 1 ms\); the verdict uses this bench's clock$" "$T/out" &&
	pass || fail "B that lies, disagreement not said: $(cat "$T/out")"
printf '#!/bin/sh\nCOPYBENCH_TEST_WORKER_TIME_SCALE=0.5 exec "%s" "$@"\n' "$BENCH" >"$T/half.sh"
chmod +x "$T/half.sh"
"$BENCH" ab --size 16M --dir "$T/data16" --strategy readwrite --rounds 12 --threshold 100% \
	"$BENCH" "$T/half.sh" >"$T/out" 2>&1
grep -Eq "^bench ab: disagreement: readwrite: B's own figures disagree .* \(median own/outside 0\.[0-9]+;" "$T/out" &&
	pass || fail "B that says half its time, disagreement not said: $(cat "$T/out")"
# A is honest: at 16M (copies of a few ms) its trips stay inside the tolerance.
grep -q "A's own figures disagree" "$T/out" && fail "A's honest figures called a disagreement: $(cat "$T/out")" || pass
rm -rf "$T/data16"

# B as a build whose readwrite is another strategy: its worker's requests
# rewritten on their way in, served by bench_fixtures, which has the
# fixture named.
as_b() {	# as_b FIXTURE SCRIPT
	printf '#!/bin/sh\n[ "$1" = --version ] && exec "%s" --version\nsed -u "s/^copy\treadwrite\t/copy\t%s\t/" | exec "%s" "$@"\n' \
		"$BENCH_FIXTURES" "$1" "$BENCH_FIXTURES" >"$2"
	chmod +x "$2"
}
as_b corrupt "$T/corrupt.sh"
ab --strategy readwrite --rounds 12 "$BENCH" "$T/corrupt.sh"
rc=$?
[ $rc -eq 1 ] && pass || fail "corrupt B: exit $rc, expected 1: $(cat "$T/out")"
grep -q "^bench ab: readwrite failed in B (.*corrupt.sh): verification failed: output hash [0-9a-f]* differs from the source's [0-9a-f]*$" "$T/out" &&
	pass || fail "corrupt B not named: $(cat "$T/out")"
# Each worker probes each case's strategy once, before any copy: a B whose
# probe fails (its request rewritten to a strategy it lacks) fails the case
# without a copy.
printf '#!/bin/sh\n[ "$1" = --version ] && exec "%s" --version\nsed -u "s/^probe\treadwrite\t/probe\tnosuch\t/" | exec "%s" "$@"\n' \
	"$BENCH" "$BENCH" >"$T/noprobe.sh"
chmod +x "$T/noprobe.sh"
ab --strategy readwrite --rounds 12 "$BENCH" "$T/noprobe.sh"
rc=$?
[ $rc -eq 1 ] && grep -q '^bench ab: readwrite failed in B (.*noprobe.sh): readwrite is unavailable: unknown strategy nosuch in this build$' "$T/out" &&
	grep -Eq '^readwrite +0 ' "$T/out" &&
	pass || fail "B whose probe fails: exit $rc, expected 1: $(cat "$T/out")"
as_b holes "$T/holes.sh"
ab --strategy readwrite --rounds 12 --dataset zero "$BENCH" "$T/holes.sh"
rc=$?
[ $rc -eq 1 ] && grep -q '^bench ab: readwrite failed in B (.*holes.sh): verification failed: the output has 65536 bytes in holes (a copy must write every byte)$' "$T/out" &&
	pass || fail "B that writes holes on zero data: exit $rc, expected 1: $(cat "$T/out")"

# B whose worker never answers a copy of sendfile (the wrapper stops
# itself): after the reply deadline (the test hook's 2 s) that worker is
# killed and the case fails in B; a new worker serves the other case, which
# is judged; nothing of B is left running.
cat >"$T/hang.sh" <<EOF
#!/usr/bin/env bash
[ "\$1" = --version ] && exec "$BENCH" --version
coproc W { exec "$BENCH" "\$@"; }
while IFS= read -r line; do
	case "\$line" in copy\$'\\t'sendfile\$'\\t'*) kill -STOP \$\$ ;; esac
	printf '%s\\n' "\$line" >&"\${W[1]}"
	IFS= read -r reply <&"\${W[0]}"
	printf '%s\\n' "\$reply"
done
EOF
chmod +x "$T/hang.sh"
COPYBENCH_TEST_AB_REPLY_MS=2000 ab --strategy readwrite,sendfile --rounds 14 --threshold 100% "$BENCH" "$T/hang.sh"
rc=$?
[ $rc -eq 1 ] && grep -q '^bench ab: sendfile failed in B (.*hang.sh): its worker (copy --serve) sent no reply in 2 s and was stopped$' "$T/out" &&
	grep -Eq '^readwrite +(14|28|56|112|224|448) .* (ok|slower|faster)$' "$T/out" &&
	pass || fail "B whose worker hangs: exit $rc, expected 1: $(cat "$T/out")"
left=$(pgrep -f "$T/hang.sh")
[ -z "$left" ] && pass || fail "B's hung worker left running: $(ps -o pid,stat,args -p "$left")"

# A state the machine cannot give (a cold source on tmpfs, which cannot
# evict) is neither side's failure: not judged, exit 2, never B's
# regression; the pair was tried again first. Where /dev/shm is a tmpfs.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && shm=$(mktemp -d /dev/shm/copybench-ab-XXXXXX); then
	"$BENCH" ab --size 1M --dir "$shm" --cache cold --warmup 0 --strategy readwrite --rounds 12 \
		"$BENCH" "$BENCH" >"$T/out" 2>&1
	rc=$?
	rm -rf "$shm"
	[ $rc -eq 2 ] && grep -q '^bench ab: readwrite failed in the set-up, not A or B: cannot make the source cold (100% resident)$' "$T/out" &&
		grep -q '; 1 pairs made again (disturbed); not judged; exit 2$' "$T/out" &&
		pass || fail "cold source on tmpfs: exit $rc, expected 2: $(cat "$T/out")"
else
	echo "ab_end_to_end: no tmpfs at /dev/shm: the set-up failure is not checked"
fi

ab --strategy readwrite --rounds 12 "$T/nonexistent" "$BENCH"
rc=$?
[ $rc -eq 2 ] && pass || fail "missing A: exit $rc, expected 2: $(cat "$T/out")"
# A and B are checked before any data is made: one line, no dataset
[ "$(cat "$T/out")" = "bench ab: A '$T/nonexistent': No such file or directory" ] &&
	pass || fail "missing A not named: $(cat "$T/out")"
printf 'not a program\n' >"$T/text"
chmod +x "$T/text"
rm -rf "$T/data"
ab --strategy readwrite --rounds 10 "$BENCH" "$T/text"
rc=$?
[ $rc -eq 2 ] && [ "$(cat "$T/out")" = "bench ab: B '$T/text': '$T/text --version' failed: not a bench executable" ] &&
	pass || fail "B not a bench: exit $rc: $(cat "$T/out")"
[ ! -e "$T/data" ] && pass || fail "B not a bench: a dataset was made: $(ls "$T/data")"

ab --strategy readwrite,sendfile --rounds 8 "$BENCH" "$BENCH"
rc=$?
[ $rc -eq 2 ] && pass || fail "8 rounds over 2 cases: exit $rc, expected 2"
grep -q '^bench ab: with 8 rounds no case can be judged: 2 cases at alpha 0.01 over 6 looks need at least 12 rounds each' "$T/out" &&
	[ "$(wc -l <"$T/out")" -eq 1 ] && pass || fail "too few rounds: $(cat "$T/out")"

# A budget that ends before the first look (1000 rounds cannot run in 1 s:
# each is two copies, each after a syncfs): nothing decided, inconclusive, exit 3, never 0.
ab --strategy readwrite --rounds 1000 --max-time 1 --threshold 100% "$BENCH" "$BENCH"
rc=$?
[ $rc -eq 3 ] && grep -q 'looks made: 0, stopped by --max-time; .*; inconclusive; exit 3$' "$T/out" &&
	grep -Eq '^bench ab: inconclusive: readwrite: [0-9]+ rounds give no interval$' "$T/out" &&
	pass || fail "--max-time before the first look: exit $rc, expected 3: $(cat "$T/out")"

ab --rounds ten "$BENCH" "$BENCH"
[ $? -eq 2 ] && [ "$(wc -l <"$T/out")" -eq 1 ] && pass || fail "bad --rounds: $(cat "$T/out")"

finish
