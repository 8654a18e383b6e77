// SPDX-License-Identifier: MIT
/* stats.c - median, spread and coefficient of variation. The standard
 * deviation is the sample one (n - 1), as hyperfine and Google Benchmark
 * report it. Beside it, a spread that a single outlier cannot inflate: the
 * median absolute deviation, scaled by 1.4826 so that it estimates the
 * standard deviation of normal data, divided by the median (robust CV). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *samples, size_t n)
{
	double *s, m;

	if (n == 0)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, samples, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double stats_sample_median(const double *samples, size_t n)
{
	return n ? stats_median(samples, n) : NAN;
}

/* Median absolute deviation from med. */
static double stats_mad(const double *samples, size_t n, double med)
{
	double *d = malloc(n * sizeof(*d)), m;

	if (!d)
		return NAN;
	for (size_t i = 0; i < n; i++)
		d[i] = fabs(samples[i] - med);
	m = stats_median(d, n);
	free(d);
	return m;
}

/*
 * Half the width of the 95 % confidence interval of the median, relative to
 * the median: 1.96 times its standard error sqrt(pi / 2) sigma / sqrt(n),
 * the large-sample variance of the sample median, with sigma estimated
 * robustly as 1.4826 MAD (so one outlier does not widen it). Order
 * statistics would give a distribution-free interval, but at n = 8 that is
 * the whole range of the runs: no run count a benchmark can afford settles
 * it on a noisy machine.
 */
double stats_median_halfwidth(const struct stats *st)
{
	if (st->n < 2 || st->median <= 0)
		return INFINITY;
	return 1.96 * sqrt(M_PI / 2) * STATS_MAD_TO_SD * st->mad / sqrt((double)st->n) / st->median;
}

double stats_binom_half_cdf(size_t n, size_t k)
{
	double sum = 0, ln2n = (double)n * log(2.0);

	if (k >= n)
		return 1;
	for (size_t j = 0; j <= k; j++)
		sum += exp(lgamma((double)n + 1) - lgamma((double)j + 1) -
			   lgamma((double)(n - j) + 1) - ln2n);
	return sum < 1 ? sum : 1;
}

void stats_median_interval(const double *samples, size_t n, double level,
			   struct median_interval *out)
{
	double *s;

	memset(out, 0, sizeof(*out));
	out->lo = out->hi = NAN;
	/* the largest k, from the middle outwards, whose coverage reaches level */
	for (size_t k = n / 2; k >= 1 && !out->k; k--) {
		double cov = 1 - 2 * stats_binom_half_cdf(n, k - 1);

		if (cov >= level) {
			out->k = k;
			out->coverage = cov;
		}
	}
	if (!out->k)
		return;
	s = malloc(n * sizeof(*s));
	if (!s) {
		out->k = 0;
		out->coverage = 0;
		return;
	}
	memcpy(s, samples, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	out->lo = s[out->k - 1];
	out->hi = s[n - out->k];
	free(s);
}

void stats_compute(const double *samples, size_t n, struct stats *out)
{
	struct median_interval ci;
	double sum = 0, sq = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	out->n = n;
	out->min = out->max = samples[0];
	for (size_t i = 0; i < n; i++) {
		sum += samples[i];
		if (samples[i] < out->min)
			out->min = samples[i];
		if (samples[i] > out->max)
			out->max = samples[i];
	}
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (samples[i] - out->mean) * (samples[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	out->cv = out->mean > 0 ? out->stddev / out->mean : 0;
	out->median = stats_median(samples, n);
	out->mad = stats_mad(samples, n, out->median);
	out->rcv = out->median > 0 ? STATS_MAD_TO_SD * out->mad / out->median : 0;
	stats_median_interval(samples, n, STATS_CI_LEVEL, &ci);
	out->ci_lo = ci.k ? ci.lo : 0;
	out->ci_hi = ci.k ? ci.hi : 0;
	out->ci_coverage = ci.coverage;
}

bool stats_enough_runs(const double *samples, size_t n, size_t min, size_t max, double target)
{
	struct stats st;

	if (n < min)
		return false;
	if (n >= max)
		return true;
	stats_compute(samples, n, &st);
	return stats_median_halfwidth(&st) <= target;
}
