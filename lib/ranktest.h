/* SPDX-License-Identifier: MIT */
/*
 * ranktest.h - the Mann-Whitney U (Wilcoxon rank-sum) test, used by
 * `bench check` to decide whether a case's per-run times moved.
 *
 * A rank test makes no assumption about the shape of the time distribution
 * (run times are skewed: a run can only be slowed down) and one outlier run
 * weighs no more than any other run. For small samples the exact permutation
 * distribution is computed (ties included, conditional on the tie pattern);
 * above RANK_EXACT_MAX values in total the normal approximation with tie
 * and continuity correction is used.
 */
#ifndef COPYBENCH_RANKTEST_H
#define COPYBENCH_RANKTEST_H

#include <stdbool.h>
#include <stddef.h>

/* Largest n + m for which the exact distribution is computed. */
#define RANK_EXACT_MAX 40

struct rank_result {
	double u;		/* U of x: pairs with x > y, plus half the ties */
	double p_greater;	/* one-sided: P(U >= u), x tends to be larger */
	double p_less;		/* one-sided: P(U <= u), x tends to be smaller */
	bool exact;		/* exact distribution, not the normal one */
};

/*
 * Compares x[0..n) with y[0..m). 0, or -EINVAL when a sample is empty or
 * holds a NaN, or -ENOMEM.
 */
int rank_mann_whitney(const double *x, size_t n, const double *y, size_t m,
		      struct rank_result *r);

/*
 * The smallest one-sided p-value samples of n and m values can reach
 * (no ties): 1 / C(n + m, n). 1 when either sample is empty.
 */
double rank_min_p(size_t n, size_t m);

#endif
