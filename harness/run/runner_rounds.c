// SPDX-License-Identifier: MIT
/*
 * runner_rounds.c - the rounds of the measurement loop: every case once a
 * round, in a seeded shuffled order; how many measured runs a case gets
 * (adaptive, --repeat or --budget); the disturbed runs run again. One run
 * of one case is runner.c's (runner_run_once).
 */
#include "budget.h"
#include "runner.h"
#include "host/interrupt.h"
#include "lib/rng.h"
#include "lib/stats.h"
#include "lib/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum round_kind { ROUND_COUNT, ROUND_WARMUP, ROUND_MEASURE };

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
 * OPTIONS_RUNS_MIN (OPTIONS_RUNS_MIN_SLOW for runs over SLOW_RUN_NS, judged
 * from the first uncounted run), then more while the 95 % confidence
 * interval of the median is wider than +-CI_TARGET of it, until
 * RUNS_BUDGET_NS of measured time or --max-runs (the numbers are
 * options/options.h's). What `bench check` needs for a verdict after its Holm
 * correction over the cases (check_timing.c): 8 runs a side reach a smallest
 * p-value of 7.8e-5 (significant at alpha 0.01 over up to 128 cases); the
 * 7 runs of a slow case 2.9e-4 (up to 34 cases). Fewer could not be
 * judged: 5 a side (1 / 252 = 0.004) fail from 3 cases on.
 */
#define SLOW_RUN_NS (OPTIONS_SLOW_RUN_S * 1000000000ull)
#define RUNS_BUDGET_NS (OPTIONS_RUNS_TIME_S * 1000000000ull)
#define CI_TARGET (OPTIONS_CI_TARGET_PCT / 100.0)
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
	p->min = r->o->repeat ? r->o->repeat : (OPTIONS_RUNS_MIN < max ? OPTIONS_RUNS_MIN : max);
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
	return o->repeat ? o->repeat : OPTIONS_RUNS_MIN_SLOW < max ? OPTIONS_RUNS_MIN_SLOW : max;
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
	if (!r->o->repeat && !budgeted(r) && wall_ns > SLOW_RUN_NS && OPTIONS_RUNS_MIN_SLOW < p->min)
		p->min = OPTIONS_RUNS_MIN_SLOW;
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
