// SPDX-License-Identifier: MIT
/*
 * summary.c - the figures of a row. Statistics come from the verified runs
 * only. Rows are grouped by workload, dataset, size, cache state, part size
 * and filesystem (bench --fs: rows of different filesystems are never
 * ranked together); within a group the fastest page-cache copy sets the pace (1.00x),
 * while rows that do other work (device I/O, clones) are shown but never
 * ranked against it. Each row is divided by the limit row that bounds it,
 * a like one: a single-stream copy by single-stream rows only (warm:
 * `memcpy` or `memcpy-movsb`; cold: the faster device read of one stream,
 * with readahead or O_DIRECT, of the same dataset and size), a concurrent
 * copy (threads, a queue depth, several CPUs) by the concurrent rows too
 * (`memcpy-mt`; `device-read-mt`, whose streams follow --threads and
 * --queue-depth). A single-stream copy's share of the concurrent bound is
 * kept apart (pct_of_concurrent_limit), so that an option of another
 * strategy never moves its %limit.
 */
#include "summary.h"
#include "lib/stats.h"
#include "workloads/channels/channel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

const char *case_class_name(enum case_class cls)
{
	static const char *const names[] = {
		[CLASS_PAGE_CACHE] = "page-cache", [CLASS_DEVICE] = "device",
		[CLASS_CLONE] = "clone", [CLASS_LIMIT] = "limit", [CLASS_COMMAND] = "command",
	};

	return names[cls];
}

bool case_same_cell(const struct bench_case *a, const struct bench_case *b)
{
	return a->spec.wl == b->spec.wl && a->spec.ds->kind == b->spec.ds->kind &&
	       a->spec.size == b->spec.size && a->cache == b->cache &&
	       a->spec.part_size == b->spec.part_size && a->spec.files == b->spec.files &&
	       a->spec.file_size == b->spec.file_size;
}

bool case_same_group(const struct bench_case *a, const struct bench_case *b)
{
	return case_same_cell(a, b) && a->env == b->env;
}

const struct sysinfo_env *case_env(const struct runner *r, const struct bench_case *c)
{
	return c->env ? c->env : &r->env;
}

/* A channel that wrote its output around the page cache (O_DIRECT). */
static bool device_channel(const struct bench_case *c)
{
	return c->spec.channel && (c->spec.channel->flags & CHANNEL_DEVICE_IO) &&
	       !c->direct_refused;
}

static enum case_class case_class_of(const struct bench_case *c)
{
	unsigned sflags = c->spec.strategy ? c->spec.strategy->flags : 0;

	if (c->spec.wl->flags & WORKLOAD_LIMITS)
		return CLASS_LIMIT;
	if (c->spec.command)
		return CLASS_COMMAND;
	if (c->shared_extents || (sflags & STRATEGY_SHARES_EXTENTS))
		return CLASS_CLONE;
	if ((sflags & STRATEGY_DEVICE_IO) || device_channel(c))
		return CLASS_DEVICE;
	return CLASS_PAGE_CACHE;
}

/* The limit kind of case c, when it is a limit row; LIMIT_NONE otherwise. */
static enum limit_kind limit_row_kind(const struct bench_case *c)
{
	const struct workload_variant *v;

	if (!(c->spec.wl->flags & WORKLOAD_LIMITS))
		return LIMIT_NONE;
	v = workload_variant_find(c->spec.wl, c->spec.variant);
	return v ? v->bounds : LIMIT_NONE;
}

/* Which kind of limit row bounds case c (cold page-cache copies: any
 * device row, whichever read fastest). */
static enum limit_kind bound_of(const struct bench_case *c)
{
	unsigned sflags = c->spec.strategy ? c->spec.strategy->flags : 0;

	if (sflags & STRATEGY_DEVICE_IO)
		return LIMIT_DEVICE_DIRECT;
	if (device_channel(c))
		return LIMIT_NONE;	/* no row measures the device's writes */
	if (c->cache == CACHE_COLD)
		return LIMIT_DEVICE;
	if ((sflags & STRATEGY_MULTI_CPU) || (c->spec.wl->flags & WORKLOAD_MULTI_CPU))
		return LIMIT_MEMCPY_MT;
	return LIMIT_MEMCPY;
}

/* Does c keep more than one stream of work going (threads, a queue depth,
 * several CPUs)? */
static bool case_concurrent(const struct bench_case *c)
{
	unsigned sflags = c->spec.strategy ? c->spec.strategy->flags : 0;

	return (sflags & (STRATEGY_MULTI_CPU | STRATEGY_THREADS | STRATEGY_QUEUE_DEPTH)) ||
	       (c->spec.wl->flags & WORKLOAD_MULTI_CPU);
}

/* Is limit row l one of several streams (memcpy-mt, device-read-mt)? */
static bool limit_row_concurrent(const struct bench_case *l)
{
	const struct workload_variant *v = workload_variant_find(l->spec.wl, l->spec.variant);

	return v && (v->flags & (VARIANT_CONCURRENT | VARIANT_MULTI_CPU));
}

