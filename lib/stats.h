/* SPDX-License-Identifier: MIT */
/* stats.h - summary statistics of a case's run times. */
#ifndef COPYBENCH_STATS_H
#define COPYBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stats {
	size_t n;
	double median, min, max, mean, stddev, cv;	/* cv = stddev / mean */
	double mad;		/* median absolute deviation from the median */
	double rcv;		/* robust CV: 1.4826 mad / median */
};

/* Summarises n samples (not modified). n == 0 gives all zeros. */
void stats_compute(const double *samples, size_t n, struct stats *out);
/* Half the 95 % confidence interval of the median over the median (from
 * the robust spread); INFINITY with fewer than 2 samples. */
double stats_median_halfwidth(const struct stats *st);
/*
 * The adaptive stopping rule on n samples: false while n < min, true from
 * max on; between them, true once the median's 95 % interval (above) is
 * within +-target of it. tests/stopping_rule_unbiased.c checks by
 * simulation that stopping by it does not bias the median.
 */
bool stats_enough_runs(const double *samples, size_t n, size_t min, size_t max, double target);
/* Median of n samples (copied, not modified); 0 for n == 0. */
double stats_median(const double *samples, size_t n);
/* The same, but NAN for n == 0 (no figure rather than a zero one). */
double sample_median(const double *samples, size_t n);

#endif
