// SPDX-License-Identifier: MIT
/*
 * cmd_ab.c - `bench ab A B`: two builds of bench (or two commands that act
 * as one, such as a script that sets an environment and runs a bench)
 * compared in one invocation, pair by pair.
 *
 * Every round runs each case once with A and once with B, back to back, on
 * the same dataset in the same cache state, in the order AB in one round
 * and BA in the next (ABBA), the cases shuffled per round. Each run is
 * `A copy --strategy S --time SRC DST`: the other build's own strategy code
 * copies, timed by that build in its own child around the copy alone; this
 * bench sets the cache state, waits for writeback, verifies every output
 * against the dataset's hash and removes it. Whatever the machine did in a
 * round hits both runs of the pair, so the per-round ratio B/A cancels the
 * drift that makes two invocations hard to compare (docs/check.md). The
 * verdict comes from the Hodges-Lehmann estimate of ln(B/A) and its
 * signed-rank interval (abstat.h), at alpha over all cases (Bonferroni).
 *
 * Exit codes, as bench check's (abstat.h's ab_exit_code): 0 no regression
 * (every case's interval below 1 + threshold), 1 a regression or a case B
 * failed, 2 bad usage or a case A failed, 3 inconclusive. The options and
 * --help are the option table's (cli_table.c).
 */
#include "abstat.h"
#include "cache.h"
#include "cli.h"
#include "commands.h"
#include "dataset.h"
#include "disturb.h"
#include "interrupt.h"
#include "memstate.h"
#include "paths.h"
#include "rng.h"
#include "strategy.h"
#include "units.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define AB_MAX_CASES 32
#define AB_WARM_ATTEMPTS 3
#define AB_WRITEBACK_WAIT_MS 10000u
/* A pair with a run disturbed from outside (disturb.h) is made again, at
 * most this many times; then it is kept. */
#define AB_RETRIES 1

struct ab_opts {
	const char *exe[2];	/* A (the baseline), B (the candidate) */
	struct str_list strategies;	/* empty: every one available here */
	uint64_t size;
	enum dataset_kind kind;
	enum cache_mode cache;
	unsigned rounds, warmup;
	double threshold, alpha;
	const char *dir, *csv;
	bool markdown;
	bool wall;		/* plain wall time, its waits for a CPU included */
	uint64_t seed;
	unsigned max_time;	/* seconds of rounds: no round starts after */
};

struct ab_case {
	char name[64];
	double *ns[2];		/* per measured round: A's and B's */
	double *logr;		/* ln(B/A) per round */
	long *round;		/* per measured pair: its round, negative when BA */
	size_t n;
	int failed;		/* -1, or the side (0 A, 1 B) that failed */
	char why[256];
	struct ab_stat st;	/* at the case's last look */
	enum ab_verdict v;
	bool decided;		/* a look decided it (or it failed): no more rounds */
};

struct ab_run {
	const struct ab_opts *o;
	struct ab_case c[AB_MAX_CASES];
	size_t ncases;
	struct dataset ds;
	char workdir[PATH_MAX], dst[PATH_MAX + 16];
	FILE *csv;
	double case_alpha;	/* alpha over the cases (then over the looks: abstat.h) */
	size_t retried;		/* pairs made again */
	unsigned looks;		/* looks made */
	const char *stopped;	/* what ended the rounds */
};

static const char side_name[2] = { 'A', 'B' };

/* -------------------------------------------------------- options -- */

