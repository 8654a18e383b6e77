// SPDX-License-Identifier: MIT
/*
 * abstat.c - median log-ratio of paired runs and its sign-test interval
 * (abstat.h). Exact binomial tail sums: n stays in the hundreds.
 */
#include "abstat.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* P(Bin(n, 1/2) < k), summed in logs so that large n cannot overflow. */
static double binom_below(size_t n, size_t k)
{
	double sum = 0;

	for (size_t i = 0; i < k && i <= n; i++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)i + 1) -
			   lgamma((double)(n - i) + 1) - (double)n * log(2.0));
	return sum;
}

size_t ab_min_rounds(double a)
{
	size_t n = 1;

	while (2 * binom_below(n, 1) > a && n < 64)
		n++;
	return n;
}

/* The median of sorted x. */
static double sorted_median(const double *x, size_t n)
{
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

void ab_interval(double *logr, size_t n, double a, struct ab_stat *st)
{
	size_t k = 0;

	*st = (struct ab_stat){ .n = n, .median = NAN, .lo = NAN, .hi = NAN, .cover = NAN };
	if (!n)
		return;
	qsort(logr, n, sizeof(*logr), cmp_double);
	st->median = sorted_median(logr, n);
	/* the largest k whose interval still covers with 1 - a */
	while (k + 1 <= (n + 1) / 2 && 2 * binom_below(n, k + 1) <= a)
		k++;
	if (!k)
		return;
	st->judged = true;
	st->lo = logr[k - 1];
	st->hi = logr[n - k];
	st->cover = 1 - 2 * binom_below(n, k);
}

enum ab_verdict ab_judge(const struct ab_stat *st, double threshold)
{
	if (!st->judged)
		return AB_INCONCLUSIVE;
	if (st->lo > 0 && st->median > log1p(threshold))
		return AB_REGRESSION;
	if (!(st->hi < log1p(threshold)))
		return AB_INCONCLUSIVE;
	return st->lo > 0 ? AB_SLOWER : st->hi < 0 ? AB_FASTER : AB_OK;
}

double ab_resolution(const struct ab_stat *st)
{
	return st->judged ? expm1((st->hi - st->lo) / 2) : NAN;
}

int ab_exit_code(const struct ab_tally *t)
{
	if (t->b_failed || t->v[AB_REGRESSION])
		return 1;
	if (t->a_failed)
		return 2;
	return t->v[AB_INCONCLUSIVE] ? AB_EXIT_INCONCLUSIVE : 0;
}

const char *ab_verdict_name(enum ab_verdict v)
{
	static const char *const names[] = {
		[AB_OK] = "ok", [AB_FASTER] = "faster", [AB_SLOWER] = "slower",
		[AB_REGRESSION] = "regression", [AB_INCONCLUSIVE] = "inconclusive",
	};

	return names[v];
}
