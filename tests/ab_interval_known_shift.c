// SPDX-License-Identifier: MIT
/*
 * ab_interval_known_shift.c - the verdict of `bench ab` (abstat.c) on
 * synthetic paired data with a known shift: 30 log-ratios ln(1 + shift)
 * plus a spread of +-1.45 % in steps of 0.1 %, shuffled. The median is the
 * shift itself; at alpha 0.01 the sign-test interval is [x(8), x(23)]
 * (coverage 1 - 2 P(Bin(30, 1/2) <= 7) = 0.99478), i.e. the shift -0.75 %
 * and +0.75 %; the verdict follows from where the interval lies and the
 * threshold: no regression needs its upper end below ln(1 + threshold). The minimum rounds are the smallest n with 2 / 2^n <= alpha.
 */
#include "abstat.h"
#include "testutil.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define N 30

/* ln(1 + shift) + (i - 14.5) / 1000 for i = 0..29, in a scrambled order. */
static void paired(double shift, double *x)
{
	for (size_t i = 0; i < N; i++) {
		size_t j = (i * 7 + 3) % N;	/* 7 is prime to 30: a permutation */

		x[j] = log1p(shift) + ((double)i - 14.5) / 1000;
	}
}

static void check_shift(double shift, double threshold, enum ab_verdict want)
{
	double x[N];
	struct ab_stat st;

	paired(shift, x);
	ab_interval(x, N, 0.01, &st);
	CHECK(st.judged);
	CHECK_EQ_U64(st.n, N);
	CHECK(fabs(st.median - log1p(shift)) < 1e-12);
	CHECK(fabs(st.lo - (log1p(shift) - 0.0075)) < 1e-12);
	CHECK(fabs(st.hi - (log1p(shift) + 0.0075)) < 1e-12);
	CHECK(fabs(st.cover - 0.99477712) < 1e-7);
	CHECK(ab_judge(&st, threshold) == want);
	if (ab_judge(&st, threshold) != want)
		fprintf(stderr, "  shift %g threshold %g: got %s\n", shift, threshold,
			ab_verdict_name(ab_judge(&st, threshold)));
}

static void min_rounds(void)
{
	CHECK_EQ_U64(ab_min_rounds(0.01), 8);		/* 2/256 <= 0.01 < 2/128 */
	CHECK_EQ_U64(ab_min_rounds(0.05), 6);		/* 2/64 */
	CHECK_EQ_U64(ab_min_rounds(0.01 / 6), 11);	/* 2/2048 <= 0.00167 < 2/1024 */
}

/* Below the minimum no interval exists: the case cannot be judged. */
static void too_few(void)
{
	double x[7] = { 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1 };
	struct ab_stat st;

	ab_interval(x, 7, 0.01, &st);
	CHECK(!st.judged);
	CHECK(isnan(st.lo) && isnan(st.hi));
	CHECK(fabs(st.median - 0.8) < 1e-12);
	CHECK(ab_judge(&st, 0.01) == AB_INCONCLUSIVE);
	ab_interval(x, 8 - 1, 0.02, &st);	/* 2/128 <= 0.02 */
	CHECK(st.judged && st.lo == 0.5 && st.hi == 1.1);
}

int main(void)
{
	check_shift(0.05, 0.01, AB_REGRESSION);	/* [+4.25 %, +5.75 %] in log */
	check_shift(0.05, 0.10, AB_SLOWER);	/* above 0, not beyond 10 % */
	check_shift(0.03, 0.01, AB_REGRESSION);
	/* [-0.25 %, +1.25 %]: holds 0, but not below the threshold 1 % */
	check_shift(0.005, 0.01, AB_INCONCLUSIVE);
	check_shift(0.005, 0.02, AB_OK);
	check_shift(0, 0.01, AB_OK);
	check_shift(-0.05, 0.01, AB_FASTER);
	min_rounds();
	too_few();
	return test_report("ab_interval_known_shift");
}