/* One option of the table (cli_table.c, the bench ab block) into o. 0 or 2. */
static int ab_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	struct ab_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_AB_STRATEGY: o->strategies = v->names; break;
	case OPT_AB_SIZE: o->size = v->u; break;
	case OPT_AB_DATASET: dataset_kind_parse(opt->choices[v->choice], &o->kind); break;
	case OPT_AB_CACHE: o->cache = v->choice ? CACHE_COLD : CACHE_WARM; break;
	case OPT_ROUNDS: o->rounds = (unsigned)v->u; break;
	case OPT_AB_WARMUP: o->warmup = (unsigned)v->u; break;
	case OPT_AB_THRESHOLD: o->threshold = v->d; break;
	case OPT_AB_ALPHA: o->alpha = v->d; break;
	case OPT_AB_DIR: o->dir = v->str; break;
	case OPT_CSV: o->csv = v->str; break;
	case OPT_AB_FORMAT: o->markdown = v->choice == 1; break;
	case OPT_AB_SEED: o->seed = v->u; break;
	case OPT_WALL: o->wall = true; break;
	case OPT_AB_MAX_TIME: o->max_time = (unsigned)v->u; break;
	default: break;
	}
	return 0;
}

/* Fills o from argv. 0, -1 after --help or --version, or 2 after one line. */
static int ab_parse(struct ab_opts *o, int argc, char **argv)
{
	static char default_dir[PATH_MAX];
	struct cli_parser p = { .cmd = CMD_AB, .apply = ab_apply, .ctx = o, .max_operands = 2 };
	int ret;

	paths_dataset_dir(default_dir, sizeof(default_dir));
	*o = (struct ab_opts){ .size = 64ull << 20, .kind = DATASET_RANDOM, .cache = CACHE_WARM,
			       .rounds = 30, .warmup = 1, .threshold = 0.01, .alpha = 0.01,
			       .dir = default_dir, .seed = 1, .max_time = 180 };
	ret = cli_parse(&p, argc, argv);
	if (ret)
		return ret;
	if (p.noperands != 2)
		return cli_usage_error(&p, "expected two bench executables, A and B");
	o->exe[0] = p.operands[0];
	o->exe[1] = p.operands[1];
	return 0;
}

/* ---------------------------------------------------------- cases -- */

static int ab_add_case(struct ab_run *r, const char *name, size_t len)
{
	struct ab_case *c;

	if (r->ncases == AB_MAX_CASES) {
		fprintf(stderr, "bench ab: more than %d strategies\n", AB_MAX_CASES);
		return -EINVAL;
	}
	c = &r->c[r->ncases++];
	snprintf(c->name, sizeof(c->name), "%.*s", (int)len, name);
	c->failed = -1;
	c->v = AB_INCONCLUSIVE;
	c->ns[0] = calloc((size_t)r->o->rounds * AB_LOOKS, sizeof(double));
	c->ns[1] = calloc((size_t)r->o->rounds * AB_LOOKS, sizeof(double));
	c->logr = calloc((size_t)r->o->rounds * AB_LOOKS, sizeof(double));
	c->round = calloc((size_t)r->o->rounds * AB_LOOKS, sizeof(long));
	return c->ns[0] && c->ns[1] && c->logr && c->round ? 0 : -ENOMEM;
}

/* The cases: the strategies named, or every one available here. */
static int ab_plan(struct ab_run *r)
{
	const struct str_list *l = &r->o->strategies;
	char why[200];

	for (size_t i = 0; i < l->n; i++)
		if (ab_add_case(r, l->v[i], strlen(l->v[i])))
			return -EINVAL;
	for (size_t i = 0; !l->n && i < strategy_count; i++) {
		const struct copy_strategy *st = strategy_table[i];

		if (!(st->flags & STRATEGY_TEST_ONLY) && !strategy_probe(st, r->workdir, why, sizeof(why)) &&
		    ab_add_case(r, st->name, strlen(st->name)))
			return -EINVAL;
	}
	if (!r->ncases)
		fprintf(stderr, "bench ab: no strategy to compare\n");
	return r->ncases ? 0 : -EINVAL;
}

/* ------------------------------------------------------------ run -- */

