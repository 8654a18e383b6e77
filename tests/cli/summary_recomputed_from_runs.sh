#!/usr/bin/env bash
# summary_recomputed_from_runs.sh - every figure of summary.csv and of the
# JSON export recomputed from runs.csv of a real run by a reader of its own
# (awk, not the harness's statistics): runs, retried_runs, counted_runs,
# median_ns, min_ns, max_ns, mean_ns, stddev_ns, cv, mb_per_s,
# ratio_to_fastest, and the two-mode columns by the rule results/README.md
# states (modes, mode_fast_ns, mode_slow_ns, mode_fast_runs, mode_slow_runs),
# and the outliers (runs.csv's outlier flag of every run and outlier_runs:
# counted runs only, over 3.5 x 1.4826 MAD from the median; a retried run
# never is one) and a tree's files_per_s (files / median; empty for the other
# workloads); then the invariants every row must keep: min <= median <= max, a
# ranked row's ratio >= 1 with exactly one 1.000 per group, and no run using
# more CPU time than its wall time on all the machine's CPUs.
#
# A few runs are marked disturbed by the test hook (COPYBENCH_TEST_DISTURB)
# so that retried rows are there to be left out on every machine, and the
# fixture throttled (bench_fixtures, which runs these invocations) sleeps
# 20 ms in every other one of its copies (COPYBENCH_THROTTLE_EVERY_OTHER_MS),
# so that its row may have two modes (its warm-up, counting run and retries
# decide which of its runs those are); a second invocation runs it alone,
# where they alternate.
. "$(dirname "$0")/../support/lib.sh"
need_fixtures
command -v jq >/dev/null || skip "jq is not installed (Debian: jq)"
D=$T/d
R=$T/r
NCPU=$(getconf _NPROCESSORS_ONLN)

COPYBENCH_TEST_DISTURB=25 COPYBENCH_THROTTLE_EVERY_OTHER_MS=20 run "$BENCH_FIXTURES" --workload copy \
	--strategy readwrite,mmap,sendfile,stdio,throttled --size 1M --repeat 8 --syscalls off --dir "$D" --out "$R" --quiet --export-json "$T/e.json"
expect_eq run_rc "$RC" 0

