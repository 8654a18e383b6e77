// SPDX-License-Identifier: MIT
/*
 * ranktest_known_answers.c - the Mann-Whitney U statistic and p-values on
 * textbook and hand-computed samples: exact distribution (with and without
 * ties), the n = 1 and all-equal edges, and the normal approximation for
 * large samples against the exact permutation p-value (computed with exact
 * integer arithmetic outside the project).
 */
#include "lib/ranktest.h"
#include "support/testutil.h"

#include <math.h>
#include <stddef.h>

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void check_mw(const double *x, size_t n, const double *y, size_t m,
		     double u, double pg, double pl, double tol, int exact)
{
	struct rank_result r;

	CHECK(rank_mann_whitney(x, n, y, m, &r) == 0);
	CHECK(r.u == u);
	CHECK(fabs(r.p_greater - pg) < tol);
	CHECK(fabs(r.p_less - pl) < tol);
	CHECK(r.exact == exact);
	if (fabs(r.p_greater - pg) >= tol || fabs(r.p_less - pl) >= tol)
		fprintf(stderr, "  got U=%g p>=%.9f p<=%.9f, want %.9f %.9f\n",
			r.u, r.p_greater, r.p_less, pg, pl);
}

static void exact_no_ties(void)
{
	/* Complete separation, 3 vs 3: P(U <= 0) = 1 / C(6,3) = 1/20. */
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	/* The classic textbook sample (5 vs 4): U = 17, two-sided exact
	 * p = 0.1111, so one-sided 1/18; the lower tail is 61/63. */
	const double males[] = { 19, 22, 16, 29, 24 }, females[] = { 20, 11, 17, 12 };

	check_mw(a, 3, b, 3, 0, 1, 1.0 / 20, 1e-12, 1);
	check_mw(b, 3, a, 3, 9, 1.0 / 20, 1, 1e-12, 1);
	check_mw(males, 5, females, 4, 17, 1.0 / 18, 61.0 / 63, 1e-12, 1);
}

static void exact_ties(void)
{
	/* Mid-ranks; p over the 35 subsets of the 7 pooled doubled ranks. */
	const double x[] = { 1, 2, 2, 3 }, y[] = { 2, 3, 4 };
	const double x2[] = { 1, 2, 2, 2, 5, 7 }, y2[] = { 2, 3, 3, 6 };

	check_mw(x, 4, y, 3, 2.5, 34.0 / 35, 1.0 / 5, 1e-12, 1);
	check_mw(x2, 6, y2, 4, 8.5, 82.0 / 105, 26.0 / 105, 1e-12, 1);
}

static void edges(void)
{
	const double one[] = { 5 }, three[] = { 1, 2, 3 }, same[] = { 1, 1, 1 };
	double nan_v[] = { NAN };
	struct rank_result r;

	check_mw(one, 1, three, 3, 3, 0.25, 1, 1e-12, 1);
	check_mw(three, 3, one, 1, 0, 1, 0.25, 1e-12, 1);
	check_mw(same, 1, same, 1, 0.5, 1, 1, 1e-12, 1);
	check_mw(same, 2, same, 3, 3, 1, 1, 1e-12, 1);
	CHECK(rank_mann_whitney(one, 0, three, 3, &r) != 0);
	CHECK(rank_mann_whitney(one, 1, three, 0, &r) != 0);
	CHECK(rank_mann_whitney(nan_v, 1, three, 3, &r) != 0);
}

static void min_p(void)
{
	CHECK(fabs(rank_min_p(3, 3) - 0.05) < 1e-15);
	CHECK(fabs(rank_min_p(4, 4) - 1.0 / 70) < 1e-15);
	CHECK(fabs(rank_min_p(4, 5) - 1.0 / 126) < 1e-15);
	CHECK(fabs(rank_min_p(5, 5) - 1.0 / 252) < 1e-15);
	CHECK(fabs(rank_min_p(10, 10) - 1.0 / 184756) < 1e-18);
	CHECK(rank_min_p(0, 5) == 1);
	CHECK(fabs(rank_min_p(1, 1) - 0.5) < 1e-15);
}

/*
 * 50 vs 50 (above RANK_EXACT_MAX): the normal approximation within 1e-3 of
 * the exact permutation p-values 0.1794867 / 0.8223120 (no ties) and
 * 0.0955764 / 0.9056061 (groups of 4 ties).
 */
static void large_normal(void)
{
	double x[50], y[50], xt[50], yt[50];

	for (int i = 0; i < 50; i++) {
		x[i] = i + 3.0 + (i % 4 == 0 ? 0.5 : 0);
		y[i] = i + 0.25;
		xt[i] = i / 4 + 1;
		yt[i] = i / 4;
	}
	check_mw(x, 50, y, 50, 1384, 0.1794867, 0.8223120, 1e-3, 0);
	check_mw(xt, 50, yt, 50, 1440, 0.0955764, 0.9056061, 1e-3, 0);
	/* And the formula itself, computed by hand: z = (1384 - 1250 -
	 * 0.5) / sqrt(2500 * 101 / 12). */
	check_mw(x, 50, y, 50, 1384, 0.1787015, 0.8230935, 1e-6, 0);
}

int main(void)
{
	exact_no_ties();
	exact_ties();
	edges();
	min_p();
	large_normal();
	return test_report("ranktest_known_answers");
}
