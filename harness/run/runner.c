// SPDX-License-Identifier: MIT
/*
 * runner.c - the measurement loop.
 *
 * For every run the parent sets the page-cache state of the source and checks
 * it with mincore, then forks a fresh child. The child opens its files
 * (untimed), reads the clock, calls the workload's run(), reads the clock
 * again, and reports the time through a pipe. The parent collects the child's
 * rusage with wait4 (the child's own children included), verifies the output
 * against the expected XXH3 hash and removes it. Nothing but the workload's
 * run() is inside the clock.
 */
#include "runner.h"
#include "budget.h"
#include "child.h"
#include "command_exec.h"
#include "disturb.h"
#include "rng.h"
#include "interrupt.h"
#include "memstate.h"
#include "stats.h"
#include "units.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum round_kind { ROUND_COUNT, ROUND_WARMUP, ROUND_MEASURE };

uint64_t runner_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* What the child of one run works on: the workload's run, or a command's. */
struct run_work {
	const struct bench_case *c;
	struct run_ctx ctx;
	struct command_exec cmd;	/* spec.command */
};

static int work_setup(void *arg)
{
	struct run_work *w = arg;
	const struct case_spec *c = &w->c->spec;

	if (c->command)
		return command_exec_setup(&w->cmd, c->command_line, w->ctx.src, w->ctx.dst);
	return c->wl->setup ? c->wl->setup(&w->ctx) : 0;
}

static int work_run(void *arg)
{
	struct run_work *w = arg;

	if (w->c->spec.command)
		return command_exec_run(&w->cmd);
	return w->c->spec.wl->run(&w->ctx);
}