/* Can a limit row of kind `row` bound a case that wants `want`? Several
 * rows measure one bound in different ways (the device with and without
 * readahead, with one request in flight or several; one CPU with memcpy
 * and with rep movsb, and the all-CPU bound is at least the one-CPU one):
 * the fastest of them is the bound. */
static bool limit_fits(enum limit_kind row, enum limit_kind want)
{
	return row == want || (want == LIMIT_DEVICE && row == LIMIT_DEVICE_DIRECT) ||
	       (want == LIMIT_MEMCPY_MT && row == LIMIT_MEMCPY);
}

/* The kind of bound the concurrent rows of want's resource measure. */
static enum limit_kind concurrent_bound(enum limit_kind want)
{
	return want == LIMIT_MEMCPY ? LIMIT_MEMCPY_MT : want;
}

static bool reads_source(enum limit_kind kind)
{
	return kind == LIMIT_DEVICE || kind == LIMIT_DEVICE_DIRECT;
}

/* The fastest limit row that fits `kind` for c, on its filesystem (device
 * rows: the same dataset too), of one stream unless `concurrent`; -1 when
 * there is none. */
static ssize_t find_limit(const struct runner *r, const struct case_summary *sums,
			  const struct bench_case *c, enum limit_kind kind, bool concurrent)
{
	ssize_t best = -1;

	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *l = &r->cases[i];

		if (!limit_fits(limit_row_kind(l), kind) || l->spec.size != c->spec.size ||
		    l->env != c->env ||
		    (reads_source(kind) && l->spec.ds->kind != c->spec.ds->kind) ||
		    sums[i].mib_per_s <= 0 || (!concurrent && limit_row_concurrent(l)))
			continue;
		if (best < 0 || sums[i].mib_per_s > sums[best].mib_per_s)
			best = (ssize_t)i;
	}
	return best;
}

/*
 * Marks the counted runs far from the median as outliers: a robust z-score
 * (x - median) / (1.4826 MAD) beyond STATS_OUTLIER_Z (lib/stats.h). They
 * stay in the statistics (the median is the figure); the count tells how
 * many there were.
 */

static size_t mark_outliers(struct bench_case *c, const struct stats *st)
{
	double scale = STATS_MAD_TO_SD * st->mad;
	size_t n = 0;

	for (size_t k = 0; k < c->nruns; k++) {
		struct run_result *x = &c->runs[k];

		x->outlier = x->verified && !x->retried && scale > 0 &&
			     fabs((double)x->wall_ns - st->median) > STATS_OUTLIER_Z * scale;
		n += x->outlier;
	}
	return n;
}

/* Statistics of the counted runs: verified and not retried. */
static void summarize_runs(struct bench_case *c, struct case_summary *s)
{
	double *w = calloc(c->nruns + 1, sizeof(double));
	double *u = calloc(c->nruns + 1, sizeof(double));
	double *y = calloc(c->nruns + 1, sizeof(double));
	size_t n = 0;

	memset(s, 0, sizeof(*s));
	for (size_t k = 0; w && u && y && k < c->nruns; k++) {
		s->verified += c->runs[k].verified;
		s->retried += c->runs[k].retried;
		if (!c->runs[k].verified || c->runs[k].retried)
			continue;
		w[n] = (double)c->runs[k].wall_ns;
		u[n] = (double)c->runs[k].user_ns;
		y[n++] = (double)c->runs[k].sys_ns;
	}
	s->counted = n;
	if (w && u && y) {
		stats_compute(w, n, &s->st);
		s->user_ns = stats_median(u, n);
		s->sys_ns = stats_median(y, n);
		s->outliers = mark_outliers(c, &s->st);
		modes_detect(w, n, &s->modes);
	}
	s->ci_pct = s->st.ci_coverage > 0 && s->st.median > 0 ?
		    50.0 * (s->st.ci_hi - s->st.ci_lo) / s->st.median : -1;
	if (s->st.median > 0) {
		s->mib_per_s = (double)c->spec.size / MIB / (s->st.median / 1e9);
		s->files_per_s = (double)c->spec.files / (s->st.median / 1e9);
	}
	s->cls = case_class_of(c);
	free(w);
	free(u);
	free(y);
}

/* The fastest row of class cls in i's group; -1 when none. */
static ssize_t group_pace(const struct runner *r, const struct case_summary *sums, size_t i,
			  enum case_class cls)
{
	ssize_t best = -1;

	for (size_t j = 0; j < r->ncases; j++)
		if (case_same_group(&r->cases[i], &r->cases[j]) && r->cases[j].state == CASE_OK &&
		    sums[j].cls == cls && sums[j].st.median > 0 &&
		    (best < 0 || sums[j].st.median < sums[best].st.median))
			best = (ssize_t)j;
	return best;
}

