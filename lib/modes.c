// SPDX-License-Identifier: MIT
/*
 * modes.c - two modes in a set of run times, or one.
 *
 * The rule: sort the times; among the places that leave at least
 * MODES_MIN_RUNS runs and MODES_MIN_SHARE of them on each side, split at
 * the largest gap between neighbours. The two sides are two modes when that
 * gap is
 *   - at least MODES_MIN_GAP (10 %) of the fast side's median: two levels
 *     a reader would call different, not a fine structure of one, and
 *   - more than MODES_GAP_SPREADS (3) standard deviations of the wider
 *     side: each side is tight compared with the space between them.
 * So a single outlier (one run) is never a mode, a long smooth tail is not
 * one either (its runs spread as far as they are from the rest), and a
 * unimodal set with a 3 % spread is not split. The standard deviation, not
 * the MAD: a side of three runs has a MAD as small as the closer pair, and
 * with it unimodal sets of a 10 % spread were split 2.5 times as often.
 * What the rule does on simulated sets (tests/lib/modes_detected.c prints it):
 * log-normal run times of a 3 % spread, 8 to 20 runs, are never split; of
 * a 10 % spread, about 1 set in 70 of 8 to 10 runs is (the same gap then
 * stands out by chance); a 25 / 35 ms mixture of 9 runs with a 3 % spread
 * in each level is found in 99.5 % of the sets where each level drew 3 runs.
 * With fewer than 6 runs there is never a second mode.
 */
#include "modes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of s[0..n), sorted, n > 0. */
static double sorted_median(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* The sample standard deviation of s[0..n). */
static double side_spread(const double *s, size_t n)
{
	double mean = 0, sq = 0;

	for (size_t i = 0; i < n; i++)
		mean += s[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (s[i] - mean) * (s[i] - mean);
	return n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
}

/* The runs each side needs: MODES_MIN_RUNS, or MODES_MIN_SHARE of n. */
static size_t side_needs(size_t n)
{
	size_t share = (size_t)ceil(MODES_MIN_SHARE * (double)n - 1e-9);

	return share > MODES_MIN_RUNS ? share : MODES_MIN_RUNS;
}

/* The size of the fast side at the largest admissible gap of s; 0: none. */
static size_t widest_split(const double *s, size_t n)
{
	size_t need = side_needs(n), best = 0;
	double gap = -1;

	for (size_t k = need; k + need <= n; k++)
		if (s[k] - s[k - 1] > gap) {
			gap = s[k] - s[k - 1];
			best = k;
		}
	return best;
}

/* Are s[0..k) and s[k..n) two modes by the rule above? */
static bool split_is_modes(const double *s, size_t n, size_t k)
{
	double gap = s[k] - s[k - 1];
	double fast = sorted_median(s, k);
	double spread = fmax(side_spread(s, k), side_spread(s + k, n - k));

	return gap >= MODES_MIN_GAP * fast && gap > MODES_GAP_SPREADS * spread;
}

bool modes_detect(const double *samples, size_t n, struct modes *out)
{
	double *s = n ? malloc(n * sizeof(*s)) : NULL;
	size_t k;

	memset(out, 0, sizeof(*out));
	if (!s)
		return false;
	memcpy(s, samples, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	k = widest_split(s, n);
	if (k && split_is_modes(s, n, k)) {
		out->count = 2;
		out->fast_median = sorted_median(s, k);
		out->slow_median = sorted_median(s + k, n - k);
		out->fast_runs = k;
		out->slow_runs = n - k;
	} else {
		out->count = 1;
		out->fast_median = out->slow_median = sorted_median(s, n);
		out->fast_runs = n;
	}
	free(s);
	return out->count == 2;
}
