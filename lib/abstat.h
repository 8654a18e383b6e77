/* SPDX-License-Identifier: MIT */
/*
 * abstat.h - the verdict of a paired comparison (`bench ab`): per round one
 * log-ratio ln(B/A) of two runs made back to back, so that whatever the
 * machine did in that round hits both. The change is estimated by the
 * Hodges-Lehmann estimator, the median of the n(n+1)/2 Walsh averages
 * (x_i + x_j) / 2, i <= j, with the exact interval of the Wilcoxon
 * signed-rank test: the Walsh averages sorted, [W(k), W(N+1-k)] (1-based,
 * N = n(n+1)/2) covers the centre of a symmetric distribution with
 * probability 1 - 2 P(T < k), T the signed-rank statistic under no change;
 * k is the largest with that probability >= 1 - a. For normal log-ratios it
 * needs about 2/3 of the rounds the sign test on their median needs (its
 * efficiency is 0.955 against 0.637); symmetry holds when A's and B's noise
 * have one shape, which ABBA order helps. No interval exists below
 * ab_min_rounds(a).
 */
#ifndef COPYBENCH_ABSTAT_H
#define COPYBENCH_ABSTAT_H

#include <stdbool.h>
#include <stddef.h>

struct ab_stat {
	size_t n;
	double shift;		/* of ln(B/A): the Hodges-Lehmann estimate */
	double lo, hi;		/* its interval; NAN when not judged */
	double cover;		/* the interval's exact coverage */
	bool judged;		/* n is enough for the interval at a */
};

/*
 * A case's verdict. As a gate (docs/check.md) each is one of three
 * outcomes: AB_REGRESSION; no regression (AB_OK, AB_SLOWER, AB_FASTER: the
 * interval's upper end below ln(1 + threshold)); or AB_INCONCLUSIVE,
 * neither, or no interval at all.
 */
enum ab_verdict { AB_OK, AB_FASTER, AB_SLOWER, AB_REGRESSION, AB_INCONCLUSIVE, AB_NVERDICTS };

/* The smallest n whose widest interval [W(1), W(N)] covers with >= 1 - a
 * (2 / 2^n <= a, as for the sign test). */
size_t ab_min_rounds(double a);
/*
 * Estimate and interval of the n log-ratios at level 1 - a (a: the error of
 * this case's interval, e.g. alpha over the number of cases). The array is
 * sorted in place. Exact up to AB_EXACT_MAX rounds, the normal
 * approximation of T (continuity-corrected) above.
 */
#define AB_EXACT_MAX 400
void ab_interval(double *logr, size_t n, double a, struct ab_stat *st);
/*
 * The verdict: regression when the whole interval is above 0 and the
 * estimate above ln(1 + threshold). Otherwise, when the interval's upper end
 * is below ln(1 + threshold), no regression: slower when the interval is
 * above 0, faster when below, ok when it holds 0. Else inconclusive, as
 * without an interval.
 */
enum ab_verdict ab_judge(const struct ab_stat *st, double threshold);
const char *ab_verdict_name(enum ab_verdict v);
/* The smallest change the rounds could resolve: half the interval's width,
 * as a fraction (a change of 0 leaves the upper end about this far up).
 * NAN without an interval. */
double ab_resolution(const struct ab_stat *st);

/*
 * Repeated looks: `bench ab` samples a case until it is decided. The looks
 * are fixed in advance, at per_look, 2 per_look, 4 per_look, ... rounds,
 * each twice the one before (AB_LOOKS of them: 32 per_look at the last), so
 * that a clear change is decided at the first and a small one gets all the
 * rounds the time allows; each interval is taken at a / AB_LOOKS
 * (Bonferroni over the looks): whatever the looks' intervals have in common, the chance that any
 * of them misses is at most a, so stopping at the first look that decides,
 * or earlier when time runs out, keeps the error at a. A look that is never
 * made only costs power.
 */
#define AB_LOOKS 6
/* The look that n rounds make (1 .. AB_LOOKS), or 0 when n is none. */
unsigned ab_look_at(size_t n, size_t per_look);
/* The rounds of the last look: per_look << (AB_LOOKS - 1). */
size_t ab_last_look(size_t per_look);
/* The rounds of the first look after n rounds, or 0 after the last. */
size_t ab_next_look(size_t n, size_t per_look);
/* The verdict at a look of n rounds: the interval at a / AB_LOOKS into st.
 * logr is sorted in place. */
enum ab_verdict ab_look(double *logr, size_t n, double a, double threshold, struct ab_stat *st);

/* What ended the cases: their verdicts, and the cases A or B failed. */
struct ab_tally {
	size_t v[AB_NVERDICTS];
	size_t a_failed, b_failed;
};
#define AB_EXIT_INCONCLUSIVE 3
/* 1 for a regression or a case B failed, 2 for a case A failed, 3 when a
 * case is inconclusive, else 0 (no regression). */
int ab_exit_code(const struct ab_tally *t);

#endif
