// SPDX-License-Identifier: MIT
/*
 * stats_median_interval_known.c - the distribution-free interval of the
 * median on fixed samples, against answers worked out by hand from the
 * binomial distribution with p = 1/2:
 *
 *   n = 20: P(B <= 5) = 21700 / 2^20 = 0.020695, so [x(6), x(15)] covers
 *           with 1 - 2 * 0.020695 = 0.958611; k = 7 would give 0.884675.
 *   n = 10: P(B <= 1) = 11 / 1024, so [x(2), x(9)] covers with 0.978516;
 *           k = 3 would give 1 - 2 * 56 / 1024 = 0.890625.
 *   n = 8:  only [x(1), x(8)] reaches 95 %: 1 - 2 / 256 = 0.992188.
 *   n = 5:  even [x(1), x(5)] covers only 1 - 2 / 32 = 0.9375: none.
 */
#include "lib/stats.h"
#include "support/testutil.h"

#include <math.h>

static int near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

static void check_one(const double *s, size_t n, size_t k, double lo, double hi, double cov)
{
	struct median_interval ci;

	stats_median_interval(s, n, 0.95, &ci);
	CHECK_EQ_U64(ci.k, k);
	CHECK(k ? ci.lo == lo && ci.hi == hi : isnan(ci.lo) && isnan(ci.hi));
	CHECK(near(ci.coverage, cov));
	if (ci.k != k || !near(ci.coverage, cov))
		fprintf(stderr, "n %zu: k %zu coverage %.6f [%g, %g], expected k %zu coverage %.6f [%g, %g]\n",
			n, ci.k, ci.coverage, ci.lo, ci.hi, k, cov, lo, hi);
}

int main(void)
{
	/* 20 samples, shuffled: x(i) = 10 i */
	static const double s20[] = { 130, 20, 170, 60, 110, 200, 10, 150, 90, 40,
				      180, 70, 120, 30, 190, 50, 160, 80, 140, 100 };
	static const double s10[] = { 7, 3, 9, 1, 10, 5, 2, 8, 6, 4 };
	static const double s8[] = { 5, 1, 8, 3, 7, 2, 6, 4 };
	static const double s5[] = { 5, 1, 3, 2, 4 };
	struct stats st;

	check_one(s20, 20, 6, 60, 150, 1 - 2 * 21700.0 / 1048576);
	check_one(s10, 10, 2, 2, 9, 1 - 2 * 11.0 / 1024);
	check_one(s8, 8, 1, 1, 8, 1 - 2.0 / 256);
	check_one(s5, 5, 0, 0, 0, 0);
	CHECK(near(stats_binom_half_cdf(20, 5), 21700.0 / 1048576));
	/* stats_compute carries the 95 % interval */
	stats_compute(s10, 10, &st);
	CHECK(st.ci_lo == 2 && st.ci_hi == 9 && near(st.ci_coverage, 1 - 22.0 / 1024));
	stats_compute(s5, 5, &st);
	CHECK(st.ci_coverage == 0);
	return test_report("stats_median_interval_known");
}