/* The source in the cache state asked for, writeback settled. */
static int ab_prepare(struct ab_run *r, char *why, size_t n)
{
	int attempts = r->o->cache == CACHE_WARM ? AB_WARM_ATTEMPTS : 1, err = 0;
	struct memstate m;
	double pct = 0;

	for (int i = 0; i < attempts; i++) {
		err = cache_set(r->ds.path, r->o->cache, false, &pct);
		if (err || cache_state_ok(r->o->cache, pct))
			break;
	}
	if (err || !cache_state_ok(r->o->cache, pct)) {
		snprintf(why, n, "cannot make the source %s (%.0f%% resident)",
			 cache_mode_name(r->o->cache), pct);
		return -EAGAIN;
	}
	memstate_wait_writeback(AB_WRITEBACK_WAIT_MS, &m);
	return 0;
}

/* Reads fd to its end into out[0..n), dropping what does not fit. */
static void read_all(int fd, char *out, size_t n)
{
	size_t len = 0;
	char scratch[512];
	ssize_t got;

	for (;;) {
		bool full = len == n - 1;

		got = read(fd, full ? scratch : out + len, full ? sizeof(scratch) : n - 1 - len);
		if (got > 0 && !full)
			len += (size_t)got;
		else if (got == 0 || (got < 0 && errno != EINTR))
			break;
	}
	out[len] = '\0';
}

/* Runs `exe copy --strategy S --time SRC DST` with its stdout and stderr
 * into out[0..n). The wait status, or -errno. */
static int ab_exec(struct ab_run *r, const char *exe, const char *strategy, char *out, size_t n)
{
	char *const argv[] = { (char *)exe, "copy", "--strategy", (char *)strategy, "--time",
			       r->ds.path, r->dst, NULL };
	int fd[2], status, err;
	pid_t pid;

	if (pipe2(fd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0) {
		interrupt_reset_child();
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		execv(exe, argv);
		fprintf(stderr, "cannot run %s: %s\n", exe, strerror(errno));
		_exit(127);
	}
	err = pid < 0 ? -errno : 0;
	close(fd[1]);
	if (!err)
		read_all(fd[0], out, n);
	close(fd[0]);
	if (err)
		return err;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return status;
}

/* The output is the source's bytes: same size, same hash. */
static int ab_verify(struct ab_run *r, char *why, size_t n)
{
	int fd = open(r->dst, O_RDONLY | O_CLOEXEC);
	uint64_t hash = 0;
	struct stat st;
	int err = fd < 0 || fstat(fd, &st) ? -errno : 0;

	if (!err && (uint64_t)st.st_size != r->ds.size)
		err = -EIO;
	if (!err)
		err = hash_fd_mapped(fd, r->ds.size, &hash);
	if (fd >= 0)
		close(fd);
	if (!err && hash != r->ds.hash)
		err = -EIO;
	if (err)
		snprintf(why, n, "verification failed: the copy %s", err == -EIO ?
			 "differs from the source" : strerror(-err));
	return err;
}

/* The last line of a child's output, for a one-line reason. */
static const char *last_line(char *out)
{
	size_t len = strlen(out);
	char *nl;

	while (len && out[len - 1] == '\n')
		out[--len] = '\0';
	nl = strrchr(out, '\n');
	return nl ? nl + 1 : out;
}

/* Did something outside disturb the run (disturb.h)? Judged between the
 * snapshots around the other build's process, the same causes for every
 * case (its waits for a CPU are left out of the time compared instead). */
static bool ab_disturbed(const struct disturb_probe *start)
{
	struct disturb_probe end;

	disturb_snapshot(&end);
	return disturb_judge(start, &end) != 0;
}

/*
 * The time compared. On a shared machine a copy on one CPU spends much of
 * its wall time waiting for that CPU, a wait that hits A's and B's runs
 * independently and so does not cancel within a pair; without it (wall
 * minus the thread's run-queue wait, schedstat) the time is the copy's own,
 * I/O waits included. A strategy on several CPUs (its own threads, the
 * kernel's) keeps its wall time: their waits are part of its cost. The
 * figures are in docs/check.md.
 */
static double ab_clock(const struct ab_run *r, const char *strategy, double wall, const char *out)
{
	const struct copy_strategy *s = strategy_find(strategy);
	const char *w = strstr(out, "cpu_wait_ns ");
	double wait = w ? strtod(w + 12, NULL) : 0;

	if (r->o->wall || !s || (s->flags & STRATEGY_MULTI_CPU) || !(wait < wall))
		return wall;
	return wall - wait;
}

/* One timed copy by side `side` into *ns. 0, 1 when it was disturbed, or
 * -1 with why filled. */
static int ab_run_one(struct ab_run *r, int side, const char *strategy, double *ns,
		      char *why, size_t n)
{
	struct disturb_probe start;
	char out[4096];
	const char *w;
	int status;

	if (ab_prepare(r, why, n))
		return -1;
	disturb_snapshot(&start);
	status = ab_exec(r, r->o->exe[side], strategy, out, sizeof(out));
	w = strstr(out, "wall_ns ");
	if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(why, n, "%s", status < 0 ? strerror(-status) : last_line(out));
		unlink(r->dst);
		return -1;
	}
	if (!w) {
		snprintf(why, n, "its `bench copy` does not print its time (--time): a build older than bench ab");
		unlink(r->dst);
		return -1;
	}
	*ns = strtod(w + 8, NULL);
	status = ab_verify(r, why, n);
	unlink(r->dst);
	if (status)
		return -1;
	status = ab_disturbed(&start);
	*ns = ab_clock(r, strategy, *ns, out);
	return status;
}

