// SPDX-License-Identifier: MIT
/*
 * ab_interval_known_shift.c - the verdict of `bench ab` (abstat.c) on
 * synthetic paired data with a known shift: 30 log-ratios ln(1 + shift)
 * plus a spread of +-1.45 % in steps of 0.1 %, shuffled. The Hodges-Lehmann
 * estimate is the shift itself (the data are symmetric about it). At alpha
 * 0.01 the signed-rank critical value for n = 30 is 109 (the published
 * tables: P(T <= 109) <= 0.005 < P(T <= 110)), so the interval is the 110th
 * and 356th of the 465 Walsh averages shift + (i + j - 29) / 2000: i + j =
 * 19 and 39, the shift -0.5 % and +0.5 % (the sign test's was +-0.75 %).
 * The verdict follows from where the interval lies and the threshold: no
 * regression needs its upper end below ln(1 + threshold). The minimum rounds are the smallest n with 2 / 2^n <= alpha.
 */
#include "lib/abstat.h"
#include "support/testutil.h"

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
	CHECK(fabs(st.shift - log1p(shift)) < 1e-12);
	CHECK(fabs(st.lo - (log1p(shift) - 0.005)) < 1e-12);
	CHECK(fabs(st.hi - (log1p(shift) + 0.005)) < 1e-12);
	CHECK(fabs(st.cover - 0.99006849) < 1e-7);	/* 1 - 2 P(T <= 109) */
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
	CHECK(fabs(st.shift - 0.8) < 1e-12);
	CHECK(ab_judge(&st, 0.01) == AB_INCONCLUSIVE);
	ab_interval(x, 8 - 1, 0.02, &st);	/* 2/128 <= 0.02 */
	CHECK(st.judged && st.lo == 0.5 && st.hi == 1.1);
}

/* The looks double: 30, 60, ... 960 rounds; after n rounds the next one. */
static void looks(void)
{
	CHECK_EQ_U64(ab_look_at(30, 30), 1);
	CHECK_EQ_U64(ab_look_at(960, 30), 6);
	CHECK_EQ_U64(ab_look_at(90, 30), 0);
	CHECK_EQ_U64(ab_last_look(30), 960);
	CHECK_EQ_U64(ab_next_look(0, 30), 30);
	CHECK_EQ_U64(ab_next_look(30, 30), 60);
	CHECK_EQ_U64(ab_next_look(241, 30), 480);
	CHECK_EQ_U64(ab_next_look(959, 30), 960);
	CHECK_EQ_U64(ab_next_look(960, 30), 0);
}

int main(void)
{
	check_shift(0.05, 0.01, AB_REGRESSION);	/* [+4.38 %, +5.38 %] in log */
	check_shift(0.05, 0.10, AB_SLOWER);	/* above 0, not beyond 10 % */
	check_shift(0.03, 0.01, AB_REGRESSION);
	/* [-0.001 %, +0.999 %] in log: holds 0, but not below ln 1.01 = 0.995 % */
	check_shift(0.005, 0.01, AB_INCONCLUSIVE);
	check_shift(0.005, 0.02, AB_OK);
	check_shift(0, 0.01, AB_OK);
	check_shift(-0.05, 0.01, AB_FASTER);
	min_rounds();
	too_few();
	looks();
	return test_report("ab_interval_known_shift");
}