# csv.awk: split(line) into F[1..NF] honouring RFC 4180 quotes (mawk has no FPAT);
# the header line read into H[1..n] and col[name], for the program after it.
cat >"$T/csv.awk" <<'EOF'
FNR == 1 { n = csvsplit($0, H); for (i = 1; i <= n; i++) col[H[i]] = i; next }
# a row's identifying columns (F split by csvsplit) as one key
function casekey(F) {
	return F[col["workload"]] "/" F[col["strategy"]] "/" F[col["dataset"]] "/" \
	       F[col["size_bytes"]] "/" F[col["buffer_bytes"]] "/" F[col["cache"]] "/" \
	       F[col["batch_lines"]] "/" F[col["part_size"]] "/" F[col["fsync"]] "/" F[col["fs_type"]]
}
function csvsplit(line, F,    n, i, c, q, cur) {
	n = 0; cur = ""; q = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
			else if (c == "\"") q = 0
			else cur = cur c
		} else if (c == "\"") q = 1
		else if (c == ",") { F[++n] = cur; cur = "" }
		else cur = cur c
	}
	F[++n] = cur
	return n
}
function sortn(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
# median and standard deviation of the sorted a[lo..hi]
function medof(a, lo, hi,    n) {
	n = hi - lo + 1
	return n % 2 ? a[lo + (n - 1) / 2] : (a[lo + n / 2 - 1] + a[lo + n / 2]) / 2
}
function sdof(a, lo, hi,    i, m, q) {
	if (hi <= lo) return 0
	m = 0; for (i = lo; i <= hi; i++) m += a[i]
	m /= hi - lo + 1
	q = 0; for (i = lo; i <= hi; i++) q += (a[i] - m) * (a[i] - m)
	return sqrt(q / (hi - lo))
}
# The two-mode rule (results/README.md) on the sorted a[1..n]: the widest gap
# leaving max(3, 20 %) runs a side, >= 10 % of the fast side's median and
# > 3 standard deviations of the wider side. "modes=... mode_fast_ns=..." text.
function modes(a, n,    need, k, best, gap, sp, s2) {
	need = 0.2 * n; if (need > int(need) + 1e-9) need = int(need) + 1; else need = int(need)
	if (need < 3) need = 3
	best = 0; gap = -1
	for (k = need; k + need <= n; k++)
		if (a[k + 1] - a[k] > gap) { gap = a[k + 1] - a[k]; best = k }
	if (best) {
		sp = sdof(a, 1, best); s2 = sdof(a, best + 1, n); if (s2 > sp) sp = s2
		if (gap >= 0.10 * medof(a, 1, best) && gap > 3 * sp)
			return sprintf("modes=2 mode_fast_ns=%.1f mode_slow_ns=%.1f mode_fast_runs=%d mode_slow_runs=%d", \
				       medof(a, 1, best), medof(a, best + 1, n), best, n - best)
	}
	return "modes=" (n ? 1 : "") " mode_fast_ns= mode_slow_ns= mode_fast_runs= mode_slow_runs="
}
EOF

# The recomputed figures, one line per case: key, then name=value pairs.
cat >"$T/recompute.awk" <<'EOF'
{
	csvsplit($0, F)
	key = casekey(F)
	if (!(key in runs)) {
		keys[++nkeys] = key; size[key] = F[col["size_bytes"]]; files[key] = F[col["files"]] + 0
	}
	runs[key]++
	retried[key] += F[col["retried"]]
	if (F[col["verified"]] == 1 && F[col["retried"]] == 0)
		wall[key, ++counted[key]] = F[col["wall_ns"]] + 0
	# every run, for its outlier flag
	rkey[FNR] = key; rwall[FNR] = F[col["wall_ns"]] + 0; rflag[FNR] = F[col["outlier"]]
	rcounted[FNR] = F[col["verified"]] == 1 && F[col["retried"]] == 0; nrows = FNR
}
END {
	for (k = 1; k <= nkeys; k++) {
		key = keys[k]; n = counted[key]
		for (i = 1; i <= n; i++) a[i] = wall[key, i]
		sortn(a, n)
		med = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		sum = 0; for (i = 1; i <= n; i++) sum += a[i]
		mean = sum / n
		sq = 0; for (i = 1; i <= n; i++) sq += (a[i] - mean) ^ 2
		sd = n > 1 ? sqrt(sq / (n - 1)) : 0
		for (i = 1; i <= n; i++) d[i] = a[i] > med ? a[i] - med : med - a[i]
		sortn(d, n)
		scale[key] = 1.4826 * (n % 2 ? d[(n + 1) / 2] : (d[n / 2] + d[n / 2 + 1]) / 2)
		median[key] = med
		nout = 0
		for (i = 1; i <= n; i++) {
			x = a[i] > med ? a[i] - med : med - a[i]
			nout += scale[key] > 0 && x > 3.5 * scale[key]
		}
		fps = files[key] ? sprintf("%.4f", files[key] / (med / 1e9)) : ""
		printf "%s runs=%d retried_runs=%d counted_runs=%d median_ns=%.1f min_ns=%.0f max_ns=%.0f mean_ns=%.3f stddev_ns=%.3f cv=%.6f mb_per_s=%.4f outlier_runs=%d files_per_s=%s %s\n", \
		       key, runs[key], retried[key], n, med, a[1], a[n], mean, sd, sd / mean, \
		       size[key] / 1048576 / (med / 1e9), nout, fps, modes(a, n)
	}
	# runs whose outlier flag is not the rule's, to stderr
	for (r = 2; r <= nrows; r++) {
		key = rkey[r]; x = rwall[r] > median[key] ? rwall[r] - median[key] : median[key] - rwall[r]
		want = rcounted[r] && scale[key] > 0 && x > 3.5 * scale[key]
		if (rflag[r] != want)
			printf "%s: runs.csv line %d: outlier %s, the rule says %d\n", key, r, rflag[r], want >"/dev/stderr"
	}
}
EOF
awk -f "$T/csv.awk" -f "$T/recompute.awk" "$R/runs.csv" >"$T/mine" 2>"$T/outlier_flags"
expect_eq outlier_flags_recomputed "$(cat "$T/outlier_flags")" ""

# The same figures as summary.csv publishes them, with class and ratio.
cat >"$T/published.awk" <<'EOF'
{
	csvsplit($0, F)
	key = casekey(F)
	printf "%s", key
	for (i = 1; i <= n; i++)
		if (H[i] ~ /^(runs|retried_runs|counted_runs|outlier_runs|files_per_s|median_ns|min_ns|max_ns|mean_ns|stddev_ns|cv|mb_per_s|ratio_to_fastest|class|status|modes|mode_fast_ns|mode_slow_ns|mode_fast_runs|mode_slow_runs)$/)
			printf " %s=%s", H[i], F[i]
	printf "\n"
}
EOF
awk -f "$T/csv.awk" -f "$T/published.awk" "$R/summary.csv" >"$T/published"
expect_eq cases_alike "$(cut -d' ' -f1 "$T/mine" | sort)" "$(cut -d' ' -f1 "$T/published" | sort)"
expect_eq retried_rows_present "$(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^retried_runs=/) s += substr($i, 14) } END { print (s > 0) }' "$T/mine")" 1

# pairs.awk: val(line, name): the value of name=value on a line "key
# name=value ...", or MISSING when the line has no such pair.
cat >"$T/pairs.awk" <<'EOF'
function val(line, name,    i, m, p) {
	m = split(line, p, " ")
	for (i = 2; i <= m; i++)
		if (index(p[i], name "=") == 1) return substr(p[i], length(name) + 2)
	return "MISSING"
}
EOF

# compare.awk: mine (file 1) against published (file 2), with each figure's
# printed precision as the tolerance (plus my own rounding: a half-way value
# such as cv 1.537250 is published as 1.5373); ratio_to_fastest recomputed from my
# medians over the rows of the same class in the same group.
cat >"$T/compare.awk" <<'EOF'
function group(key,    p) {	# all but strategy and buffer: workload dataset size cache batch part fsync fs
	split(key, p, "/")
	return p[1] "/" p[3] "/" p[4] "/" p[6] "/" p[7] "/" p[8] "/" p[9] "/" p[10]
}
function off(name, got, want, tol) {
	if (got == "MISSING" || got == "" || (got - want > tol || want - got > tol))
		printf "%s %s: published %s, recomputed %s\n", key, name, got, want
}
function off_or_empty(name, got, want, tol) {	# both empty, or off() by tol
	if (got == "" && want == "") return
	off(name, got, want, tol)
}
FNR == NR { mine[$1] = $0; next }
{ pub[$1] = $0; order[++n] = $1 }
END {
	for (k = 1; k <= n; k++) {
		key = order[k]; line = pub[key]
		if (val(line, "status") != "ok") continue
		g = group(key) "/" val(line, "class"); med = val(mine[key], "median_ns") + 0
		if (!(g in pace) || med < pace[g]) pace[g] = med
	}
	for (k = 1; k <= n; k++) {
		key = order[k]; line = pub[key]; m = mine[key]
		if (!(key in mine)) { print key ": no runs"; continue }
		off("runs", val(line, "runs"), val(m, "runs"), 0)
		off("retried_runs", val(line, "retried_runs"), val(m, "retried_runs"), 0)
		off("counted_runs", val(line, "counted_runs"), val(m, "counted_runs"), 0)
		off("outlier_runs", val(line, "outlier_runs"), val(m, "outlier_runs"), 0)
		off("median_ns", val(line, "median_ns"), val(m, "median_ns"), 0.5)
		off("min_ns", val(line, "min_ns"), val(m, "min_ns"), 0)
		off("max_ns", val(line, "max_ns"), val(m, "max_ns"), 0)
		off("mean_ns", val(line, "mean_ns"), val(m, "mean_ns"), 0.5)
		off("stddev_ns", val(line, "stddev_ns"), val(m, "stddev_ns"), 0.5)
		off("cv", val(line, "cv"), val(m, "cv"), 0.0000505)
		off("mb_per_s", val(line, "mb_per_s"), val(m, "mb_per_s"), 0.05005)
		off_or_empty("files_per_s", val(line, "files_per_s"), val(m, "files_per_s"), 0.05005)
		off("modes", val(line, "modes"), val(m, "modes"), 0)
		off_or_empty("mode_fast_ns", val(line, "mode_fast_ns"), val(m, "mode_fast_ns"), 0.5)
		off_or_empty("mode_slow_ns", val(line, "mode_slow_ns"), val(m, "mode_slow_ns"), 0.5)
		off_or_empty("mode_fast_runs", val(line, "mode_fast_runs"), val(m, "mode_fast_runs"), 0)
		off_or_empty("mode_slow_runs", val(line, "mode_slow_runs"), val(m, "mode_slow_runs"), 0)
		cls = val(line, "class")
		if (cls == "page-cache" || cls == "limit")
			off("ratio_to_fastest", val(line, "ratio_to_fastest"),
			    val(m, "median_ns") / pace[group(key) "/" cls], 0.0005)
		else if (val(line, "ratio_to_fastest") != "")
			printf "%s: class %s is not ranked but has a ratio\n", key, cls
	}
}
EOF
expect_eq summary_csv_recomputed "$(awk -f "$T/pairs.awk" -f "$T/compare.awk" "$T/mine" "$T/published")" ""

# The JSON export's cases, as the same lines (jq reads it; the figures are
# the summary's, checked against my recomputation the same way).
jq -r '.fs_type as $fs | .cases[] |
	"\(.workload)/\(.strategy)/\(.dataset)/\(.size_bytes)/\(.buffer_bytes)/\(.cache)/\(.batch_lines)/\(.part_size)/\(.fsync)/\($fs)" +
	" runs=\(.runs | length) retried_runs=\(.retried_runs) counted_runs=\(.counted_runs)" +
	" outlier_runs=\(.outlier_runs) files_per_s=\(.files_per_s // "")" +
	" median_ns=\(.median_ns) min_ns=\(.min_ns) max_ns=\(.max_ns) mean_ns=\(.mean_ns)" +
	" stddev_ns=\(.stddev_ns) cv=\(.cv) mb_per_s=\(.mb_per_s)" +
	" ratio_to_fastest=\(.ratio_to_fastest // "") class=\(.class) status=\(.status)" +
	" modes=\(.modes // "") mode_fast_ns=\(.mode_fast_ns // "") mode_slow_ns=\(.mode_slow_ns // "")" +
	" mode_fast_runs=\(.mode_fast_runs // "") mode_slow_runs=\(.mode_slow_runs // "")"' \
	"$T/e.json" >"$T/json"
expect_eq json_recomputed "$(awk -f "$T/pairs.awk" -f "$T/compare.awk" "$T/mine" "$T/json")" ""

# A second invocation of throttled alone (no limit rows, 50 ms sleeps): its
# runs alternate (seq 1, 2, ...), so its row has two modes for sure, and the
# rule is checked on them too. COPYBENCH_TEST_STEAL=0: no run is disturbed
# whatever the machine does (disturb.h), so no mode is rerun away.
COPYBENCH_TEST_STEAL=0 COPYBENCH_THROTTLE_EVERY_OTHER_MS=50 run "$BENCH_FIXTURES" --workload copy --strategy throttled --size 1M \
	--repeat 8 --syscalls off --no-limits --dir "$T/d2" --out "$T/r2" --quiet
expect_eq run2_rc "$RC" 0
awk -f "$T/csv.awk" -f "$T/recompute.awk" "$T/r2/runs.csv" >"$T/mine2" 2>"$T/outlier_flags2"
expect_eq outlier_flags2_recomputed "$(cat "$T/outlier_flags2")" ""
awk -f "$T/csv.awk" -f "$T/published.awk" "$T/r2/summary.csv" >"$T/published2"
expect_eq two_modes_recomputed "$(grep -c ' modes=2 ' "$T/mine2")" 1
expect_eq two_modes_published "$(awk -f "$T/pairs.awk" -f "$T/compare.awk" "$T/mine2" "$T/published2")" ""

# A tree (20 files of 4 KiB), whose rows have files_per_s: the same
# figures recomputed from its runs.
run "$BENCH" --workload tree --files 20 --size 4K --strategy readwrite,mmap --repeat 5 --syscalls off \
	--no-limits --dir "$T/d3" --out "$T/r3" --quiet
expect_eq run3_rc "$RC" 0
awk -f "$T/csv.awk" -f "$T/recompute.awk" "$T/r3/runs.csv" >"$T/mine3" 2>"$T/outlier_flags3"
awk -f "$T/csv.awk" -f "$T/published.awk" "$T/r3/summary.csv" >"$T/published3"
expect_eq tree_rows "$(grep -c '^tree/.* files_per_s=[0-9]' "$T/mine3")" 2
expect_eq tree_outlier_flags_recomputed "$(cat "$T/outlier_flags3")" ""
expect_eq tree_recomputed "$(awk -f "$T/pairs.awk" -f "$T/compare.awk" "$T/mine3" "$T/published3")" ""

# Invariants of every row.
cat >"$T/invariants.awk" <<'EOF'
{
	lo = val($0, "min_ns"); md = val($0, "median_ns"); hi = val($0, "max_ns")
	if (!(lo + 0 <= md + 0 && md + 0 <= hi + 0)) print $1 ": not min <= median <= max"
	r = val($0, "ratio_to_fastest")
	if (r != "") {
		if (r + 0 < 1) print $1 ": ratio_to_fastest " r " < 1"
		split($1, p, "/"); g = p[1] "/" p[3] "/" p[4] "/" p[6] "/" p[8] "/" val($0, "class")
		ones[g] += (r == "1.000"); groups[g] = 1
	}
}
END { for (g in groups) if (ones[g] != 1) print g ": " ones[g] " rows at 1.000" }
EOF
expect_eq row_invariants "$(awk -f "$T/pairs.awk" -f "$T/invariants.awk" "$T/published")" ""

# CPU inside the clock: user + sys <= wall on every CPU of the machine
# (1 ms for the accounting's granularity). Rows with threads of their own
# (memcpy-mt, parallel, io_uring's workers, the transform's two processes)
# get a scheduler tick per CPU more: another running thread's time reaches
# the process's total only at a tick (seen: memcpy-mt 1.4 ms in a 44 us clock).
cat >"$T/cpu.awk" <<'EOF'
{
	csvsplit($0, F)
	cpu = F[col["user_ns"]] + F[col["sys_ns"]]; wall = F[col["wall_ns"]]
	s = F[col["strategy"]]
	slack = 1000000
	if (s == "memcpy-mt" || s == "parallel" || s == "io_uring" || F[col["workload"]] == "transform")
		slack += 10000000 * ncpu
	if (cpu > wall * ncpu + slack)
		printf "%s rep %s: cpu %.0f ns > wall %.0f ns x %d CPUs\n", F[col["strategy"]], F[col["rep"]], cpu, wall, ncpu
}
EOF
expect_eq cpu_within_wall "$(awk -v ncpu="$NCPU" -f "$T/csv.awk" -f "$T/cpu.awk" "$R/runs.csv")" ""

finish