/* Both runs of a pair, in order; the pair again while one was disturbed. */
static void ab_pair_runs(struct ab_run *r, struct ab_case *c, bool b_first, double t[2])
{
	char why[200];

	for (int attempt = 0; attempt <= AB_RETRIES; attempt++) {
		bool disturbed = false;

		for (int i = 0; i < 2 && c->failed < 0; i++) {
			int side = b_first ? 1 - i : i, ret = ab_run_one(r, side, c->name, &t[side],
								      why, sizeof(why));

			disturbed |= ret > 0;
			if (ret >= 0)
				continue;
			c->failed = side;
			snprintf(c->why, sizeof(c->why), "%c (%s): %s", side_name[side],
				 r->o->exe[side], why);
		}
		if (!disturbed || c->failed >= 0 || attempt == AB_RETRIES)
			return;
		r->retried++;
	}
}

/* One pair of case c in measured round k (or a warm-up round, k < 0). */
static void ab_pair(struct ab_run *r, struct ab_case *c, long k, bool b_first)
{
	double t[2];

	ab_pair_runs(r, c, b_first, t);
	if (c->failed >= 0 || k < 0)
		return;
	c->ns[0][c->n] = t[0];
	c->ns[1][c->n] = t[1];
	c->round[c->n] = b_first ? -(k + 1) : k + 1;
	c->logr[c->n++] = log(t[1] / t[0]);
}

/* The pairs, each with its case's verdict (empty when not judged). */
static void ab_write_csv(const struct ab_run *r, bool judged)
{
	for (size_t i = 0; r->csv && i < r->ncases; i++) {
		const struct ab_case *c = &r->c[i];

		for (size_t k = 0; k < c->n; k++)
			fprintf(r->csv, "%s,%ld,%s,%.0f,%.0f,%.6f,%s\n", c->name, labs(c->round[k]),
				c->round[k] < 0 ? "BA" : "AB", c->ns[0][k], c->ns[1][k], c->logr[k],
				!judged ? "" : c->failed >= 0 ? "failed" : ab_verdict_name(c->v));
	}
}

/* A look at every case still open after m measured rounds (abstat.h): its
 * verdict at alpha over the cases and the looks. Whether all are decided. */
static bool ab_look_all(struct ab_run *r, size_t m)
{
	bool all = true;

	r->looks = ab_look_at(m, r->o->rounds);
	for (size_t i = 0; i < r->ncases; i++) {
		struct ab_case *c = &r->c[i];
		double *t;

		if (c->decided || c->failed >= 0) {
			c->decided = true;
			continue;
		}
		t = malloc((c->n + 1) * sizeof(*t));
		if (t) {
			memcpy(t, c->logr, c->n * sizeof(*t));
			c->v = ab_look(t, c->n, r->case_alpha, r->o->threshold, &c->st);
		}
		free(t);
		c->decided = c->v != AB_INCONCLUSIVE;
		all &= c->decided;
	}
	return all;
}

