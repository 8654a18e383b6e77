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
	/* The median's distribution-free interval (stats_median_interval) at
	 * STATS_CI_LEVEL: its ends and its exact coverage; coverage 0 when n
	 * runs are too few for any (n < 6 at 95 %). */
	double ci_lo, ci_hi, ci_coverage;
};

/* The level of the median's interval in struct stats. */
#define STATS_CI_LEVEL 0.95
/* The fewest samples whose median has an interval at that level: at n = 6,
 * [x(1), x(6)] covers 1 - 2 / 2^6 = 0.969; at n = 5 only 0.938. */
#define STATS_CI_MIN_RUNS 6
/* A number #defined here or in another header, as text for a message or a
 * help string: STATS_TEXT(STATS_CI_MIN_RUNS) is "6". */
#define STATS_TEXT(n) STATS_TEXT_(n)
#define STATS_TEXT_(n) #n
/*
 * The gates' significance level (bench check, history check and changes,
 * bench ab): a regression is called when its p-value, or its interval's
 * level, is this strict. 1 % keeps false alarms over a suite of dozens of
 * cases rare once corrected (docs/check.md). The text is --alpha's default.
 */
#define STATS_ALPHA 0.01
#define STATS_ALPHA_TEXT STATS_TEXT(STATS_ALPHA)
/*
 * MAD times this is the standard deviation of normal data (1 / the normal
 * quantile at 3/4, 0.6745): the robust spread used by rcv, the outlier
 * rule and the gates.
 */
#define STATS_MAD_TO_SD 1.4826
/* A run is an outlier beyond this robust z-score, (x - median) / (1.4826
 * MAD): Iglewicz and Hoaglin's modified z-score rule. */
#define STATS_OUTLIER_Z 3.5

/* The interval [x(k), x(n+1-k)] of the order statistics of n samples: the
 * largest k whose coverage reaches the level asked. */
struct median_interval {
	size_t k;		/* 1-based rank of the lower end; 0: none reaches it */
	double lo, hi;		/* x(k) and x(n+1-k) */
	double coverage;	/* 1 - 2 P(Bin(n, 1/2) <= k - 1) */
};

/* Summarises n samples (not modified). n == 0 gives all zeros. */
void stats_compute(const double *samples, size_t n, struct stats *out);
/*
 * The distribution-free interval of the median from order statistics: the
 * median lies below x(k) only if at most k - 1 samples are below it, which
 * happens with probability P(Bin(n, 1/2) <= k - 1) whatever the
 * distribution (continuous), so [x(k), x(n+1-k)] covers it with probability
 * 1 - 2 P(Bin(n, 1/2) <= k - 1). Takes the narrowest such interval whose
 * coverage is at least level (k = 0 and NAN ends when none is).
 */
void stats_median_interval(const double *samples, size_t n, double level,
			   struct median_interval *out);
/* P(Bin(n, 1/2) <= k). */
double stats_binom_half_cdf(size_t n, size_t k);
/* Half the 95 % confidence interval of the median over the median (from
 * the robust spread); INFINITY with fewer than 2 samples. */
double stats_median_halfwidth(const struct stats *st);
/*
 * The adaptive stopping rule on n samples: false while n < min, true from
 * max on; between them, true once the median's 95 % interval (above) is
 * within +-target of it. tests/lib/stopping_rule_unbiased.c checks by
 * simulation that stopping by it does not bias the median.
 */
bool stats_enough_runs(const double *samples, size_t n, size_t min, size_t max, double target);
/* Median of n samples (copied, not modified); 0 for n == 0. */
double stats_median(const double *samples, size_t n);
/* The same, but NAN for n == 0 (no figure rather than a zero one). */
double stats_sample_median(const double *samples, size_t n);

#endif
