// SPDX-License-Identifier: MIT
/* stats.c - median, spread and coefficient of variation. The standard
 * deviation is the sample one (n - 1), as hyperfine and Google Benchmark
 * report it. */
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
}