static double ab_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The rounds: the cases shuffled per round, A and B alternating first; a
 * look every --rounds rounds, after which a decided case is not run again;
 * until every case is decided, AB_LOOKS looks, or --max-time.
 */
static void ab_rounds(struct ab_run *r)
{
	long total = (long)r->o->warmup + (long)r->o->rounds * AB_LOOKS;
	uint64_t rng = r->o->seed;
	size_t order[AB_MAX_CASES];
	double start = 0;

	r->stopped = "6 looks";
	for (long round = 0; round < total && !interrupt_signal; round++) {
		long m = round - (long)r->o->warmup;

		if (m == 0)
			start = ab_seconds();
		if (m > 0 && ab_seconds() - start >= r->o->max_time) {
			r->stopped = "--max-time";
			break;
		}
		for (size_t i = 0; i < r->ncases; i++)
			order[i] = i;
		for (size_t i = r->ncases; i > 1; i--) {
			size_t j = splitmix64(&rng) % i, tmp = order[i - 1];

			order[i - 1] = order[j];
			order[j] = tmp;
		}
		for (size_t i = 0; i < r->ncases && !interrupt_signal; i++)
			if (!r->c[order[i]].decided)
				ab_pair(r, &r->c[order[i]], m, (round + (long)order[i]) % 2);
		if (m >= 0 && ab_look_at((size_t)m + 1, r->o->rounds) && !interrupt_signal &&
		    ab_look_all(r, (size_t)m + 1)) {
			r->stopped = "every case decided";
			break;
		}
	}
}

/* --------------------------------------------------------- report -- */

