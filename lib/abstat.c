// SPDX-License-Identifier: MIT
/*
 * abstat.c - the Hodges-Lehmann estimate of paired log-ratios and its
 * Wilcoxon signed-rank interval (abstat.h); the verdict and exit code.
 */
#include "abstat.h"

#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * P(T < k) for k = 0 .. N + 1 into below[], T the Wilcoxon signed-rank
 * statistic of n values under no change: each rank r joins the sum with
 * probability 1/2. Exact by convolution for n <= AB_EXACT_MAX, else the
 * normal approximation (mean N/2, variance n(n+1)(2n+1)/24).
 */
static void signed_rank_below(size_t n, double *below)
{
	size_t N = n * (n + 1) / 2;
	double *p = calloc(N + 1, sizeof(*p)), acc = 0;

	if (p && n <= AB_EXACT_MAX) {
		p[0] = 1;
		for (size_t r = 1; r <= n; r++) {
			for (size_t t = r * (r + 1) / 2; t >= r; t--)
				p[t] = (p[t] + p[t - r]) / 2;
			for (size_t t = 0; t < r; t++)
				p[t] /= 2;
		}
	}
	for (size_t k = 0; k <= N + 1; k++) {
		if (p && n <= AB_EXACT_MAX) {
			below[k] = acc;
			acc += k <= N ? p[k] : 0;
		} else {
			double sd = sqrt((double)n * (double)(n + 1) * (double)(2 * n + 1) / 24);

			below[k] = 0.5 * erfc(-(((double)k - 0.5) - (double)N / 2) / (sd * sqrt(2)));
		}
	}
	free(p);
}

size_t ab_min_rounds(double a)
{
	size_t n = 1;

	while (2 / ldexp(1, (int)n) > a && n < 64)
		n++;
	return n;
}

/*
 * The k-th smallest (0-based) of w[0..n), moving elements about (Hoare's
 * selection, the middle element as pivot): linear on average, where
 * sorting the n(n+1)/2 Walsh averages of a case of 960 rounds took most
 * of a look's time.
 */
static double select_kth(double *w, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = w[lo + (hi - lo) / 2], t;
		size_t i = lo, j = hi;

		while (i <= j) {
			while (w[i] < pivot)
				i++;
			while (w[j] > pivot)
				j--;
			if (i > j)
				break;
			t = w[i];
			w[i++] = w[j];
			w[j] = t;
			if (j-- == lo)
				break;
		}
		/* now w[lo..j] <= pivot <= w[i..hi], and j < i */
		if (k <= j && j >= lo && j != (size_t)-1)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return w[k];
}

/* The median of the n values of w (moved about). */
static double walsh_median(double *w, size_t n)
{
	double hi = select_kth(w, n, n / 2);

	return n % 2 ? hi : (select_kth(w, n, n / 2 - 1) + hi) / 2;
}

/* The n(n+1)/2 Walsh averages of x, unsorted. NULL on ENOMEM. */
static double *walsh_averages(const double *x, size_t n)
{
	double *w = malloc((n * (n + 1) / 2 + 1) * sizeof(*w));
	size_t m = 0;

	for (size_t i = 0; w && i < n; i++)
		for (size_t j = i; j < n; j++)
			w[m++] = (x[i] + x[j]) / 2;
	return w;
}

void ab_interval(double *logr, size_t n, double a, struct ab_stat *st)
{
	size_t N = n * (n + 1) / 2, k = 0;
	double *w, *below;

	*st = (struct ab_stat){ .n = n, .shift = NAN, .lo = NAN, .hi = NAN, .cover = NAN };
	if (!n)
		return;
	qsort(logr, n, sizeof(*logr), cmp_double);
	w = walsh_averages(logr, n);
	below = malloc((N + 2) * sizeof(*below));
	if (!w || !below)
		goto out_free;
	st->shift = walsh_median(w, N);
	signed_rank_below(n, below);
	/* the largest k whose interval still covers with 1 - a */
	while (k + 1 <= (N + 1) / 2 && 2 * below[k + 1] <= a)
		k++;
	if (!k)
		goto out_free;
	st->judged = true;
	st->lo = select_kth(w, N, k - 1);
	st->hi = select_kth(w, N, N - k);
	st->cover = 1 - 2 * below[k];
out_free:
	free(below);
	free(w);
}

enum ab_verdict ab_judge(const struct ab_stat *st, double threshold)
{
	if (!st->judged)
		return AB_INCONCLUSIVE;
	if (st->lo > 0 && st->shift > log1p(threshold))
		return AB_REGRESSION;
	if (!(st->hi < log1p(threshold)))
		return AB_INCONCLUSIVE;
	return st->lo > 0 ? AB_SLOWER : st->hi < 0 ? AB_FASTER : AB_OK;
}

double ab_resolution(const struct ab_stat *st)
{
	return st->judged ? expm1((st->hi - st->lo) / 2) : NAN;
}

unsigned ab_look_at(size_t n, size_t per_look)
{
	for (unsigned k = 1; per_look && k <= AB_LOOKS; k++)
		if (n == per_look << (k - 1))
			return k;
	return 0;
}

size_t ab_last_look(size_t per_look)
{
	return per_look << (AB_LOOKS - 1);
}

size_t ab_next_look(size_t n, size_t per_look)
{
	for (unsigned k = 0; k < AB_LOOKS; k++)
		if ((per_look << k) > n)
			return per_look << k;
	return 0;
}

enum ab_verdict ab_look(double *logr, size_t n, double a, double threshold, struct ab_stat *st)
{
	ab_interval(logr, n, a / AB_LOOKS, st);
	return ab_judge(st, threshold);
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
