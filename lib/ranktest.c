// SPDX-License-Identifier: MIT
/*
 * ranktest.c - Mann-Whitney U: exact for small samples, normal
 * approximation with tie correction for large ones.
 *
 * Ranks are kept doubled (a mid-rank of a tie group is (first + last) / 2,
 * so twice it is an integer); the exact distribution is then a count of the
 * subsets of the pooled doubled ranks by their sum, built by dynamic
 * programming. Under the null hypothesis every subset of size n is equally
 * likely to be x's, tie pattern included, so the counts give exact p-values
 * even with ties.
 */
#include "ranktest.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

struct rank_obs {
	double v;
	int from_x;
};

static int rank_obs_cmp(const void *a, const void *b)
{
	const struct rank_obs *p = a, *q = b;

	return (p->v > q->v) - (p->v < q->v);
}

/*
 * Fills rank2[i] with twice the mid-rank of the i-th sorted observation and
 * returns the tie term sum(t^3 - t) over the tie groups.
 */
static double rank_assign(const struct rank_obs *o, size_t N, unsigned *rank2)
{
	double ties = 0;
	size_t i = 0;

	while (i < N) {
		size_t j = i + 1;

		while (j < N && o[j].v == o[i].v)
			j++;
		for (size_t k = i; k < j; k++)
			rank2[k] = (unsigned)(i + 1 + j);
		ties += (double)(j - i) * (double)(j - i) * (double)(j - i) -
			(double)(j - i);
		i = j;
	}
	return ties;
}

/*
 * Exact tails: among all n-subsets of rank2[0..N), the share whose sum is
 * >= s2 (greater) and <= s2 (less).
 */
static int rank_exact(const unsigned *rank2, size_t N, size_t n,
		      unsigned long s2, double *greater, double *less)
{
	unsigned long smax = 0;
	double *cnt, total = 0, ge = 0, le = 0;

	for (size_t i = 0; i < N; i++)
		smax += rank2[i];
	cnt = calloc((n + 1) * (smax + 1), sizeof(*cnt));
	if (!cnt)
		return -ENOMEM;
	cnt[0] = 1;	/* cnt[k * (smax + 1) + s]: k items chosen, sum s */
	for (size_t i = 0; i < N; i++) {
		size_t kmax = i + 1 < n ? i + 1 : n;

		for (size_t k = kmax; k >= 1; k--) {
			double *to = cnt + k * (smax + 1);
			const double *from = cnt + (k - 1) * (smax + 1);

			for (unsigned long s = smax; s >= rank2[i]; s--)
				to[s] += from[s - rank2[i]];
		}
	}
	for (unsigned long s = 0; s <= smax; s++) {
		double c = cnt[n * (smax + 1) + s];

		total += c;
		if (s >= s2)
			ge += c;
		if (s <= s2)
			le += c;
	}
	free(cnt);
	*greater = ge / total;
	*less = le / total;
	return 0;
}

static void rank_normal(double u, size_t n, size_t m, double ties,
			struct rank_result *r)
{
	double N = (double)(n + m), nm = (double)n * (double)m;
	double var = nm / 12.0 * ((N + 1) - ties / (N * (N - 1)));
	double mu = nm / 2.0, sd;

	if (var <= 0) {		/* every value equal */
		r->p_greater = r->p_less = 1;
		return;
	}
	sd = sqrt(var);
	r->p_greater = 0.5 * erfc((u - mu - 0.5) / sd / M_SQRT2);
	r->p_less = 0.5 * erfc(-(u - mu + 0.5) / sd / M_SQRT2);
	if (r->p_greater > 1)
		r->p_greater = 1;
	if (r->p_less > 1)
		r->p_less = 1;
}

int rank_mann_whitney(const double *x, size_t n, const double *y, size_t m,
		      struct rank_result *r)
{
	size_t N = n + m;
	struct rank_obs *o;
	unsigned *rank2;
	unsigned long s2 = 0;
	double ties;
	int err = 0;

	if (!n || !m)
		return -EINVAL;
	o = malloc(N * sizeof(*o));
	rank2 = malloc(N * sizeof(*rank2));
	if (!o || !rank2) {
		err = -ENOMEM;
		goto out_free;
	}
	for (size_t i = 0; i < N; i++) {
		o[i].v = i < n ? x[i] : y[i - n];
		o[i].from_x = i < n;
		if (isnan(o[i].v)) {
			err = -EINVAL;
			goto out_free;
		}
	}
	qsort(o, N, sizeof(*o), rank_obs_cmp);
	ties = rank_assign(o, N, rank2);
	for (size_t i = 0; i < N; i++)
		if (o[i].from_x)
			s2 += rank2[i];
	r->u = (double)s2 / 2.0 - (double)n * (double)(n + 1) / 2.0;
	r->exact = N <= RANK_EXACT_MAX;
	if (r->exact)
		err = rank_exact(rank2, N, n, s2, &r->p_greater, &r->p_less);
	else
		rank_normal(r->u, n, m, ties, r);
out_free:
	free(rank2);
	free(o);
	return err;
}

double rank_min_p(size_t n, size_t m)
{
	double c = 1;

	if (!n || !m)
		return 1;
	if (n > m) {
		size_t t = n;

		n = m;
		m = t;
	}
	for (size_t i = 1; i <= n; i++)	/* C(n + m, n), built exactly */
		c = c * (double)(m + i) / (double)i;
	return 1.0 / c;
}
