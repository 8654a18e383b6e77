/* SPDX-License-Identifier: MIT */
/*
 * abstat.h - the verdict of a paired comparison (`bench ab`): per round one
 * log-ratio ln(B/A) of two runs made back to back, so that whatever the
 * machine did in that round hits both. Their median estimates the change,
 * and the sign test gives an exact, distribution-free confidence interval
 * for it: with n pairs sorted, [x(k), x(n+1-k)] (1-based) covers the true
 * median with probability 1 - 2 P(Bin(n, 1/2) < k); k is the largest with
 * that probability >= 1 - a. No interval exists below ab_min_rounds(a).
 */
#ifndef COPYBENCH_ABSTAT_H
#define COPYBENCH_ABSTAT_H

#include <stdbool.h>
#include <stddef.h>

struct ab_stat {
	size_t n;
	double median;		/* of ln(B/A) */
	double lo, hi;		/* its interval; NAN when not judged */
	double cover;		/* the interval's exact coverage */
	bool judged;		/* n is enough for the interval at a */
};

enum ab_verdict { AB_OK, AB_FASTER, AB_SLOWER, AB_REGRESSION, AB_UNJUDGED };

/* The smallest n whose widest interval [x(1), x(n)] covers with >= 1 - a. */
size_t ab_min_rounds(double a);
/*
 * Median and interval of the n log-ratios at level 1 - a (a: the error of
 * this case's interval, e.g. alpha over the number of cases). The array is
 * sorted in place.
 */
void ab_interval(double *logr, size_t n, double a, struct ab_stat *st);
/*
 * The verdict: regression when the whole interval is above 0 and the
 * median above ln(1 + threshold); slower when the interval is above 0 and
 * the median is not beyond the threshold; faster when it is below 0; ok
 * when it holds 0; unjudged without an interval.
 */
enum ab_verdict ab_judge(const struct ab_stat *st, double threshold);
const char *ab_verdict_name(enum ab_verdict v);

#endif