static void work_teardown(void *arg)
{
	struct run_work *w = arg;

	if (w->c->spec.command)
		command_exec_teardown(&w->cmd);
	else if (w->c->spec.wl->teardown)
		w->c->spec.wl->teardown(&w->ctx);
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

/* A failure's detail reaches the table whole: the workload's, through the
 * child's report, into the case's reason. */
_Static_assert(sizeof(((struct child_result *)0)->msg) >= sizeof(((struct run_ctx *)0)->msg),
	       "the child's report cuts the workload's message");
_Static_assert(sizeof(((struct bench_case *)0)->why) > sizeof(((struct child_result *)0)->msg),
	       "a case's reason cuts the child's message");

static void describe_failure(struct runner *r, struct bench_case *c,
			     const struct child_result *res)
{
	char why[200];

	if (c->spec.command && res->reported && res->err && res->msg[0]) {
		snprintf(c->why, sizeof(c->why), "%s", res->msg);
	} else if (child_describe(res, "the run", why, sizeof(why))) {
		snprintf(c->why, sizeof(c->why), "%s", why);
	} else if (res->err == -ENOSPC || res->err == -EDQUOT) {
		snprintf(c->why, sizeof(c->why), "%.40s writing the copy of %.580s into %.580s (output removed)",
			 strerror(-res->err), c->spec.ds->path, c->workdir ? c->workdir : r->workdir);
	} else {
		snprintf(c->why, sizeof(c->why), "%s%s%s", strerror(-res->err),
			 res->msg[0] ? ": " : "", res->msg);
	}
}

static void fill_result(struct run_result *res, const struct child_result *ch)
{
	res->wall_ns = ch->wall_ns;
	res->cpu_wait_ns = ch->cpu_wait_ns;
	res->cpu_run_ns = ch->cpu_run_ns;
	res->user_ns = tv_ns(ch->ru_timed.ru_utime);
	res->sys_ns = tv_ns(ch->ru_timed.ru_stime);
	res->max_rss_kb = ch->ru.ru_maxrss;
	res->minflt = ch->ru_timed.ru_minflt;
	res->majflt = ch->ru_timed.ru_majflt;
	res->child_minflt = ch->ru.ru_minflt;
	res->nvcsw = ch->ru_timed.ru_nvcsw;
	res->nivcsw = ch->ru_timed.ru_nivcsw;
	res->facts = ch->facts;
}

#define WARM_ATTEMPTS 3
#define WRITEBACK_WAIT_MS 10000u

/* Marks c unavailable: the cache state it asks for cannot be reached here. */
static int cache_unreachable(struct bench_case *c, double pct)
{
	if (c->cache == CACHE_COLD)
		snprintf(c->why, sizeof(c->why),
			 "cannot evict the source from the page cache (%.0f%% resident after POSIX_FADV_DONTNEED, as on tmpfs)",
			 pct);
	else
		snprintf(c->why, sizeof(c->why),
			 "cannot keep the source in the page cache (%.0f%% resident after reading it %d times: memory pressure?)",
			 pct, WARM_ATTEMPTS);
	c->state = CASE_UNAVAILABLE;
	return -EAGAIN;
}

/*
 * Sets the cache state and checks it, reading the source again when warm
 * pages were lost; a state that cannot be reached makes the case
 * unavailable, never a run recorded in the wrong state.
 */
static int prepare_cache(struct runner *r, struct bench_case *c, struct run_result *res)
{
	int attempts = c->cache == CACHE_WARM ? WARM_ATTEMPTS : 1, err = 0;
	double *pct = &res->resident_pct;
	struct cache_report rep;

	for (int i = 0; i < attempts; i++) {
		err = cache_set_report(c->spec.ds->path, c->cache, r->o->drop_caches, &rep);
		*pct = rep.resident_pct;
		if (err || cache_state_ok(c->cache, *pct))
			break;
	}
	res->metadata = rep.metadata;
	res->file_resident_max_pct = c->spec.files ? rep.file_resident_max_pct : -1;
	if (c->cache == CACHE_COLD && rep.metadata == METADATA_CACHED)
		c->metadata_cached = true;
	if (err) {
		snprintf(c->why, sizeof(c->why), "cannot set the %s cache state: %s",
			 cache_mode_name(c->cache), strerror(-err));
		return err;
	}
	return cache_state_ok(c->cache, *pct) ? 0 : cache_unreachable(c, *pct);
}

/*
 * Writes back the dirty data and inodes of the output's filesystem
 * (syncfs, which waits for it): what earlier runs left there, the removal
 * of their outputs included. Returns how long it took.
 */
static uint64_t sync_output_fs(const char *dir)
{
	uint64_t t0 = runner_now_ns();
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
	return runner_now_ns() - t0;
}

/*
 * Makes the output's filesystem clean (syncfs) and lets the flusher finish
 * writing back what anything else left, so that no run pays for another's
 * writeback (many small files leave dirty inodes and journal work behind,
 * not only pages); records how long the syncfs took, what was pending when
 * this run starts, and whether its output will cross the dirty-background
 * threshold (writeback inside the clock).
 */
static void settle_writeback(const struct runner *r, const struct bench_case *c,
			     struct run_result *res)
{
	uint64_t limit = memstate_background_threshold();
	struct memstate m;

	res->syncfs_ns = sync_output_fs(c->workdir ? c->workdir : r->workdir);
	memstate_wait_writeback(WRITEBACK_WAIT_MS, &m);
	res->dirty_kb = m.dirty_kb;
	res->writeback_kb = m.writeback_kb;
	res->over_threshold = limit && !(c->spec.wl->flags & WORKLOAD_LIMITS) &&
			      c->spec.expect_size + m.dirty_kb * 1024 > limit;
}

/*
 * Records what outside the run may have slowed it (disturb.h): judged on
 * the child's snapshots around its clock; reported_kib also covers the gap
 * since the previous run ended (the parent's snapshots), for the record.
 */
static void note_disturbance(struct runner *r, const struct disturb_probe *start,
			     const struct disturb_probe *end, const struct child_result *ch,
			     struct run_result *res)
{
	const struct disturb_probe *before = r->seq > 1 ? &r->last_probe : start;

	res->reported_kib = end->reported_kib < 0 ? -1 : end->reported_kib - before->reported_kib;
	if (ch->reported) {
		res->disturbed = disturb_judge(&ch->d0, &ch->d1);
		if (ch->d1.written_pages > ch->d0.written_pages)
			res->written_kb = (ch->d1.written_pages - ch->d0.written_pages) *
					  (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	}
	res->disturbed |= disturb_test_mark(r->o->seed, res->seq);
	r->last_probe = *end;
}

/* Verifies the output of a run that exited well. */
static int check_output(struct bench_case *c, const char *dst)
{
	char why[sizeof(c->why)];
	struct stat st;
	int err;

	if (c->spec.command && lstat(dst, &st) && errno == ENOENT) {
		snprintf(c->why, sizeof(c->why), "verification failed: the command exited 0 but wrote nothing at {dst}");
		return -ENOENT;
	}
	err = c->spec.wl->verify(&c->spec, dst, why, sizeof(why));

	if (err) {
		snprintf(c->why, sizeof(c->why), "verification failed: %.1200s", why);
		return err;
	}
	return 0;
}

/*
 * What an output whose bytes are right is made of: any clone marks the case.
 * Holes fail it, unless it is a clone (which keeps the source's holes): a
 * copy must write every byte, and one that skips zeros is not measuring
 * the same work.
 */
static int inspect_output(struct bench_case *c, const char *dst, struct run_result *res)
{
	struct output_info info = { 0 };
	unsigned sflags = c->spec.strategy ? c->spec.strategy->flags : 0;

	if (c->spec.wl->inspect)
		c->spec.wl->inspect(&c->spec, dst, &info);
	res->output_blocks = info.blocks;
	if (info.hole_bytes && !info.shared_extents && !(sflags & STRATEGY_SHARES_EXTENTS)) {
		snprintf(c->why, sizeof(c->why),
			 "verification failed: the output has %llu bytes in holes (a copy must write every byte)",
			 (unsigned long long)info.hole_bytes);
		return -EBADMSG;
	}
	if (info.shared_extents)
		c->shared_extents = true;
	return 0;
}

/*
 * A command row's template for its source: the tree form when the source
 * is a directory, else the file form; a default without that form cannot
 * run for this workload. 0, or -EAGAIN with c marked unavailable.
 */
static int command_resolve(struct bench_case *c)
{
	const struct bench_command *cmd = c->spec.command;
	struct stat st;
	bool tree;
	char why[200];

	if (!cmd || c->spec.command_line)
		return 0;
	tree = stat(c->spec.ds->path, &st) == 0 && S_ISDIR(st.st_mode);
	c->spec.command_line = command_template(cmd, tree);
	if (cmd->twin && !strategy_find(cmd->twin) &&
	    !(tree && workload_variant_find(c->spec.wl, cmd->twin))) {
		c->spec.command_line = NULL;
		snprintf(c->why, sizeof(c->why), "bench copy has no strategy%s named %s",
			 tree ? " or tree method" : "", cmd->twin);
	} else if (!c->spec.command_line) {
		snprintf(c->why, sizeof(c->why), "the default command %s copies %s only",
			 cmd->name, tree ? "a file" : "a folder (a tree)");
	} else if (command_probe(c->spec.command_line, why, sizeof(why))) {
		c->spec.command_line = NULL;
		snprintf(c->why, sizeof(c->why), "%s", why);
	} else {
		return 0;
	}
	c->state = CASE_UNAVAILABLE;
	return -EAGAIN;
}

/* A page shared with the child, where a command row's child writes the
 * process group it starts; NULL for the other rows. */
/*
 * After a run: a verified output bench keeps (--destination fresh) stays
 * until the work directory goes; any other is removed now, and when it was
 * many files, the next run in outdir writes where they were freed.
 */
static void remove_or_keep_output(struct runner *r, const struct bench_case *c,
				  const struct run_result *res, const char *outdir,
				  const char *dst)
{
	if (res->verified && runner_keeps_output(r, c)) {
		r->kept_files += c->spec.files;
		r->kept_outputs++;
		return;
	}
	c->spec.wl->remove_output(&c->spec, dst);
	if (c->spec.wl->flags & WORKLOAD_KEEP_OUTPUTS)
		runner_note_freed(r, outdir);
}

static volatile int *command_group_page(const struct bench_case *c)
{
	void *p;

	if (!c->spec.command)
		return NULL;
	p = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int runner_run_once(struct runner *r, struct bench_case *c, bool counting,
		    struct run_result *res)
{
	struct run_work w = { .c = c };
	struct child_work work = {
		.setup = work_setup, .run = work_run, .teardown = work_teardown,
		.arg = &w, .msg = w.ctx.msg, .facts = &w.ctx.facts,
	};
	struct disturb_probe start, end;
	struct cost_stamps cs = { .start = runner_now_ns() };
	struct child_result ch;
	const char *outdir = c->workdir ? c->workdir : r->workdir;
	char dst[PATH_MAX + 32];
	int err;

	memset(res, 0, sizeof(*res));
	err = command_resolve(c);
	if (!err)
		runner_make_room(r, c, outdir);
	if (!err)
		err = prepare_cache(r, c, res);
	if (err)
		return err;
	cs.cached = runner_now_ns();
	settle_writeback(r, c, res);
	cs.settled = runner_now_ns();
	res->seq = ++r->seq;
	res->start_ns = runner_now_ns() - r->start_ns;
	res->destination = runner_destination(r, c, outdir);
	err = runner_output_path(r, c, outdir, res->seq, dst, sizeof(dst), &res->destination);
	if (err) {
		snprintf(c->why, sizeof(c->why), "cannot make a folder for the output in %.*s: %s",
			 512, outdir, strerror(-err));
		return err;
	}
	w.ctx = (struct run_ctx){
		.c = &c->spec, .src = c->spec.ds->path, .dst = dst, .src_fd = -1, .dst_fd = -1,
		.facts = { .fixed_buffers = -1 },
	};
	w.cmd = (struct command_exec){
		.timeout_s = r->o->command_timeout, .msg = w.ctx.msg, .msg_size = sizeof(w.ctx.msg),
		.group = command_group_page(c),
	};
	if (c->spec.command && !w.cmd.group) {
		snprintf(c->why, sizeof(c->why), "cannot map a page for the command's process group: %s",
			 strerror(errno));
		return -errno;
	}
	work.group = w.cmd.group;
	disturb_snapshot(&start);
	err = child_run(&work, counting ? r->sc : NULL, &ch);
	cs.reaped = cs.verified = runner_now_ns();
	cs.timed_ns = ch.wall_ns;
	runner_test_event("run %u", res->seq);
	disturb_snapshot(&end);
	note_disturbance(r, &start, &end, &ch, res);
	if (err)
		goto out_remove_output;
	if (!child_ok(&ch)) {
		describe_failure(r, c, &ch);
		err = ch.err ? ch.err : -ECHILD;
		goto out_remove_output;
	}
	fill_result(res, &ch);
	res->timed = true;
	err = check_output(c, dst);
	if (!err)
		err = inspect_output(c, dst, res);
	cs.verified = runner_now_ns();
	if (err)
		goto out_remove_output;
	res->verified = true;
	runner_inspect_output(r, c, outdir, res->seq, dst, &res->destination);
	if (counting)
		c->counts = ch.counts;
out_remove_output:
	remove_or_keep_output(r, c, res, outdir, dst);
	if (w.cmd.group)
		munmap((void *)w.cmd.group, sizeof(int));
	cs.removed = runner_now_ns();
	costs_add_run(&r->costs, c->spec.wl->name, &cs);
	return err;
}

/* ------------------------------------------------------ rounds -------- */

static void shuffle(size_t *order, size_t n, uint64_t seed, unsigned round)
{
	uint64_t state = seed ^ (0x5851f42d4c957f2dull * (round + 1));

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix64(&state) % i);
		size_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

static void show_case(struct runner *r, unsigned round, size_t k, const struct bench_case *c)
{
	char size[64], what[200];

	if (!r->progress.on)
		return;
	if (c->spec.files)	/* a tree: "500 x 4K" */
		dataset_size_name(c->spec.ds, size, sizeof(size));
	else
		format_size(c->spec.size, size, sizeof(size));
	snprintf(what, sizeof(what), "%s %s %s %s %s", c->spec.wl->name, c->spec.variant,
		 c->spec.files ? "files" : dataset_kind_name(c->spec.ds->kind), size,
		 cache_mode_name(c->cache));
	progress_case(&r->progress, round, k, r->ncases, what);
}

/*
 * How many measured runs a case gets, when --repeat does not say: at least
 * RUNS_MIN (RUNS_MIN_SLOW for runs over SLOW_RUN_NS, judged from the first
 * uncounted run), then more while the 95 % confidence interval of the median
 * is wider than +-CI_TARGET of it, until RUNS_BUDGET_NS of measured time or
 * --max-runs (10). What `bench check` needs for a verdict after its Holm
 * correction over the cases (check.c): 8 runs a side reach a smallest
 * p-value of 7.8e-5 (significant at alpha 0.01 over up to 128 cases); the
 * 7 runs of a slow case 2.9e-4 (up to 34 cases). Fewer could not be
 * judged: 5 a side (1 / 252 = 0.004) fail from 3 cases on.
 */
#define RUNS_MIN 8u
#define RUNS_MIN_SLOW 7u
#define SLOW_RUN_NS 2000000000ull
#define RUNS_BUDGET_NS 10000000000ull
#define CI_TARGET 0.02
/* --budget: a ranking neighbour this many times slower or faster is far
 * enough that a wide interval does not matter to the order. */
#define BUDGET_APART 1.5
/* --budget: an interval within +-5 % of its median settles a case with a
 * close neighbour (the order-statistic interval is wider than CI_TARGET's
 * normal one: [x(2), x(9)] at 10 runs). */
#define BUDGET_TARGET 0.05
/* A case's disturbed runs are run again at most this many times per
 * measured run it may get (then a disturbed run counts, as recorded). */
#define RETRIES_PER_RUN 1u

/* Per case, the state of its rounds. */
struct case_plan {
	unsigned min, max;	/* measured runs: at least, at most */
	bool decided;		/* min judged from an uncounted run */
	uint64_t spent_ns;	/* measured time so far */
	unsigned retries;	/* disturbed runs left out so far */
	bool done;		/* wants no more runs */
	bool want;		/* --budget: runs in this measured round */
	double cost_s;		/* --budget: one run with its work around the
				 * clock, the mean of those seen; 0: none yet */
	unsigned costed;	/* runs cost_s is the mean of */
};

static bool budgeted(const struct runner *r)
{
	return r->o->budget_s > 0 && !r->o->repeat;
}

static void plan_runs(const struct runner *r, struct case_plan *p)
{
	unsigned max = r->o->repeat ? r->o->repeat : r->o->max_runs;

	p->max = max;
	p->min = r->o->repeat ? r->o->repeat : (RUNS_MIN < max ? RUNS_MIN : max);
	if (budgeted(r))
		p->min = BUDGET_MIN_RUNS < max ? BUDGET_MIN_RUNS : max;
}

/* --budget: is its time gone? Then a disturbed run counts as recorded, as
 * it does once a case's retries are used up: the minimum is not stretched
 * by reruns past the budget. */
static double rounds_left_s(const struct runner *r)
{
	uint64_t t0 = r->invoked_ns ? r->invoked_ns : r->start_ns;

	return budget_left_s(r->o->budget_s, (double)(runner_now_ns() - t0) / 1e9,
			     runner_finish_s(r));
}

static bool budget_spent(const struct runner *r)
{
	return budgeted(r) && rounds_left_s(r) < 0;
}

double runner_finish_s(const struct runner *r)
{
	return estimate_finish_s(&r->est, r->kept_files, r->kept_outputs);
}

/* A run of c took ns from start to end, the work around its clock
 * included: the mean the budget plans by. */
static void note_cost(struct case_plan *p, uint64_t ns)
{
	p->cost_s = (p->cost_s * p->costed + (double)ns / 1e9) / (p->costed + 1);
	p->costed++;
}

unsigned runner_fewest_runs(const struct bench_opts *o)
{
	unsigned max = o->repeat ? o->repeat : o->max_runs;

	if (!o->repeat && o->budget_s > 0)
		return BUDGET_MIN_RUNS < max ? BUDGET_MIN_RUNS : max;
	return o->repeat ? o->repeat : RUNS_MIN_SLOW < max ? RUNS_MIN_SLOW : max;
}

/* Measured runs that count: verified and not retried. */
static size_t counted_runs(const struct bench_case *c, double *walls)
{
	size_t n = 0;

	for (size_t k = 0; k < c->nruns; k++)
		if (c->runs[k].verified && !c->runs[k].retried) {
			if (walls)
				walls[n] = (double)c->runs[k].wall_ns;
			n++;
		}
	return n;
}

/* Is the median of c known well enough for plan p (stats_enough_runs)? */
static bool enough_runs(const struct bench_case *c, const struct case_plan *p)
{
	double *w = calloc(c->nruns + 1, sizeof(*w));
	size_t n = counted_runs(c, w);
	bool enough = !w || stats_enough_runs(w, n, p->min, p->max, CI_TARGET);

	free(w);
	return enough;
}

static bool wants_more(const struct bench_case *c, const struct case_plan *p)
{
	if (c->state == CASE_FAILED || c->state == CASE_UNAVAILABLE)
		return false;
	if (counted_runs(c, NULL) >= p->min && p->spent_ns >= RUNS_BUDGET_NS)
		return false;
	return !enough_runs(c, p);
}

static int record(struct bench_case *c, const struct run_result *res)
{
	if (c->nruns == c->cap_runs) {
		size_t cap = c->cap_runs ? 2 * c->cap_runs : 16;
		struct run_result *p = realloc(c->runs, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		c->runs = p;
		c->cap_runs = cap;
	}
	c->runs[c->nruns] = *res;
	c->runs[c->nruns].rep = (unsigned)c->nruns + 1;
	c->nruns++;
	return 0;
}

/* Marks c failed (or unavailable, for a whole-file strategy over budget). */
static void case_failed(struct bench_case *c, int err)
{
	if (c->state != CASE_UNAVAILABLE)
		c->state = CASE_FAILED;
	if (err == -EFBIG && c->spec.strategy && (c->spec.strategy->flags & STRATEGY_WHOLE_FILE)) {
		c->state = CASE_UNAVAILABLE;
		snprintf(c->why, sizeof(c->why),
			 "the whole file does not fit the RAM budget (half of available memory)");
	}
}

/* After c's first uncounted run: a slow case gets the smaller minimum. */
static void judge_min(const struct runner *r, struct case_plan *p, uint64_t wall_ns)
{
	if (p->decided)
		return;
	p->decided = true;
	if (!r->o->repeat && !budgeted(r) && wall_ns > SLOW_RUN_NS && RUNS_MIN_SLOW < p->min)
		p->min = RUNS_MIN_SLOW;
}

/*
 * One measured run of c. A disturbed one is recorded, marked retried and
 * left out of the statistics while the case's retry budget lasts (with
 * --budget, and while its time does): the case then wants one more run,
 * which it gets in a later round, in that round's shuffled place like any
 * other run (never right after the disturbed one).
 */
static int measure(struct runner *r, struct bench_case *c, struct case_plan *p)
{
	struct run_result res;
	uint64_t start = runner_now_ns();
	int err = runner_run_once(r, c, false, &res);

	if (err == -EINTR && interrupt_signal)
		return err;
	res.retried = !err && res.disturbed && p->retries < RETRIES_PER_RUN * p->max &&
		      !budget_spent(r);
	p->retries += res.retried;
	if (res.timed && record(c, &res))
		return -ENOMEM;
	if (err)
		return err;
	p->spent_ns += res.wall_ns;
	note_cost(p, runner_now_ns() - start);
	judge_min(r, p, res.wall_ns);
	return 0;
}

/* One run of one case in a round: counting, warm-up or measured. */
static void run_case_round(struct runner *r, struct bench_case *c, enum round_kind kind,
			   struct case_plan *p)
{
	bool counting = kind == ROUND_COUNT && !(c->spec.wl->flags & WORKLOAD_UNCOUNTED);
	struct run_result res;
	int err;

	uint64_t start = runner_now_ns();

	if (p->done || c->state == CASE_FAILED || c->state == CASE_UNAVAILABLE)
		return;
	if (kind == ROUND_COUNT && !counting)
		return;
	if (kind == ROUND_MEASURE && budgeted(r) && !p->want)
		return;
	if (kind == ROUND_MEASURE) {
		err = measure(r, c, p);
		p->done = !err && !budgeted(r) && !wants_more(c, p);
	} else {
		err = runner_run_once(r, c, counting, &res);
		if (!err && !counting)
			note_cost(p, runner_now_ns() - start);
	}
	if (err == -EINTR && interrupt_signal)
		return;
	if (err) {
		case_failed(c, err);
		return;
	}
	if (kind == ROUND_WARMUP)
		judge_min(r, p, res.wall_ns);
}

/* One round over every case, in the round's shuffled order. */
static void run_round(struct runner *r, struct case_plan *plans, size_t *order,
		      unsigned round, enum round_kind kind)
{
	shuffle(order, r->ncases, r->o->seed, round);
	r->costs.round = kind == ROUND_COUNT ? COST_COUNTING :
			 kind == ROUND_WARMUP ? COST_WARMUP : COST_MEASURED;
	for (size_t k = 0; k < r->ncases && !interrupt_signal; k++) {
		struct bench_case *c = &r->cases[order[k]];

		show_case(r, round, k, c);
		run_case_round(r, c, kind, &plans[order[k]]);
	}
	if (!interrupt_signal)
		progress_round_end(&r->progress, round, r->seq);
}

/*
 * The counting runs come first, all of them, and then the counters are torn
 * down completely: while the kernel's syscall tracepoints are registered,
 * every task on the machine takes the slow system-call path, so no timed run
 * may overlap them.
 */
static void end_counting(struct runner *r)
{
	if (!r->sc)
		return;
	progress_status(&r->progress, "removing the syscall counters before the timed runs");
	syscount_session_end(r->sc);
	r->sc = NULL;
	progress_pending(&r->progress, 0);
}

static int alloc_plans(struct runner *r, struct case_plan **plans, size_t **order)
{
	*order = calloc(r->ncases, sizeof(**order));
	*plans = calloc(r->ncases, sizeof(**plans));
	if (!*order || !*plans)
		return -ENOMEM;
	for (size_t i = 0; i < r->ncases; i++) {
		plan_runs(r, &(*plans)[i]);
		if (r->cases[i].state == CASE_PENDING)
			r->cases[i].state = CASE_OK;
	}
	return 0;
}

/* Do cases a and b rank together: the same table (workload, dataset, size,
 * cache, part size, tree shape, filesystem), limit rows apart? */
static bool rank_together(const struct bench_case *a, const struct bench_case *b)
{
	return a->spec.wl == b->spec.wl && a->spec.ds->kind == b->spec.ds->kind &&
	       a->spec.size == b->spec.size && a->cache == b->cache &&
	       a->spec.part_size == b->spec.part_size && a->spec.files == b->spec.files &&
	       a->spec.file_size == b->spec.file_size && a->env == b->env;
}

/* What the budget planner knows of case i: cost, counted runs, median and
 * its 95 % interval, and its ranking (the first case it ranks with). */
static void budget_case_of(const struct runner *r, const struct case_plan *plans, size_t i,
			   struct budget_case *bc)
{
	const struct bench_case *c = &r->cases[i];
	double *w = calloc(c->nruns + 1, sizeof(*w));
	struct median_interval ci;
	size_t n = w ? counted_runs(c, w) : 0;

	memset(bc, 0, sizeof(*bc));
	bc->cost_s = plans[i].cost_s;
	if (runner_keeps_output(r, c))	/* its removal at the end */
		bc->cost_s += estimate_remove_s(&r->est, c->spec.files);
	bc->runs = n;
	bc->closed = c->state != CASE_OK;
	bc->group = BUDGET_NO_GROUP;
	for (size_t j = 0; j <= i && bc->group == BUDGET_NO_GROUP; j++)
		if (rank_together(&r->cases[j], c))
			bc->group = j;
	if (n) {
		bc->median = stats_median(w, n);
		stats_median_interval(w, n, STATS_CI_LEVEL, &ci);
		bc->lo = ci.k ? ci.lo : 0;
		bc->hi = ci.k ? ci.hi : 0;
	}
	free(w);
}

/* --budget: which cases run in the next measured round (plans[i].want);
 * false when none does. Every case is costed by its first measured run,
 * inside the minimum, before the planner chooses between cases. */
static bool budget_round(struct runner *r, struct case_plan *plans)
{
	struct budget_case *bc = calloc(r->ncases + 1, sizeof(*bc));
	bool *want = calloc(r->ncases + 1, sizeof(*want));
	struct budget_rules rules = { .min = BUDGET_MIN_RUNS, .max = r->o->max_runs,
				      .target = BUDGET_TARGET, .apart = BUDGET_APART };
	double left = rounds_left_s(r);
	size_t k = 0;

	if (!bc || !want)
		goto out_free;
	for (size_t i = 0; i < r->ncases; i++)
		budget_case_of(r, plans, i, &bc[i]);
	k = budget_next_round(bc, r->ncases, &rules, left, want);
	for (size_t i = 0; i < r->ncases; i++)
		plans[i].want = want[i];
out_free:
	free(bc);
	free(want);
	return k > 0;
}

/* The estimated cost of a run of c (estimate.h), the removal of its output
 * at the end included when it is kept. */
static double case_estimate_s(const struct runner *r, const struct bench_case *c)
{
	double s = estimate_run_s(&r->est, c);

	if (runner_keeps_output(r, c))
		s += estimate_remove_s(&r->est, c->spec.files);
	return s;
}

static bool case_closed(const struct bench_case *c)
{
	return c->state == CASE_UNAVAILABLE || c->state == CASE_FAILED;
}

double runner_budget_minimum_s(const struct runner *r)
{
	struct budget_rules rules = { .min = BUDGET_MIN_RUNS, .max = r->o->max_runs };
	struct budget_case *bc = calloc(r->ncases + 1, sizeof(*bc));
	unsigned unmeasured = r->o->warmup ? r->o->warmup : r->o->syscount != SYSCOUNT_OFF;
	double s;

	if (!bc)
		return 0;
	for (size_t i = 0; i < r->ncases; i++) {
		bc[i].cost_s = case_estimate_s(r, &r->cases[i]);
		bc[i].closed = case_closed(&r->cases[i]);
	}
	s = budget_minimum_s(bc, r->ncases, &rules, unmeasured) + estimate_finish_s(&r->est, 0, 0);
	if (r->o->syscount != SYSCOUNT_OFF)
		s += ESTIMATE_COUNTERS_S;
	free(bc);
	return s;
}

/* The plan's estimate of a round of every case that can run: what the
 * progress line counts down from before rounds are measured. */
static double plan_round_s(const struct runner *r)
{
	double s = 0;

	for (size_t i = 0; i < r->ncases; i++)
		if (!case_closed(&r->cases[i]))
			s += case_estimate_s(r, &r->cases[i]);
	return s;
}

static bool any_wants_more(const struct runner *r, const struct case_plan *plans)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (!plans[i].done && r->cases[i].state == CASE_OK)
			return true;
	return false;
}

/*
 * The rounds: the counting round (when counting), the counters removed, the
 * warm-up rounds, then measured rounds until no case wants more runs (at
 * most the largest run count plus the retries it may need). A case whose
 * first measured run was the first uncounted one (no separate warm-up)
 * judges its minimum from that run.
 */
int runner_run_all(struct runner *r)
{
	unsigned counted = r->sc ? 1 : 0, max = r->o->repeat ? r->o->repeat : r->o->max_runs;
	unsigned warm = r->o->warmup > counted ? r->o->warmup - counted : 0;
	unsigned rounds = counted + warm + max * (1 + RETRIES_PER_RUN);
	struct case_plan *plans = NULL;
	size_t *order = NULL;
	int err;

	err = alloc_plans(r, &plans, &order);
	if (err)
		goto out_free;
	r->start_ns = runner_now_ns();
	progress_rounds_begin(&r->progress, rounds, counted + warm + max);
	progress_plan(&r->progress, plan_round_s(r), counted + warm);
	progress_pending(&r->progress, counted ? ESTIMATE_COUNTERS_S : 0);
	if (budgeted(r))
		progress_budget(&r->progress, r->o->budget_s, counted + warm + BUDGET_MIN_RUNS,
				r->invoked_ns ? r->invoked_ns : r->start_ns);
	for (unsigned round = 0; round < rounds && !interrupt_signal; round++) {
		enum round_kind kind = round < counted ? ROUND_COUNT :
				       round < counted + warm ? ROUND_WARMUP : ROUND_MEASURE;

		if (round == counted)
			end_counting(r);
		if (kind == ROUND_MEASURE && budgeted(r) && !budget_round(r, plans))
			break;
		if (kind == ROUND_MEASURE && !budgeted(r) && !any_wants_more(r, plans))
			break;
		run_round(r, plans, order, round, kind);
	}
	end_counting(r);
	progress_clear(&r->progress);
	if (interrupt_signal)
		err = -EINTR;
out_free:
	free(order);
	free(plans);
	return err;
}
