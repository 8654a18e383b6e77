// SPDX-License-Identifier: MIT
/*
 * history_changes.c - `bench history changes`: the commits where a case's
 * level shifted.
 *
 * The series of a case is its level per commit (history_series.c: the
 * median of the commit's runs' fastest reps, the figure `check` judges). A
 * segment of it is split where Pettitt's statistic, standardised, is
 * largest:
 *
 *   K = max over t of |U_t| / sqrt(t (n - t) (n + 1) / 3),
 *   U_t = 2 W_t - t (n + 1),
 *
 * W_t being the sum of the ranks of the first t values among the segment's
 * n (mid-ranks for ties): U_t is twice the Mann-Whitney U of the values
 * before t against those after it, centred, and the root its standard
 * deviation when nothing changed. Ranks make it blind to the shape of the
 * noise, and an outlier commit weighs no more than any other. Whether K is
 * more than noise is a permutation test: the same ranks shuffled
 * HISTORY_PERMUTATIONS times (a fixed seed, so the answer is the same every
 * time), p the share of shuffles whose K is at least as large.
 *
 * Ranks say whether the segment changed, not well where: they ignore how
 * far apart values are, and the largest K can sit a few commits off (20
 * commits then 10 slower ones were split at the 17th, the 18th and 19th
 * being on the slow side of the first 20). The split is therefore placed
 * where the two sides' absolute deviations from their own medians (of the
 * logs: relative) add up least, which weighs the size of the step and is as
 * robust to an outlier. A split with p < alpha whose sides' medians differ
 * by at least min_shift is a change point, and both sides are searched again
 * (binary segmentation) until no split qualifies.
 *
 * What it cannot see: a shift in the last commit (a segment side needs
 * HISTORY_MIN_SEGMENT commits), and shifts under min_shift; docs/history.md
 * says more.
 */
#include "history_internal.h"
#include "lib/rng.h"
#include "lib/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY_PERMUTATIONS 999
#define HISTORY_MIN_SEGMENT 2

/* ------------------------------------------------------------ method -- */

struct segmenter {
	const double *v;	/* the values, in commit order */
	double *rank, *perm;	/* work: n each */
	double alpha, min_shift;
	struct history_change *out;
	const size_t *at;	/* commit index of each value */
	size_t n, max, found;
};

static int cmp_double_idx(const void *a, const void *b, void *arg)
{
	const double *v = arg;
	double x = v[*(const size_t *)a], y = v[*(const size_t *)b];

	return (x > y) - (x < y);
}

/* Mid-ranks (1..n) of v[0..n) into rank. 0 or -ENOMEM. */
static int mid_ranks(const double *v, size_t n, double *rank)
{
	size_t *idx = malloc(n * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_double_idx, (void *)v);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && v[idx[j + 1]] == v[idx[i]])
			j++;
		for (size_t k = i; k <= j; k++)
			rank[idx[k]] = (double)(i + j) / 2 + 1;
		i = j + 1;
	}
	free(idx);
	return 0;
}

/* K over splits leaving HISTORY_MIN_SEGMENT on each side; *at: the first
 * index of the right side of the largest. */
static double pettitt(const double *rank, size_t n, size_t *at)
{
	double w = 0, best = -1;

	for (size_t t = 1; t + HISTORY_MIN_SEGMENT <= n; t++) {
		double u, sd = sqrt((double)t * (double)(n - t) * (double)(n + 1) / 3);

		w += rank[t - 1];
		u = fabs(2 * w - (double)t * (double)(n + 1)) / sd;
		if (t >= HISTORY_MIN_SEGMENT && u > best + 1e-12) {
			best = u;
			*at = t;
		}
	}
	return best;
}

/* The permutation p-value of K for these ranks. */
static double pettitt_p(const double *rank, double *perm, size_t n, double k, uint64_t seed)
{
	size_t at, hits = 0;

	memcpy(perm, rank, n * sizeof(*perm));
	for (int p = 0; p < HISTORY_PERMUTATIONS; p++) {
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)(splitmix64(&seed) % (i + 1));
			double t = perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		hits += pettitt(perm, n, &at) >= k - 1e-12;
	}
	return (double)(hits + 1) / (HISTORY_PERMUTATIONS + 1);
}

/* The sum of |log v_i - median of the logs| over v[0..n). */
static double abs_dev(const double *logv, size_t n)
{
	double m = stats_sample_median(logv, n), sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += fabs(logv[i] - m);
	return sum;
}

/* The split of v[0..n) (logs in work) whose sides deviate least from their
 * medians: the first index of its right side. */
static size_t least_deviation_split(const double *v, size_t n, double *work)
{
	double best = INFINITY;
	size_t at = HISTORY_MIN_SEGMENT;

	for (size_t i = 0; i < n; i++)
		work[i] = log(v[i]);
	for (size_t t = HISTORY_MIN_SEGMENT; t + HISTORY_MIN_SEGMENT <= n; t++) {
		double cost = abs_dev(work, t) + abs_dev(work + t, n - t);

		if (cost < best - 1e-12) {
			best = cost;
			at = t;
		}
	}
	return at;
}

