// SPDX-License-Identifier: MIT
/*
 * check_verdicts.c - `bench check` and `bench baseline save` on synthetic
 * results folders: regressions are named, noise is not, a machine that got
 * slower as a whole (memcpy included) is not a regression in relative mode
 * but every copy slower together without memcpy is, syscall changes are
 * exact, missing cases and malformed files are bad input, and the csv, json
 * and markdown reports are well formed.
 */
#include "check/check.h"
#include "cli/commands.h"
#include "lib/csv.h"
#include "support/testutil.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NCASES 4	/* three copy strategies and the memcpy reference */
#define NCASES_MAX 7	/* and three more copy strategies (gate tests) */

static const char *const strat[NCASES_MAX] = { "readwrite", "sendfile", "copy_file_range",
	"memcpy", "splice", "stdio", "io_uring" };
static const double base_ns[NCASES_MAX] = { 1.0e6, 0.8e6, 0.7e6, 0.1e6, 0.75e6, 1.1e6, 0.9e6 };

struct synth {
	unsigned reps;
	uint64_t seed;
	int ncases;		/* NCASES, or up to NCASES_MAX */
	double factor[NCASES_MAX];	/* the code under test got slower */
	const char *status[NCASES_MAX];	/* summary.csv's status; NULL: none written */
	int uncounted;		/* case without syscall counts, or -1 */
	double machine;		/* the whole machine got slower */
	double noise;		/* per run, shared by all cases: +-noise */
	double jitter;		/* per measurement: +-jitter */
	int syscall_plus;	/* case whose read count grows by 1, or -1 */
	int drop;		/* case left out, or -1 */
	int bimodal;		/* case whose odd reps run 1.4x slower, or -1 */
	unsigned slow_runs;	/* then: its first slow_runs reps instead, when > 0 */
	int wide;		/* case whose measurements vary by +-wide_jitter, or -1 */
	double wide_jitter;
};

static uint64_t rng_state;

static double uniform(void)	/* [-1, 1) */
{
	return test_uniform(&rng_state);
}

static struct synth synth_default(uint64_t seed)
{
	struct synth s = { .reps = 10, .seed = seed, .ncases = NCASES, .machine = 1, .noise = 0.1,
			   .jitter = 0.01, .syscall_plus = -1, .drop = -1, .uncounted = -1,
			   .bimodal = -1, .wide = -1 };

	for (int i = 0; i < NCASES_MAX; i++)
		s.factor[i] = 1;
	return s;
}

static void write_ids(struct csv_writer *w, int c)
{
	test_synth_ids(w, strat[c], c == 3);
}

static void write_header(struct csv_writer *w, const char *const *extra)
{
	static const char *const ids[] = { "workload", "strategy", "dataset",
		"size_bytes", "buffer_bytes", "cache", "batch_lines", "part_size", "fsync" };

	for (size_t i = 0; i < 9; i++)
		csv_str(w, ids[i]);
	for (; *extra; extra++)
		csv_str(w, *extra);
	csv_end_row(w);
}

static void write_syscalls(const char *dir, const struct synth *s)
{
	static const char *const extra[] = { "syscall", "count", "method", NULL };
	struct csv_writer w;
	char path[600];

	snprintf(path, sizeof(path), "%s/syscalls.csv", dir);
	CHECK(csv_open(&w, path) == 0);
	write_header(&w, extra);
	for (int c = 0; c < s->ncases; c++) {
		uint64_t rd = 9 + (uint64_t)c + (c == s->syscall_plus);

		if (c == s->drop || c == s->uncounted)
			continue;
		write_ids(&w, c);
		csv_str(&w, "read");
		csv_u64(&w, rd);
		csv_str(&w, "perf");
		csv_end_row(&w);
		write_ids(&w, c);
		csv_str(&w, "total");
		csv_u64(&w, rd + 12);
		csv_str(&w, "perf");
		csv_end_row(&w);
	}
	CHECK(csv_commit(&w) == 0);
}

/* summary.csv with each case's status, when the synth gives any. */
static void write_status(const char *dir, const struct synth *s)
{
	static const char *const extra[] = { "status", NULL };
	struct csv_writer w;
	char path[600];
	bool any = false;

	for (int c = 0; c < s->ncases; c++)
		any |= s->status[c] != NULL;
	if (!any)
		return;
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	CHECK(csv_open(&w, path) == 0);
	write_header(&w, extra);
	for (int c = 0; c < s->ncases; c++) {
		write_ids(&w, c);
		csv_str(&w, s->status[c] ? s->status[c] : "ok");
		csv_end_row(&w);
	}
	CHECK(csv_commit(&w) == 0);
}

#define DIR_LEN 512	/* a results folder's path */

/* A results folder under the test's temporary directory, as a static
 * buffer the next call writes over. */
static const char *synth_write(const char *name, const struct synth *s)
{
	static const char *const extra[] = { "rep", "wall_ns", "verified", "syscalls", NULL };
	static char dir[DIR_LEN];
	struct csv_writer w;
	char path[600];

	snprintf(dir, sizeof(dir), "%s/%s", test_tmpdir(), name);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/runs.csv", dir);
	CHECK(csv_open(&w, path) == 0);
	write_header(&w, extra);
	rng_state = s->seed * 0x9E3779B97F4A7C15ULL + 1;
	for (unsigned r = 1; r <= s->reps; r++) {
		double m = s->machine * (1 + s->noise * uniform());

		for (int c = 0; c < s->ncases; c++) {
			double j = c == s->wide ? s->wide_jitter : s->jitter;
			double t = base_ns[c] * s->factor[c] * m * (1 + j * uniform());

			if (c == s->bimodal && (s->slow_runs ? r <= s->slow_runs : r % 2))
				t *= 1.4;

			if (c == s->drop || (s->status[c] && s->reps == 0))
				continue;
			write_ids(&w, c);
			csv_u64(&w, r);
			csv_dbl(&w, t, 0);
			csv_u64(&w, 1);
			if (c == s->uncounted)
				csv_str(&w, "");
			else
				csv_u64(&w, 21 + (uint64_t)c + (c == s->syscall_plus));
			csv_end_row(&w);
		}
	}
	CHECK(csv_commit(&w) == 0);
	write_syscalls(dir, s);
	write_status(dir, s);
	return dir;
}

