// SPDX-License-Identifier: MIT
/*
 * summary.c - the figures of a row. Statistics come from the verified runs
 * only. Rows are grouped by workload, dataset, size, cache state, part size
 * and filesystem (bench --fs: rows of different filesystems are never
 * ranked together); within a group the fastest page-cache copy sets the pace (1.00x),
 * while rows that do other work (device I/O, clones) are shown but never
 * ranked against it. Each row is divided by the limit row that bounds it:
 * warm single-CPU copies by `memcpy`, warm multi-CPU copies by `memcpy-mt`,
 * cold copies by the fastest device read of the same dataset and size (one
 * stream with readahead, as many streams as the most concurrent strategy
 * keeps requests in flight, or O_DIRECT).
 */
#include "summary.h"
#include "channel.h"

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

static bool reads_source(enum limit_kind kind)
{
	return kind == LIMIT_DEVICE || kind == LIMIT_DEVICE_DIRECT;
}

/* The fastest limit row that fits `kind` for c, on its filesystem (device
 * rows: the same dataset too); -1 when there is none. */
static ssize_t find_limit(const struct runner *r, const struct case_summary *sums,
			  const struct bench_case *c, enum limit_kind kind)
{
	ssize_t best = -1;

	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *l = &r->cases[i];

		if (!limit_fits(limit_row_kind(l), kind) || l->spec.size != c->spec.size ||
		    l->env != c->env ||
		    (reads_source(kind) && l->spec.ds->kind != c->spec.ds->kind) ||
		    sums[i].mib_per_s <= 0)
			continue;
		if (best < 0 || sums[i].mib_per_s > sums[best].mib_per_s)
			best = (ssize_t)i;
	}
	return best;
}

/*
 * Marks the counted runs far from the median as outliers: a robust z-score
 * (x - median) / (1.4826 MAD) beyond OUTLIER_Z (Iglewicz and Hoaglin's
 * modified z-score rule). They stay in the statistics (the median is the
 * figure); the count tells how many there were.
 */
#define OUTLIER_Z 3.5

static size_t mark_outliers(struct bench_case *c, const struct stats *st)
{
	double scale = 1.4826 * st->mad;
	size_t n = 0;

	for (size_t k = 0; k < c->nruns; k++) {
		struct run_result *x = &c->runs[k];

		x->outlier = x->verified && !x->retried && scale > 0 &&
			     fabs((double)x->wall_ns - st->median) > OUTLIER_Z * scale;
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
	if (s->st.median > 0) {
		s->mib_per_s = (double)c->spec.size / MIB / (s->st.median / 1e9);
		s->files_per_s = (double)c->spec.files / (s->st.median / 1e9);
	}
	s->cls = case_class_of(c);
	free(w);
	free(u);
	free(y);
}

/* Median of the fastest row of class cls in i's group; 0 when none. */
static double group_pace(const struct runner *r, const struct case_summary *sums, size_t i,
			 enum case_class cls)
{
	double best = 0;

	for (size_t j = 0; j < r->ncases; j++)
		if (case_same_group(&r->cases[i], &r->cases[j]) && r->cases[j].state == CASE_OK &&
		    sums[j].cls == cls && sums[j].st.median > 0 &&
		    (best == 0 || sums[j].st.median < best))
			best = sums[j].st.median;
	return best;
}

static void rank_and_bound(const struct runner *r, struct case_summary *sums, size_t i)
{
	const struct bench_case *c = &r->cases[i];
	struct case_summary *s = &sums[i];
	ssize_t lim;
	double pace;

	s->pct_of_limit = -1;
	if (s->cls == CLASS_PAGE_CACHE || s->cls == CLASS_LIMIT || s->cls == CLASS_COMMAND) {
		/* like with like: a command (a whole process, its start-up in
		 * the clock) against the fastest command, a copy against the
		 * fastest copy */
		pace = group_pace(r, sums, i, s->cls);
		s->ratio = pace > 0 && s->st.median > 0 ? s->st.median / pace : 0;
	}
	/* the limit rows time the work alone, not a process around it */
	if (s->mib_per_s <= 0 || s->cls == CLASS_LIMIT || s->cls == CLASS_CLONE ||
	    s->cls == CLASS_COMMAND)
		return;
	if (bound_of(c) == LIMIT_NONE)
		return;
	lim = find_limit(r, sums, c, bound_of(c));
	if (lim < 0)
		return;
	s->pct_of_limit = 100.0 * s->mib_per_s / sums[lim].mib_per_s;
	s->limit_row = r->cases[lim].spec.variant;
}

void report_summarize(struct runner *r, struct case_summary *sums)
{
	for (size_t i = 0; i < r->ncases; i++)
		summarize_runs(&r->cases[i], &sums[i]);
	for (size_t i = 0; i < r->ncases; i++)
		rank_and_bound(r, sums, i);
}