static void fmt_ns(double ns, char *out, size_t n)
{
	if (isnan(ns))
		snprintf(out, n, "-");
	else if (ns < 1e7)
		snprintf(out, n, "%.1f us", ns / 1e3);
	else
		snprintf(out, n, "%.1f ms", ns / 1e6);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(const double *x, size_t n)
{
	double *t = malloc((n + 1) * sizeof(*t)), m = NAN;

	if (t && n) {
		memcpy(t, x, n * sizeof(*t));
		qsort(t, n, sizeof(*t), cmp_double);
		m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	}
	free(t);
	return m;
}

static void ab_row(const struct ab_run *r, const struct ab_case *c, const char *sep)
{
	char a[32], b[32], ratio[32] = "-", ci[48] = "-";

	fmt_ns(median_of(c->ns[0], c->n), a, sizeof(a));
	fmt_ns(median_of(c->ns[1], c->n), b, sizeof(b));
	if (c->st.n)
		snprintf(ratio, sizeof(ratio), "%+.2f%%", expm1(c->st.shift) * 100);
	if (c->st.judged)
		snprintf(ci, sizeof(ci), "%+.2f%% .. %+.2f%%", expm1(c->st.lo) * 100,
			 expm1(c->st.hi) * 100);
	printf("%s%-18s%s%6zu%s%10s%s%10s%s%9s%s%-20s%s%s%s%s%s\n", r->o->markdown ? "| " : "",
	       c->name, sep, c->n, sep, a, sep, b, sep, ratio, sep, ci, sep,
	       c->failed >= 0 ? "failed" : ab_verdict_name(c->v),
	       c->failed >= 0 ? ": " : "", c->failed >= 0 ? c->why : "",
	       r->o->markdown ? " |" : "");
}

/* Under the table: what each inconclusive case's rounds could resolve. */
static void ab_say_inconclusive(const struct ab_run *r)
{
	for (size_t i = 0; i < r->ncases; i++) {
		const struct ab_case *c = &r->c[i];

		if (c->failed >= 0 || c->v != AB_INCONCLUSIVE)
			continue;
		if (c->st.judged)
			printf("%sbench ab: inconclusive: %s: B/A %+.2f%%, interval %+.2f%% .. %+.2f%%: the smallest change these %zu rounds could resolve is about %.1f%%, the threshold %g%% (more time: --max-time, or more rounds a look: --rounds)\n",
			       r->o->markdown ? "\n" : "", c->name, expm1(c->st.shift) * 100,
			       expm1(c->st.lo) * 100, expm1(c->st.hi) * 100, c->st.n,
			       ab_resolution(&c->st) * 100, r->o->threshold * 100);
		else
			printf("%sbench ab: inconclusive: %s: %zu rounds give no interval\n",
			       r->o->markdown ? "\n" : "", c->name, c->n);
	}
}

static void ab_report(const struct ab_run *r, int code, const struct ab_tally *t)
{
	const char *sep = r->o->markdown ? " | " : "  ";

	printf("%s%-18s%s%6s%s%10s%s%10s%s%9s%s%-20s%s%s%s\n", r->o->markdown ? "| " : "", "case",
	       sep, "rounds", sep, "A median", sep, "B median", sep, "B/A", sep, "interval", sep,
	       "verdict", r->o->markdown ? " |" : "");
	if (r->o->markdown)
		puts("| --- | ---: | ---: | ---: | ---: | --- | --- |");
	for (size_t i = 0; i < r->ncases; i++)
		ab_row(r, &r->c[i], sep);
	printf(r->o->markdown ? "\n**bench ab:** " : "\nbench ab: ");
	printf("%zu cases:", r->ncases);
	for (int v = 0; v < AB_NVERDICTS; v++)
		if (t->v[v])
			printf(" %zu %s,", t->v[v], ab_verdict_name((enum ab_verdict)v));
	if (t->a_failed + t->b_failed)
		printf(" %zu failed,", t->a_failed + t->b_failed);
	printf(" B/A per round (%s), A %s, B %s; Hodges-Lehmann estimate and its %.4g%% interval (signed-rank, alpha %g over %zu cases and %d looks, one every %u rounds), threshold %g%%; looks made: %u, stopped by %s; %zu pairs made again (disturbed); %s; exit %d\n",
	       r->o->wall ? "wall time" : "time without waits for a CPU, wall for a strategy on several CPUs",
	       r->o->exe[0], r->o->exe[1], (1 - r->case_alpha / AB_LOOKS) * 100, r->o->alpha,
	       r->ncases, AB_LOOKS, r->o->rounds, r->o->threshold * 100, r->looks, r->stopped,
	       r->retried,
	       code == 1 ? "regression" : code == AB_EXIT_INCONCLUSIVE ? "inconclusive" :
	       code == 0 ? "no regression" : "not judged", code);
	ab_say_inconclusive(r);
}

/* Verdicts, the report and the exit code. */
static int ab_judge_all(struct ab_run *r)
{
	struct ab_tally tally = { 0 };
	int code;

	for (size_t i = 0; i < r->ncases; i++) {
		struct ab_case *c = &r->c[i];

		if (c->failed >= 0)
			fprintf(stderr, "bench ab: %s failed in %s\n", c->name, c->why);
		if (c->failed == 0)
			tally.a_failed++;
		else if (c->failed == 1)
			tally.b_failed++;
		else
			tally.v[c->v]++;
	}
	code = ab_exit_code(&tally);
	ab_report(r, code, &tally);
	ab_write_csv(r, true);
	return code;
}

/* ---------------------------------------------------------- setup -- */

/*
 * A and B, before any data is made: each an executable file that answers
 * --version with exit 0 (a bench, or a script that runs one). 0, or -1
 * after one line.
 */
static int ab_check_exe(const char *which, const char *exe)
{
	char *const argv[] = { (char *)exe, "--version", NULL };
	struct stat st;
	int status = -1;
	pid_t pid;

	if (stat(exe, &st)) {
		fprintf(stderr, "bench ab: %s '%s': %s\n", which, exe, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111) || access(exe, X_OK)) {
		fprintf(stderr, "bench ab: %s '%s': not an executable file (give a bench executable, or a script that runs one)\n",
			which, exe);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		interrupt_reset_child();
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execv(exe, argv);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	fprintf(stderr, "bench ab: %s '%s': '%s --version' failed: not a bench executable\n",
		which, exe, exe);
	return -1;
}

/* The dataset (shared with bench's) and a private work directory. */
static int ab_setup(struct ab_run *r)
{
	int err;

	if (mkdir(r->o->dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "bench ab: cannot create %s: %s\n", r->o->dir, strerror(errno));
		return -1;
	}
	snprintf(r->workdir, sizeof(r->workdir), "%s/work-%ld-XXXXXX", r->o->dir, (long)getpid());
	if (!mkdtemp(r->workdir)) {
		fprintf(stderr, "bench ab: cannot create a work directory in %s: %s\n", r->o->dir, strerror(errno));
		r->workdir[0] = '\0';
		return -1;
	}
	snprintf(r->dst, sizeof(r->dst), "%s/copy.out", r->workdir);
	r->ds = (struct dataset){ .kind = r->o->kind, .size = r->o->size, .seed = 1 };
	dataset_stop = &interrupt_signal;
	err = dataset_ensure(&r->ds, r->o->dir, NULL);
	if (err)
		fprintf(stderr, "bench ab: cannot make the %s dataset in %s: %s\n",
			dataset_kind_name(r->o->kind), r->o->dir, strerror(-err));
	return err ? -1 : 0;
}

static int ab_open_csv(struct ab_run *r)
{
	if (!r->o->csv)
		return 0;
	r->csv = fopen(r->o->csv, "w");
	if (!r->csv) {
		fprintf(stderr, "bench ab: cannot write %s: %s\n", r->o->csv, strerror(errno));
		return -1;
	}
	fputs("strategy,round,order,a_ns,b_ns,log_ratio,verdict\n", r->csv);
	return 0;
}

static void ab_free(struct ab_run *r)
{
	for (size_t i = 0; i < r->ncases; i++) {
		free(r->c[i].ns[0]);
		free(r->c[i].ns[1]);
		free(r->c[i].logr);
		free(r->c[i].round);
	}
	if (r->csv)
		fclose(r->csv);
	if (r->workdir[0]) {
		unlink(r->dst);
		rmdir(r->workdir);
	}
}

/* Too few rounds for any interval: said before anything runs. */
static int ab_enough_rounds(const struct ab_run *r)
{
	size_t need = ab_min_rounds(r->case_alpha / AB_LOOKS);

	if (r->o->rounds >= need)
		return 0;
	fprintf(stderr, "bench ab: with %u rounds no case can be judged: %zu cases at alpha %g over %d looks need at least %zu rounds each (signed-rank test: all %zu pairs the same way)\n",
		r->o->rounds, r->ncases, r->o->alpha, AB_LOOKS, need, need);
	return -1;
}

int cmd_ab(int argc, char **argv)
{
	static struct ab_run r;
	struct ab_opts o;
	int ret = ab_parse(&o, argc, argv);

	if (ret)
		return ret < 0 ? 0 : 2;
	memset(&r, 0, sizeof(r));
	r.o = &o;
	ret = 2;
	if (ab_check_exe("A", o.exe[0]) || ab_check_exe("B", o.exe[1]) ||
	    ab_setup(&r) || ab_plan(&r))
		goto out_free;
	r.case_alpha = o.alpha / (double)r.ncases;
	if (ab_enough_rounds(&r) || ab_open_csv(&r))
		goto out_free;
	ab_rounds(&r);
	if (interrupt_signal) {
		fprintf(stderr, "bench ab: interrupted; nothing judged\n");
		ab_write_csv(&r, false);
		ret = interrupt_exit_code();
		goto out_free;
	}
	ret = ab_judge_all(&r);
out_free:
	ab_free(&r);
	return ret;
}