/*
 * The ratio's interval: the slowest this row's median may be over the
 * fastest the pace row's may be, and the other way round. Both intervals
 * hold at 95 % at least, so the pair holds at 90 % at least (Bonferroni);
 * none for the pace row itself, whose ratio is 1 by definition.
 */
static void ratio_interval(struct case_summary *s, const struct case_summary *pace)
{
	s->ratio_lo = s->ratio_hi = 0;
	if (s == pace || s->st.ci_coverage <= 0 || pace->st.ci_coverage <= 0 ||
	    pace->st.ci_lo <= 0 || pace->st.ci_hi <= 0)
		return;
	s->ratio_lo = s->st.ci_lo / pace->st.ci_hi;
	s->ratio_hi = s->st.ci_hi / pace->st.ci_lo;
}

static void rank_and_bound(const struct runner *r, struct case_summary *sums, size_t i)
{
	const struct bench_case *c = &r->cases[i];
	struct case_summary *s = &sums[i];
	ssize_t lim, pace;

	s->pct_of_limit = s->pct_of_concurrent = -1;
	if (s->cls == CLASS_PAGE_CACHE || s->cls == CLASS_LIMIT || s->cls == CLASS_COMMAND) {
		/* like with like: a command (a whole process, its start-up in
		 * the clock) against the fastest command, a copy against the
		 * fastest copy */
		pace = group_pace(r, sums, i, s->cls);
		s->ratio = pace >= 0 && s->st.median > 0 ? s->st.median / sums[pace].st.median : 0;
		if (s->ratio > 0)
			ratio_interval(s, &sums[pace]);
	}
	/* the limit rows time the work alone, not a process around it */
	if (s->mib_per_s <= 0 || s->cls == CLASS_LIMIT || s->cls == CLASS_CLONE ||
	    s->cls == CLASS_COMMAND)
		return;
	if (bound_of(c) == LIMIT_NONE)
		return;
	lim = find_limit(r, sums, c, bound_of(c), case_concurrent(c));
	if (lim >= 0) {
		s->pct_of_limit = 100.0 * s->mib_per_s / sums[lim].mib_per_s;
		s->limit_row = r->cases[lim].spec.variant;
	}
	if (case_concurrent(c))
		return;
	/* the concurrent bound, apart: what several streams reach here */
	lim = find_limit(r, sums, c, concurrent_bound(bound_of(c)), true);
	if (lim >= 0 && limit_row_concurrent(&r->cases[lim])) {
		s->pct_of_concurrent = 100.0 * s->mib_per_s / sums[lim].mib_per_s;
		s->concurrent_row = r->cases[lim].spec.variant;
	}
}

/* Rows that take a place: the ranked classes, run and measured. */
static bool takes_place(const struct runner *r, const struct case_summary *sums, size_t i)
{
	return (sums[i].cls == CLASS_PAGE_CACHE || sums[i].cls == CLASS_LIMIT) &&
	       r->cases[i].state == CASE_OK && sums[i].st.median > 0;
}

static bool same_ranking(const struct runner *r, const struct case_summary *sums, size_t i,
			 size_t j)
{
	return takes_place(r, sums, j) && sums[j].cls == sums[i].cls &&
	       case_same_group(&r->cases[i], &r->cases[j]);
}

/* Do the medians' intervals of rows i and j overlap (or is one unknown)? */
static bool intervals_overlap(const struct case_summary *a, const struct case_summary *b)
{
	if (a->ci_pct < 0 || b->ci_pct < 0)
		return true;
	return a->st.ci_lo <= b->st.ci_hi && b->st.ci_lo <= a->st.ci_hi;
}

/* The place of row i in its ranking (ties of the median broken by order)
 * and whether its interval overlaps its neighbours'. */
static void rank_row(const struct runner *r, struct case_summary *sums, size_t i)
{
	ssize_t above = -1, below = -1;
	double m = sums[i].st.median;

	sums[i].rank = 1;
	for (size_t j = 0; j < r->ncases; j++) {
		double mj = sums[j].st.median;
		bool before = mj < m || (mj == m && j < i);

		if (j == i || !same_ranking(r, sums, i, j))
			continue;
		sums[i].rank += before;
		if (before && (above < 0 || mj > sums[above].st.median ||
			       (mj == sums[above].st.median && j > (size_t)above)))
			above = (ssize_t)j;
		if (!before && (below < 0 || mj < sums[below].st.median))
			below = (ssize_t)j;
	}
	sums[i].tied = (above >= 0 && intervals_overlap(&sums[i], &sums[above])) ||
		       (below >= 0 && intervals_overlap(&sums[i], &sums[below]));
}

void report_summarize(struct runner *r, struct case_summary *sums)
{
	for (size_t i = 0; i < r->ncases; i++)
		summarize_runs(&r->cases[i], &sums[i]);
	for (size_t i = 0; i < r->ncases; i++)
		rank_and_bound(r, sums, i);
	for (size_t i = 0; i < r->ncases; i++)
		if (takes_place(r, sums, i))
			rank_row(r, sums, i);
}