static void record(struct segmenter *sg, size_t lo, size_t at, size_t hi, double p)
{
	struct history_change *c;

	if (sg->found == sg->max)
		return;
	c = &sg->out[sg->found++];
	c->at = sg->at[at];
	c->before = stats_sample_median(sg->v + lo, at - lo);
	c->after = stats_sample_median(sg->v + at, hi - at);
	c->p = p;
}

/* Binary segmentation of v[lo, hi). 0 or -ENOMEM. */
static int segment(struct segmenter *sg, size_t lo, size_t hi)
{
	size_t n = hi - lo, at = 0;
	double k, p, shift;

	if (n < 2 * HISTORY_MIN_SEGMENT)
		return 0;
	if (mid_ranks(sg->v + lo, n, sg->rank))
		return -ENOMEM;
	k = pettitt(sg->rank, n, &at);
	p = pettitt_p(sg->rank, sg->perm, n, k, 0x5eedull ^ ((uint64_t)lo << 32) ^ hi);
	if (p >= sg->alpha)
		return 0;
	at = lo + least_deviation_split(sg->v + lo, n, sg->perm);
	shift = stats_sample_median(sg->v + at, hi - at) / stats_sample_median(sg->v + lo, at - lo) - 1;
	if (fabs(shift) < sg->min_shift)
		return 0;
	record(sg, lo, at, hi, p);
	if (segment(sg, lo, at))
		return -ENOMEM;
	return segment(sg, at, hi);
}

static int cmp_change(const void *a, const void *b)
{
	const struct history_change *x = a, *y = b;

	return (x->at > y->at) - (x->at < y->at);
}

long history_change_points(const struct history_series *s, size_t ncommits,
			   double alpha, double min_shift,
			   struct history_change *out, size_t max)
{
	struct segmenter sg = { .alpha = alpha, .min_shift = min_shift, .out = out, .max = max };
	double *v = malloc((ncommits + 1) * sizeof(*v));
	size_t *at = malloc((ncommits + 1) * sizeof(*at));
	int err = -ENOMEM;

	sg.rank = malloc((ncommits + 1) * sizeof(double));
	sg.perm = malloc((ncommits + 1) * sizeof(double));
	if (!v || !at || !sg.rank || !sg.perm)
		goto out_free;
	for (size_t k = 0; k < ncommits; k++) {
		if (isnan(s->level_ns[k]))
			continue;
		v[sg.n] = s->level_ns[k];
		at[sg.n++] = k;
	}
	sg.v = v;
	sg.at = at;
	err = segment(&sg, 0, sg.n);
	qsort(out, sg.found, sizeof(*out), cmp_change);
out_free:
	free(v);
	free(at);
	free(sg.rank);
	free(sg.perm);
	return err ? err : (long)sg.found;
}

/* --------------------------------------------------------------- run -- */

static double mib_s(uint64_t size, double ns)
{
	return (double)size / 1048576.0 / (ns / 1e9);
}

/* The lines of one case. Its number of change points, or -ENOMEM. */
static long changes_case(const struct history_set *s, const struct history_series *se,
			 const struct history_changes_opts *o, const struct history_io *io)
{
	struct history_change c[64];
	long n = history_change_points(se, s->ncommits, o->alpha, o->min_shift, c, 64);

	if (n < 0)
		return n;
	if (n == 0)
		fprintf(io->out, "%s: no change over %zu commits\n", se->label, se->npoints);
	for (long i = 0; i < n; i++) {
		const struct history_commit *k = &s->commits[c[i].at];

		fprintf(io->out, "%s: level shift at commit %s (%s, commit %zu of %zu): fastest rep %.1f -> %.1f MiB/s (%+.1f%%), p %.3f\n",
			se->label, k->sha, k->date, c[i].at + 1, s->ncommits,
			mib_s(se->size, c[i].before), mib_s(se->size, c[i].after),
			(c[i].before / c[i].after - 1) * 100, c[i].p);
	}
	return n;
}

int history_changes(const struct history_changes_opts *o, const struct history_io *io)
{
	struct history_set s;
	struct history_db h;
	char env[512];
	long total = 0, n;
	int ret;

	if (history_db_open(&h, o->db, false, io))
		return 2;
	ret = 2;
	if (history_set_load(&h, &o->f, &s, io))
		goto out_close;
	history_env_text(&s.env, env, sizeof(env));
	fprintf(io->out, "history: %s; %zu commits, %zu runs%s%s\n", env, s.ncommits, s.nruns,
		o->f.branch ? " of branch " : "", o->f.branch ? o->f.branch : "");
	for (size_t i = 0; i < s.nseries; i++) {
		n = changes_case(&s, &s.series[i], o, io);
		if (n < 0)
			goto out_free;
		total += n;
	}
	fprintf(io->out, "%zu cases, %ld level shifts in the fastest rep of each run (Pettitt's rank statistic with %d permutations, alpha %g; binary segmentation; shifts under %g%% not listed)\n",
		s.nseries, total, HISTORY_PERMUTATIONS, o->alpha, o->min_shift * 100);
	if (s.nother)
		fprintf(io->out, "note: %zu runs of other hosts, kernels, filesystems or builds left out (bench history export lists every run)\n", s.nother);
	ret = 0;
out_free:
	history_set_free(&s);
out_close:
	history_db_close(&h);
	return ret;
}
