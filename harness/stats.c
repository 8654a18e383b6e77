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

double sample_median(const double *samples, size_t n)
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
 * The distribution-free 95 % confidence interval of the median: the order
 * statistics of ranks (n - 1.96 sqrt(n)) / 2 and 1 + (n + 1.96 sqrt(n)) / 2
 * (the normal approximation of the binomial; Conover, Practical
 * Nonparametric Statistics, 3.2).
 */
void stats_ci_median(const double *samples, size_t n, double *lo, double *hi, double *med)
{
	double *s = malloc((n ? n : 1) * sizeof(*s)), h = 1.96 * sqrt((double)n);
	long j = (long)floor(((double)n - h) / 2), k = (long)ceil(1 + ((double)n + h) / 2);

	*lo = *hi = *med = NAN;
	if (!s || n == 0)
		goto out_free;
	memcpy(s, samples, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	j = j < 1 ? 1 : j;
	k = k > (long)n ? (long)n : k;
	*lo = s[j - 1];
	*hi = s[k - 1];
	*med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
out_free:
	free(s);
}

void stats_compute(const double *samples, size_t n, struct stats *out)
{
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
	out->rcv = out->median > 0 ? 1.4826 * out->mad / out->median : 0;
}
