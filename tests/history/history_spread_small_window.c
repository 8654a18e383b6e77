// SPDX-License-Identifier: MIT
/*
 * history_spread_small_window.c - the spread `bench history check` gives a
 * window of n runs (history_log_spread) is the sd of their logs, in the
 * median, for small n too: 1.4826 MAD alone has a median of 0.54 sd from 3
 * runs, 0.75 from 5 and 0.88 from 10, so early bars were too narrow. 20 001
 * windows of n log-normal figures (sd 5 % of the logs, a fixed seed) per n:
 * the median of their spreads must be within 4 % of 0.05 (the simulation's
 * own error is under 1 %), and the factors are those documented.
 */
#include "history/history_internal.h"
#include "support/testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define DRAWS 20001
#define SD 0.05

static uint64_t rng = 20261203;

static double gauss(void)
{
	double u = (test_uniform(&rng) + 1) / 2, v = (test_uniform(&rng) + 1) / 2;

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_spread(size_t n)
{
	static double est[DRAWS];
	double v[32];

	for (size_t d = 0; d < DRAWS; d++) {
		for (size_t i = 0; i < n; i++)
			v[i] = 1e6 * exp(SD * gauss());
		est[d] = history_log_spread(v, n);
	}
	qsort(est, DRAWS, sizeof(est[0]), cmp);
	return est[DRAWS / 2];
}

int main(void)
{
	static const size_t ns[] = { 3, 4, 5, 7, 10, 12, 20 };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		double m = median_spread(ns[i]);

		CHECK(fabs(m / SD - 1) < 0.04);
		if (!(fabs(m / SD - 1) < 0.04))
			fprintf(stderr, "  %zu runs: median spread %.4f, sd %.4f\n", ns[i], m, SD);
	}
	CHECK(fabs(history_spread_factor(3) - 1.864) < 1e-9);
	CHECK(fabs(history_spread_factor(10) - 1.136) < 1e-9);
	CHECK(fabs(history_spread_factor(30) - 1.04) < 1e-9);
	return test_report("history_spread_small_window");
}