/* synth_write's folder, copied into dir: kept across later writes. */
static void synth_keep(char dir[DIR_LEN], const char *name, const struct synth *s)
{
	snprintf(dir, DIR_LEN, "%s", synth_write(name, s));
}

/* The default synthetic run of seed with all NCASES_MAX cases. */
static struct synth all_cases(uint64_t seed)
{
	struct synth s = synth_default(seed);

	s.ncases = NCASES_MAX;
	return s;
}

/* The quiet baseline (seed 4, the machine +-1% from run to run) as name. */
static void quiet_base(char dir[DIR_LEN], const char *name)
{
	struct synth q = synth_default(4);

	q.noise = 0.01;
	synth_keep(dir, name, &q);
}

/* ------------------------------------------------------- running -- */

static char out_buf[65536], err_buf[8192];

/* Runs the command (check or baseline) with NULL-terminated arguments. */
static int run(int (*cli)(int, char **, FILE *, FILE *), ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;

	va_start(ap, cli);
	while (argc < 31 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	return test_cli_capture(cli, argc, argv, out_buf, sizeof(out_buf), err_buf, sizeof(err_buf));
}

#define CHECK_CMD(...) run(check_cli, "check", __VA_ARGS__, (char *)NULL)

/* The verdict of a strategy's case in a --format csv report. */
static const char *verdict_of(const char *strategy)
{
	static char v[64];

	return test_csv_lookup(out_buf, "strategy", strategy, "verdict", v, sizeof(v));
}

/* A column of a strategy's case in a --format csv report, as a number. */
static double column_of(const char *strategy, const char *column)
{
	char v[64];

	test_csv_lookup(out_buf, "strategy", strategy, column, v, sizeof(v));
	return v[0] && strcmp(v, "(unparseable)") ? strtod(v, NULL) : NAN;
}

static bool verdict_is(const char *strategy, const char *want)
{
	return strcmp(verdict_of(strategy), want) == 0;
}

/* bench check of cur against base, reported as csv; its exit status. */
static int check_csv(const char *base, const char *cur)
{
	return CHECK_CMD("--baseline", base, "--current", cur, "--format", "csv");
}

static bool all_verdicts_of(int ncases, const char *want, int skip)
{
	for (int c = 0; c < ncases; c++)
		if (c != skip && strcmp(verdict_of(strat[c]), want))
			return false;
	return true;
}

static bool all_verdicts(const char *want, int skip)
{
	return all_verdicts_of(NCASES, want, skip);
}

/* --------------------------------------------------------- cases -- */

/* Another sample of the same distribution (another seed): all ok. */
static void same_distribution(const char *base)
{
	struct synth s = synth_default(99);
	char copy[DIR_LEN];
	const char *cur;

	snprintf(copy, sizeof(copy), "%s", base);
	cur = synth_write("samedist", &s);
	CHECK(check_csv(copy, cur) == 0);
	CHECK(all_verdicts("ok", -1));
	CHECK(CHECK_CMD("--baseline", copy, "--current", cur) == 0);
	CHECK(strstr(out_buf, "4 cases: 4 ok") != NULL);
}

static void slower_30(const char *base)
{
	struct synth s = synth_default(2);
	const char *cur;

	s.factor[1] = 1.3;
	cur = synth_write("slower30", &s);
	CHECK(check_csv(base, cur) == 1);
	CHECK(verdict_is("sendfile", "regression"));
	CHECK(all_verdicts("ok", 1));
	/* the 30% as the change of the median, within the synthetic jitter */
	CHECK(fabs(column_of("sendfile", "change_pct") - 30) < 3);
	CHECK(CHECK_CMD("--baseline", base, "--current", cur) == 1);
	CHECK(strstr(out_buf, "copy/sendfile random 1M warm") != NULL);
	/* Above the threshold or not: 40% is asked for. */
	CHECK(CHECK_CMD("--baseline", base, "--current", cur, "--threshold", "40%", "--format", "csv") == 0);
	CHECK(verdict_is("sendfile", "slower"));
}

static void slower_5_and_faster(void)
{
	struct synth s = synth_default(3);
	char base[DIR_LEN];
	const char *cur;

	/* a 5% change is only significant on a quiet machine */
	quiet_base(base, "quietbase");
	s.noise = 0.01;
	s.factor[0] = 1.05;
	s.factor[2] = 0.8;
	cur = synth_write("slower5", &s);
	/* 5 % slower against a 5 % threshold: neither ruled in nor out */
	CHECK(check_csv(base, cur) == 3);
	CHECK(verdict_is("readwrite", "inconclusive"));
	CHECK(column_of("readwrite", "upper_pct") > 5);
	CHECK(verdict_is("copy_file_range", "faster"));
	CHECK(verdict_is("sendfile", "ok"));
	CHECK(CHECK_CMD("--baseline", base, "--current", cur) == 3);
	CHECK(strstr(out_buf, "\nbench check: inconclusive: copy/readwrite random 1M buf 128K warm: change +") != NULL);
	CHECK(strstr(out_buf, "; inconclusive; exit 3") != NULL);
	/* a threshold of 10 % the runs rule out: slower, but no regression */
	CHECK(CHECK_CMD("--baseline", base, "--current", cur, "--threshold", "10%", "--format", "csv") == 0);
	CHECK(verdict_is("readwrite", "slower"));
	CHECK(column_of("readwrite", "upper_pct") < 10);
}

/*
 * The same distribution on both sides, 20 seeds: the machine swings +-20%
 * from run to run (all cases of a run together, as on a shared runner) and
 * each measurement +-3% on its own: never a regression, in either mode.
 */
/* Regressions bench check finds between two samples of s at seed and at
 * seed + 1000, written as noise-TAGb<seed> and noise-TAGc<seed>: in
 * relative mode, and in absolute mode too when absolute. */
static int noise_regressions(struct synth s, uint64_t seed, const char *tag, bool absolute)
{
	char name[32], bdir[DIR_LEN];
	const char *c;
	int n = 0;

	s.seed = seed;
	snprintf(name, sizeof(name), "noise-%sb%llu", tag, (unsigned long long)seed);
	synth_keep(bdir, name, &s);
	s.seed = seed + 1000;
	snprintf(name, sizeof(name), "noise-%sc%llu", tag, (unsigned long long)seed);
	c = synth_write(name, &s);
	n += CHECK_CMD("--baseline", bdir, "--current", c) == 1;
	if (absolute)
		n += CHECK_CMD("--baseline", bdir, "--current", c, "--absolute") == 1;
	return n;
}

static void noise_is_quiet(void)
{
	int regressions = 0;

	for (uint64_t seed = 100; seed < 120; seed++) {
		struct synth s = synth_default(seed);

		s.noise = 0.2;
		s.jitter = 0.03;
		regressions += noise_regressions(s, seed, "", true);
		/* Each measurement +-20% on its own: Holm keeps it quiet. */
		s.jitter = 0.2;
		regressions += noise_regressions(s, seed, "j", false);
	}
	CHECK_EQ_U64(regressions, 0);
}

/* s, which changes copy_file_range's system calls, written as name and
 * checked against base: exit 1, that case's verdict want and the others
 * ok. The folder written. */
static const char *syscall_verdict(const char *base, const char *name, const struct synth *s,
				   const char *want)
{
	const char *cur = synth_write(name, s);

	CHECK(check_csv(base, cur) == 1);
	CHECK(verdict_is("copy_file_range", want));
	if (!verdict_is("copy_file_range", want))
		fprintf(stderr, "%s: copy_file_range is %s, expected %s\n", name,
			verdict_of("copy_file_range"), want);
	CHECK(all_verdicts("ok", 2));
	return cur;
}

static void syscalls_changed(const char *base)
{
	struct synth s = synth_default(4);
	const char *cur;

	s.syscall_plus = 2;
	cur = syscall_verdict(base, "sys", &s, "syscalls-changed");
	CHECK(strstr(out_buf, "total 23->24, read 11->12") != NULL);
	CHECK(CHECK_CMD("--baseline", base, "--current", cur, "--ignore-syscalls") == 0);
	CHECK(CHECK_CMD("--baseline", base, "--current", cur, "--only-syscalls") == 1);
	CHECK(strstr(out_buf, "syscalls-changed") != NULL);
}

static void missing_and_new(const char *base)
{
	struct synth s = synth_default(5);
	const char *cdir;

	s.drop = 0;
	cdir = synth_write("missing", &s);	/* the only folder it writes */
	CHECK(CHECK_CMD("--baseline", base, "--current", cdir) == 2);
	CHECK(strstr(err_buf, "copy/readwrite random 1M buf 128K warm") != NULL);
	CHECK(CHECK_CMD("--baseline", base, "--current", cdir, "--allow-missing", "--format", "csv") == 0);
	CHECK(verdict_is("readwrite", "missing"));
	CHECK(check_csv(cdir, base) == 0);
	CHECK(verdict_is("readwrite", "new"));
}

/* The machine got 25% slower, code included: relative mode sees no change
 * of any one case, but a change every case shares cannot be told from the
 * machine's: inconclusive (exit 3), never green. */
static void machine_slower(const char *base)
{
	struct synth s = synth_default(6);
	const char *cur;

	s.machine = 1.25;
	cur = synth_write("machine", &s);
	CHECK(check_csv(base, cur) == 3);
	CHECK(all_verdicts("ok", 3));
	CHECK(verdict_is("memcpy", "slower"));
	CHECK(CHECK_CMD("--baseline", base, "--current", cur) == 3);
	CHECK(strstr(out_buf, "memcpy itself +2") != NULL);
	CHECK(strstr(err_buf, "bench check: the machine changed: 3 of 3 copy cases") != NULL);
	CHECK(CHECK_CMD("--baseline", base, "--current", cur, "--absolute", "--format", "csv") == 1);
	CHECK(all_verdicts("regression", -1));
}

/*
 * Only the reference slowed down (a neighbour's memory traffic hit the
 * memcpy rows, not the copies): relative to it every copy looks faster or,
 * seen from the other side, slower; the plain times did not move, so no
 * case may be called a regression in either direction.
 */
static void reference_disturbed(const char *base)
{
	struct synth s = synth_default(7);
	const char *cur;

	s.factor[3] = 0.4;	/* the current run's memcpy 2.5x faster */
	cur = synth_write("refdisturbed", &s);
	CHECK(check_csv(base, cur) == 0);
	CHECK(!verdict_is("readwrite", "regression"));
	CHECK(!verdict_is("sendfile", "regression"));
	CHECK(!verdict_is("copy_file_range", "regression"));
	CHECK(verdict_is("readwrite", "slower"));
}

/*
 * A regression is slower beyond the threshold in plain time as well as
 * relative to the reference: readwrite 4% slower (under the 5% threshold)
 * while memcpy got 20% faster is 30% slower relative to it, yet not a
 * regression: `inconclusive`, since the evidence cannot clear it either.
 */
static void plain_change_below_threshold(void)
{
	struct synth s = synth_default(8);
	char base[DIR_LEN];

	quiet_base(base, "quietbase2");
	s.noise = 0.01;
	s.factor[0] = 1.04;
	s.factor[3] = 0.8;
	CHECK(CHECK_CMD("--baseline", base, "--current", synth_write("fastref", &s),
			"--format", "csv") >= 0);
	CHECK(verdict_is("readwrite", "inconclusive"));
	CHECK(fabs(column_of("readwrite", "change_pct") - 30) < 3);
}

/*
 * A case's threshold is NOISE_K times the robust spread of the noisier
 * side, the current one too: readwrite 1.2x slower with its current runs
 * spread +-40% (20 runs of this seed: +34 %, a robust spread of 21 %)
 * against a quiet baseline is significantly slower, but within 2 x 21 %:
 * not a regression, and too noisy to clear: `inconclusive`, exit 3.
 */
static void current_spread_widens_threshold(void)
{
	struct synth s = synth_default(9);
	char base[DIR_LEN];

	quiet_base(base, "quietbase3");
	s.noise = 0.01;
	s.reps = 20;
	s.factor[0] = 1.2;
	s.wide = 0;
	s.wide_jitter = 0.4;
	CHECK(CHECK_CMD("--baseline", base, "--current", synth_write("widecur", &s),
			"--format", "csv") == 3);
	CHECK(verdict_is("readwrite", "inconclusive"));
	CHECK(column_of("readwrite", "threshold_pct") > 40);
}

static void baseline_file(const char *base)
{
	char file[512], runs[600];
	struct synth s = synth_default(2);
	const char *cur;

	snprintf(file, sizeof(file), "%s/baseline.csv", test_tmpdir());
	CHECK(run(check_baseline_cli, "baseline", "save", base, file, (char *)NULL) == 0);
	CHECK(strstr(out_buf, "saved 4 cases (40 runs)") != NULL);
	CHECK(CHECK_CMD("--baseline", file, "--current", base) == 0);
	CHECK(strstr(out_buf, "4 cases: 4 ok") != NULL);
	s.factor[1] = 1.3;
	s.syscall_plus = 0;
	cur = synth_write("vsfile", &s);
	CHECK(check_csv(file, cur) == 1);
	CHECK(verdict_is("sendfile", "regression"));
	CHECK(verdict_is("readwrite", "syscalls-changed"));
	/* A runs.csv given as a file finds its syscalls.csv beside it. */
	snprintf(runs, sizeof(runs), "%s/runs.csv", base);
	CHECK(CHECK_CMD("--baseline", runs, "--current", file) == 0);
	/* A baseline saved from a baseline is the same file. */
	CHECK(run(check_baseline_cli, "baseline", "save", file, file, (char *)NULL) == 0);
	CHECK(check_csv(file, base) == 0);
	CHECK(all_verdicts("ok", -1));
	CHECK(run(check_baseline_cli, "baseline", "load", base, file, (char *)NULL) == 2);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void malformed(const char *base)
{
	char dir[DIR_LEN], path[600];

	snprintf(dir, sizeof(dir), "%s/bad", test_tmpdir());
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/runs.csv", dir);
	write_text(path, "workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,part_size,fsync,rep,wall_ns\n"
		   "copy,readwrite,random,1048576,131072,warm,0,0,0,1,\"1000\n");
	CHECK(CHECK_CMD("--baseline", base, "--current", dir) == 2);
	CHECK(strstr(err_buf, "unterminated quoted field") != NULL);
	write_text(path, "workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,part_size,fsync,rep,wall_ns\n"
		   "copy,readwrite,random,1048576,131072,warm,0,0,0,1,fast\n");
	CHECK(CHECK_CMD("--baseline", base, "--current", dir) == 2);
	CHECK(strstr(err_buf, "line 2") != NULL);
	write_text(path, "workload,strategy,rep,wall_ns\ncopy,readwrite,1,1000\n");
	CHECK(CHECK_CMD("--baseline", base, "--current", dir) == 2);
	CHECK(strstr(err_buf, "no column 'dataset'") != NULL);
	write_text(path, "a,b\n1,2\n");
	CHECK(CHECK_CMD("--baseline", path, "--current", base) == 2);
	CHECK(strstr(err_buf, "not a runs.csv") != NULL);
	snprintf(path, sizeof(path), "%s/nonexistent", test_tmpdir());
	CHECK(CHECK_CMD("--baseline", path, "--current", base) == 2);
	CHECK(strstr(err_buf, "nonexistent") != NULL);
}

static int count_lines(const char *err)
{
	int n = 0;

	for (; *err; err++)
		n += *err == '\n';
	return n;
}

static void bad_options(const char *base)
{
	CHECK(CHECK_CMD("--baseline", base, "--current", base, "--threshold", "ten") == 2);
	CHECK(count_lines(err_buf) == 1 && strstr(err_buf, "--threshold"));
	CHECK(CHECK_CMD("--baseline", base, "--current", base, "--alpha=2") == 2);
	CHECK(count_lines(err_buf) == 1 && strstr(err_buf, "--alpha"));
	CHECK(CHECK_CMD("--baseline", base, "--current", base, "--format", "xml") == 2);
	CHECK(count_lines(err_buf) == 1);
	CHECK(CHECK_CMD("--baseline", base, "--frobnicate") == 2);
	CHECK(count_lines(err_buf) == 1 && strstr(err_buf, "--frobnicate"));
	CHECK(CHECK_CMD("--baseline", base) == 2);
	CHECK(count_lines(err_buf) == 1);
	CHECK(CHECK_CMD("--baseline", base, "--current") == 2);
	CHECK(CHECK_CMD("--baseline", base, "--current", base, "--threshold=5") == 0);
	CHECK(CHECK_CMD("--help") == 0 && strstr(out_buf, "usage"));
}

static void alpha_unreachable(void)
{
	struct synth s = synth_default(7);
	char bdir[DIR_LEN];

	s.reps = 3;
	synth_keep(bdir, "three", &s);
	/* nothing can be significant: nor can no regression be: inconclusive */
	CHECK(CHECK_CMD("--baseline", bdir, "--current", bdir) == 3);
	CHECK(strstr(err_buf, "smallest possible p-value is 0.05") != NULL);
	CHECK(strstr(out_buf, "with 3 and 3 runs no slowdown can be ruled out") != NULL);
	CHECK(count_lines(err_buf) == 1);
	CHECK(CHECK_CMD("--baseline", bdir, "--current", bdir, "--alpha", "0.1", "--uncorrected") == 0);
	CHECK(err_buf[0] == '\0');
	CHECK(CHECK_CMD("--baseline", bdir, "--current", bdir, "--alpha", "0.3") == 0);
	CHECK(err_buf[0] == '\0');
}

/* ----------------------------------------------------------- gate -- */

/* A case whose current run failed is `failed` (exit 1), even when it left
 * no run (it failed in its first round) and --allow-missing is given. */
static void failed_case(const char *base)
{
	struct synth s = synth_default(8);
	char cdir[DIR_LEN];

	s.status[1] = "failed: verification failed: output hash differs";
	synth_keep(cdir, "failedrun", &s);
	CHECK(check_csv(base, cdir) == 1);
	CHECK(verdict_is("sendfile", "failed"));
	CHECK(all_verdicts("ok", 1));
	CHECK(strstr(err_buf, "case copy/sendfile random 1M warm failed in the current results") != NULL);
	s.reps = 0;	/* no run of it at all */
	synth_keep(cdir, "failedfirst", &s);
	CHECK(CHECK_CMD("--baseline", base, "--current", cdir, "--allow-missing", "--format", "csv") == 1);
	CHECK(verdict_is("sendfile", "failed"));
}

/* Syscalls counted on one side only: a verdict (exit 1), not a skip. */
static void syscalls_missing(const char *base)
{
	struct synth s = synth_default(9);
	const char *cur;

	s.uncounted = 2;
	cur = syscall_verdict(base, "uncounted", &s, "syscalls-missing");
	CHECK(CHECK_CMD("--baseline", base, "--current", cur, "--ignore-syscalls") == 0);
}

/* io_uring's counts move with timing (its kernel workers): shown, no verdict. */
static void syscalls_vary(void)
{
	struct synth b = all_cases(14), c = all_cases(15);
	char bdir[DIR_LEN];
	const char *cur;

	synth_keep(bdir, "varybase", &b);
	c.syscall_plus = 6;	/* io_uring */
	cur = synth_write("varycur", &c);
	CHECK(check_csv(bdir, cur) == 0);
	CHECK(verdict_is("io_uring", "ok"));
	CHECK(CHECK_CMD("--baseline", bdir, "--current", cur) == 0);
	CHECK(strstr(out_buf, "read 15->16 (vary with timing)") != NULL);
	c.syscall_plus = 4;	/* splice: deterministic */
	cur = synth_write("varysplice", &c);
	CHECK(check_csv(bdir, cur) == 1);
	CHECK(verdict_is("splice", "syscalls-changed"));
}

/* In CI a comparison that can never reach significance is exit 2. */
static void ci_unreachable(void)
{
	struct synth s = synth_default(10);
	char bdir[DIR_LEN];

	s.reps = 5;
	synth_keep(bdir, "five", &s);
	CHECK(CHECK_CMD("--baseline", bdir, "--current", bdir, "--ci") == 2);
	CHECK(strstr(err_buf, "bench check: error: with 5 baseline and 5 current runs") != NULL);
	setenv("CI", "true", 1);
	CHECK(CHECK_CMD("--baseline", bdir, "--current", bdir) == 2);
	/* counts only: timing is not judged, so nothing to say about alpha */
	CHECK(CHECK_CMD("--baseline", bdir, "--current", bdir, "--only-syscalls") == 0);
	CHECK(err_buf[0] == '\0');
	unsetenv("CI");
	CHECK(CHECK_CMD("--baseline", bdir, "--current", bdir) == 3);
	CHECK(strstr(err_buf, "bench check: warning: with 5") != NULL);
	s.reps = 8;	/* what bench records by default: reachable */
	synth_keep(bdir, "eight", &s);
	CHECK(CHECK_CMD("--baseline", bdir, "--current", bdir, "--ci") == 0);
}

/*
 * Six copy strategies whose kernel path got 7 % slower together while the
 * user-space memcpy did not (a machine whose copies drift, as on a VM: less
 * than the shared-slowdown floor of 10 %), and sendfile 15 % slower on top:
 * relative to the other cases only sendfile regresses; relative to memcpy
 * every copy would.
 */
static void cases_reference(void)
{
	struct synth b = all_cases(11), c = all_cases(12);
	char bdir[DIR_LEN];
	const char *cur;

	b.noise = c.noise = 0.02;
	synth_keep(bdir, "sixbase", &b);
	for (int i = 0; i < NCASES_MAX; i++)
		c.factor[i] = i == 3 ? 1 : 1.07;
	c.factor[1] *= 1.15;
	cur = synth_write("sixcur", &c);
	CHECK(check_csv(bdir, cur) == 1);
	CHECK(verdict_is("sendfile", "regression"));
	for (int i = 0; i < NCASES_MAX; i++)
		if (i != 1 && i != 3)
			CHECK(strcmp(verdict_of(strat[i]), "ok") == 0);
	CHECK(fabs(column_of("sendfile", "change_pct") - 15) < 3);
	CHECK(strstr(err_buf, "shared") == NULL);
	CHECK(CHECK_CMD("--baseline", bdir, "--current", cur, "--vs", "memcpy", "--format", "csv") == 1);
	CHECK(verdict_is("readwrite", "regression"));
	/* the drift alone: nothing regresses */
	c.factor[1] /= 1.15;
	c.seed = 13;
	cur = synth_write("sixdrift", &c);
	CHECK(check_csv(bdir, cur) == 0);
	CHECK(all_verdicts_of(NCASES_MAX, "ok", 3));
}

/*
 * Every copy case 30 % slower and memcpy not: relative to the other cases
 * no single case moved, but the code every case runs did (a kernel, libc or
 * build-flag change): a "shared slowdown", exit 1. The same with memcpy 30 %
 * slower too: the machine changed, exit 0. Faster together: an improvement.
 */
/* The percentage after the first "moved " of text, NAN without one. */
static double moved_pct(const char *text)
{
	const char *p = strstr(text, "moved ");

	return p ? strtod(p + 6, NULL) : NAN;
}

static void shared_change(void)
{
	struct synth b = all_cases(16), c = all_cases(17);
	char bdir[DIR_LEN];
	const char *cur;

	synth_keep(bdir, "sharedbase", &b);
	for (int i = 0; i < NCASES_MAX; i++)
		c.factor[i] = i == 3 ? 1 : 1.3;
	cur = synth_write("sharedslow", &c);
	CHECK(CHECK_CMD("--baseline", bdir, "--current", cur) == 1);
	CHECK(strstr(err_buf, "bench check: shared slowdown: 6 of 6 copy cases moved +") != NULL);
	CHECK(fabs(moved_pct(err_buf) - 30) < 6);	/* within the synthetic noise */
	CHECK(strstr(out_buf, "; shared slowdown; regression; exit 1") != NULL);
	CHECK(check_csv(bdir, cur) == 1);
	CHECK(all_verdicts_of(NCASES_MAX, "ok", 3));
	/* the improvement is said, and passes */
	CHECK(CHECK_CMD("--baseline", cur, "--current", bdir) == 0);
	CHECK(strstr(err_buf, "bench check: shared improvement: 6 of 6 copy cases moved -") != NULL);
	/* memcpy moved with them: the machine, which the gate cannot tell from
	 * the code: inconclusive */
	c.machine = 1.3;
	for (int i = 0; i < NCASES_MAX; i++)
		c.factor[i] = 1;
	cur = synth_write("sharedmachine", &c);
	CHECK(CHECK_CMD("--baseline", bdir, "--current", cur) == 3);
	CHECK(strstr(err_buf, "bench check: the machine changed: 6 of 6 copy cases moved +") != NULL);
	CHECK(fabs(moved_pct(err_buf) - 30) < 6);
	CHECK(strstr(out_buf, "; the machine changed; inconclusive; exit 3") != NULL);
	/* memcpy moved +30 % and the copies +62.5 %: more than memcpy, as a
	 * loaded VM's kernel work does, but the machine moved: not the code */
	for (int i = 0; i < NCASES_MAX; i++)
		c.factor[i] = i == 3 ? 1 : 1.25;
	cur = synth_write("sharedmachinemore", &c);
	CHECK(CHECK_CMD("--baseline", bdir, "--current", cur) == 3);
	CHECK(strstr(err_buf, "bench check: the machine changed: 6 of 6 copy cases moved +") != NULL);
	CHECK(strstr(err_buf, "cannot be told from the machine") != NULL);
	CHECK(strstr(out_buf, "; the machine changed; inconclusive; exit 3") != NULL);
}

/* The current folder of the shared-change tests: copies by copies, memcpy by
 * memcpy; the exit code of `bench check` against bdir, its report in
 * out_buf and err_buf. */
static int shared_run(const char *bdir, const char *name, double copies, double memcpy_factor,
		      const char *format)
{
	struct synth c = all_cases(17);
	const char *cur;

	for (int i = 0; i < NCASES_MAX; i++)
		c.factor[i] = i == 3 ? memcpy_factor : copies;
	cur = synth_write(name, &c);
	return CHECK_CMD("--baseline", bdir, "--current", cur, "--format", format);
}

/*
 * memcpy's move is the machine's only when it goes the copies' way. memcpy
 * 15 % faster while every copy is 30 % slower explains nothing of their
 * slowdown: a shared slowdown, exit 1 (the rule that took memcpy's move in
 * either direction called it the machine, exit 0). memcpy +25 % with the
 * copies +30 %: the machine moved, and what the copies did beyond it cannot
 * be told from it: inconclusive, exit 3, not green. Copies 30 % faster with
 * memcpy 15 % faster: the machine moved their way too, inconclusive (a rule
 * that looks at memcpy's slowdowns only would call it a shared improvement,
 * exit 0).
 */
static void machine_direction(void)
{
	struct synth b = all_cases(16);
	char bdir[DIR_LEN];

	synth_keep(bdir, "dirbase", &b);
	CHECK_EQ_U64(shared_run(bdir, "dir-m15-c30", 1.3, 0.85, "table"), 1);
	CHECK(strstr(err_buf, "bench check: shared slowdown: 6 of 6 copy cases moved +") != NULL);
	CHECK(strstr(out_buf, "; shared slowdown; regression; exit 1") != NULL);
	CHECK_EQ_U64(shared_run(bdir, "dir-m25-c30", 1.3, 1.25, "table"), 3);
	CHECK(strstr(err_buf, "bench check: the machine changed: 6 of 6 copy cases moved +") != NULL);
	CHECK(strstr(out_buf, "; the machine changed; inconclusive; exit 3") != NULL);
	CHECK_EQ_U64(shared_run(bdir, "dir-m-15-c-30", 0.7, 0.85, "table"), 3);
	CHECK(strstr(err_buf, "bench check: the machine changed: 6 of 6 copy cases moved -") != NULL);
	CHECK(strstr(out_buf, "; the machine changed; inconclusive; exit 3") != NULL);
	/* in JSON: the outcome as the summary's verdict */
	CHECK_EQ_U64(shared_run(bdir, "dir-json", 1.3, 1.25, "json"), 3);
	CHECK(strstr(out_buf, "\"verdict\": \"inconclusive\", \"exit\": 3") != NULL);
	CHECK_EQ_U64(shared_run(bdir, "dir-json-r", 1.3, 0.85, "json"), 1);
	CHECK(strstr(out_buf, "\"verdict\": \"regression\", \"exit\": 1") != NULL);
}

/*
 * One invocation per side: the runs of one invocation share its machine, so
 * the report says what between-invocation spread the largest change would
 * need to stand out: |ln(1 + change)| / (t 2.326 sqrt 2), as an sd.
 */
static void single_invocation(const char *base)
{
	struct synth s = synth_default(2);
	const char *cur, *p;
	double change, need;

	s.factor[1] = 1.3;
	cur = synth_write("single", &s);
	CHECK(CHECK_CMD("--baseline", base, "--current", cur) == 1);
	p = strstr(out_buf, "\nbench check: cannot tell apart: with one invocation per side the p-values compare runs of one invocation, not invocations");
	CHECK(p != NULL);
	p = p ? strstr(p, "the largest change, copy/sendfile random 1M warm ") : NULL;
	CHECK(p != NULL);
	if (!p)
		return;
	change = strtod(p + strlen("the largest change, copy/sendfile random 1M warm "), NULL);
	p = strstr(p, "spread by less than ");
	CHECK(p != NULL);
	need = p ? strtod(p + strlen("spread by less than "), NULL) : NAN;
	CHECK(fabs(need - expm1(log1p(change / 100) / (2.326 * sqrt(2))) * 100) < 0.06);
	CHECK(fabs(need - 8.3) < 1);	/* 30 % within the synthetic jitter */
	/* two baseline invocations: not said */
	CHECK(CHECK_CMD("--baseline", base, "--baseline", base, "--current", cur) == 1);
	CHECK(strstr(out_buf, "cannot tell apart") == NULL);
}

/*
 * Six baseline invocations whose sendfile median drifts (1.00 1.04 0.97 1.02
 * 0.99 1.05: sd of the logs 3.03 %): sendfile's threshold widens to the
 * prediction bound t(5, 99 %) 3.365 x 3.03 % x sqrt(1/6 + 1) = +11.6 %, so 10 %
 * slower is within the drift; 40 % is not. Against the first one alone the
 * 10 % is a regression.
 */
static void several_invocations(void)
{
	static const double drift[6] = { 1.00, 1.04, 0.97, 1.02, 0.99, 1.05 };
	char dirs[6][DIR_LEN];
	struct synth c = synth_default(40);
	const char *cur;

	for (int i = 0; i < 6; i++) {
		struct synth b = synth_default(30 + (uint64_t)i);
		char name[32];

		b.noise = 0.01;
		b.factor[1] = drift[i];
		snprintf(name, sizeof(name), "inv%d", i);
		snprintf(dirs[i], sizeof(dirs[i]), "%s", synth_write(name, &b));
	}
	c.noise = 0.01;
	c.factor[1] = 1.10;
	cur = synth_write("invcur", &c);
	CHECK(CHECK_CMD("--baseline", dirs[0], "--current", cur, "--format", "csv") == 1);
	CHECK(verdict_is("sendfile", "regression"));
	CHECK(CHECK_CMD("--baseline", dirs[0], "--baseline", dirs[1], "--baseline", dirs[2],
			"--baseline", dirs[3], "--baseline", dirs[4], "--baseline", dirs[5],
			"--current", cur, "--format", "csv") == 0);
	CHECK(verdict_is("sendfile", "slower"));
	CHECK(fabs(column_of("sendfile", "threshold_pct") - 11.6) < 1.5);
	CHECK(all_verdicts("ok", 1));
	CHECK(CHECK_CMD("--baseline", dirs[0], "--baseline", dirs[1], "--baseline", dirs[2],
			"--baseline", dirs[3], "--baseline", dirs[4], "--baseline", dirs[5],
			"--current", cur) == 0);
	CHECK(strstr(out_buf, "wider for the drift between 6 baseline invocations") != NULL);
	c.factor[1] = 1.4;
	cur = synth_write("invcur40", &c);
	CHECK(CHECK_CMD("--baseline", dirs[0], "--baseline", dirs[1], "--baseline", dirs[2],
			"--baseline", dirs[3], "--baseline", dirs[4], "--baseline", dirs[5],
			"--current", cur, "--format", "csv") == 1);
	CHECK(verdict_is("sendfile", "regression"));
}

/* ------------------------------------------------------- formats -- */

/*
 * A baseline case whose runs fall into two modes (every other rep 1.4x
 * slower) is marked: its side's modes in the csv report, its median in the
 * table, a line under the table with both modes, and the summary line.
 * The machine's noise is left out so that only the injected levels differ.
 */
static void two_modes(void)
{
	struct synth s = synth_default(21);
	const char *cur, *mark;
	char base[DIR_LEN], line[160];

	s.noise = 0;
	s.bimodal = 1;
	synth_keep(base, "bimodal", &s);
	s.bimodal = -1;
	s.seed = 22;
	cur = synth_write("unimodal", &s);
	CHECK(check_csv(base, cur) >= 0);
	CHECK(column_of("sendfile", "baseline_modes") == 2);
	CHECK(column_of("sendfile", "current_modes") == 1);
	CHECK(column_of("readwrite", "baseline_modes") == 1);
	CHECK(CHECK_CMD("--baseline", base, "--current", cur) >= 0);
	mark = strstr(out_buf, "(2 modes)");
	CHECK(mark && !strstr(mark + 1, "(2 modes)"));	/* once: the baseline's sendfile */
	CHECK(strstr(out_buf, "; 1 case with two modes (median unstable; the rank test compares all runs, the slow share is judged too)") != NULL);
	snprintf(line, sizeof(line), "\nbench check: copy/sendfile random 1M warm: two modes in the baseline: ");
	CHECK(strstr(out_buf, line) != NULL);
	CHECK(strstr(out_buf, "(5 runs) and ") != NULL);
	CHECK(strstr(out_buf, "two modes in the current results") == NULL);
}

/*
 * Two modes, 1.4x apart: sendfile's slow runs go from 12 of 60 to 29 of 60.
 * Still fewer than half, so the median stays in the fast mode (change about
 * 0) and the rank test alone cannot call it a regression; the slow share
 * moves the mean by (29 - 12) / 60 x 0.4 = +11.3 %, Fisher's one-sided p
 * is far below alpha over the 4 cases: a regression of the mode shares,
 * exit 1, and the report says what was judged. From 12 to 15 of 60 it is
 * not (+2.0 %, p 0.33).
 */
static void mode_shares(void)
{
	struct synth b = synth_default(23), c = synth_default(24);
	char bdir[DIR_LEN];
	const char *cur;

	b.reps = c.reps = 60;
	b.noise = c.noise = 0.01;
	b.bimodal = c.bimodal = 1;
	b.slow_runs = 12;
	synth_keep(bdir, "sharebase", &b);
	c.slow_runs = 29;
	cur = synth_write("sharecur", &c);
	CHECK_EQ_U64(check_csv(bdir, cur), 1);
	CHECK(verdict_is("sendfile", "regression"));
	CHECK(fabs(column_of("sendfile", "change_pct")) < 3);	/* the median did not move */
	CHECK_EQ_U64(CHECK_CMD("--baseline", bdir, "--current", cur), 1);
	CHECK(strstr(out_buf, "bench check: copy/sendfile random 1M warm: slow runs (above ") != NULL);
	CHECK(strstr(out_buf, ") 12 of 60 in the baseline, 29 of 60 now: the mean time +11.") != NULL);
	CHECK(strstr(out_buf, "): a regression of the mode shares\n") != NULL);
	c.slow_runs = 15;
	cur = synth_write("sharecur15", &c);
	CHECK(check_csv(bdir, cur) != 1);
	CHECK(!verdict_is("sendfile", "regression"));
	CHECK(CHECK_CMD("--baseline", bdir, "--current", cur) != 1);
	CHECK(strstr(out_buf, ") 12 of 60 in the baseline, 15 of 60 now: the mean time +2.") != NULL);
	CHECK(strstr(out_buf, "not a regression of the mode shares\n") != NULL);
}

static void formats(const char *base)
{
	struct csv_table t;
	char why[256];
	const char *p;
	int n = 0, bars = 0;

	CHECK(check_csv(base, base) == 0);
	CHECK(csv_parse(out_buf, strlen(out_buf), &t, why, sizeof(why)) == 0);
	CHECK_EQ_U64(t.nrows, NCASES);
	CHECK(csv_col(&t, "verdict") >= 0 && csv_col(&t, "p_value") >= 0 &&
	      csv_col(&t, "change_pct") >= 0 && csv_col(&t, "size_bytes") >= 0);
	csv_free(&t);

	CHECK(CHECK_CMD("--baseline", base, "--current", base, "--format", "json") == 0);
	CHECK(out_buf[0] == '{' && strstr(out_buf, "\"cases\": [") && strstr(out_buf, "\"summary\""));
	for (p = out_buf; (p = strstr(p, "{\"case\": ")); p++)
		n++;
	CHECK_EQ_U64(n, NCASES);
	CHECK(strstr(out_buf, "\"verdict\": \"no regression\", \"exit\": 0") != NULL);
	CHECK(strstr(out_buf, "\"upper_pct\": ") != NULL);

	CHECK(CHECK_CMD("--baseline", base, "--current", base, "--format", "markdown") == 0);
	CHECK(strncmp(out_buf, "| case", 6) == 0);
	for (p = out_buf; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		bars += *p == '|';
	CHECK_EQ_U64(bars, NCASES + 2);
	CHECK(strstr(out_buf, "\n| --- |") != NULL);
	CHECK(strstr(out_buf, "**bench check:**") != NULL);
}

int main(void)
{
	struct synth s = synth_default(1);
	char base[DIR_LEN];

	unsetenv("CI");	/* CI mode is tested on purpose, in ci_unreachable() */
	synth_keep(base, "base", &s);
	same_distribution(base);
	slower_30(base);
	slower_5_and_faster();
	noise_is_quiet();
	syscalls_changed(base);
	missing_and_new(base);
	machine_slower(base);
	reference_disturbed(base);
	plain_change_below_threshold();
	current_spread_widens_threshold();
	baseline_file(base);
	malformed(base);
	bad_options(base);
	alpha_unreachable();
	failed_case(base);
	syscalls_missing(base);
	ci_unreachable();
	cases_reference();
	syscalls_vary();
	shared_change();
	machine_direction();
	single_invocation(base);
	several_invocations();
	formats(base);
	two_modes();
	mode_shares();
	test_cleanup_dir();
	return test_report("check_verdicts");
}
