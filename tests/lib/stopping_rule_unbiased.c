// SPDX-License-Identifier: MIT
/*
 * stopping_rule_unbiased.c - the adaptive stopping rule (stats_enough_runs:
 * at least 8 runs, then more until the median's 95 % interval is within
 * +-2 %, at most 10) does not bias the median, by simulation on skewed run
 * times: log-normal (sigma 3 %) with a 10 % tail of runs 1.5 to 5 times
 * slower. Optional stopping could stop early exactly when the runs so far
 * happen to be low; the medians of cases stopped by the rule must average
 * the same as those of cases always given all 10 runs (within 0.1 %, the
 * resolution of the published ratios), and
 * both must sit within 1 % of the distribution's own median.
 */
#include "lib/stats.h"
#include "support/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CASES 20000
#define MIN_RUNS 8
#define MAX_RUNS 10
#define TARGET 0.02
#define SIGMA 0.03
#define POPULATION 400001

static uint64_t rng = 0x2545f4914f6cdd1dull;

static double uniform01(void)	/* (0, 1] */
{
	return (test_uniform(&rng) + 1) / 2 + 1e-12;
}

static double run_time(void)
{
	double g = sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
	double t = exp(SIGMA * g);

	if (uniform01() <= 0.10)
		t *= 1.5 + 3.5 * uniform01();
	return t;
}

int main(void)
{
	static double pop[POPULATION];
	double w[MAX_RUNS], sum_adaptive = 0, sum_fixed = 0, truth, bias, drift_a, drift_f;
	size_t stopped_early = 0;

	for (size_t i = 0; i < POPULATION; i++)
		pop[i] = run_time();
	truth = stats_median(pop, POPULATION);
	for (int c = 0; c < CASES; c++) {
		size_t n = 0;

		for (size_t i = 0; i < MAX_RUNS; i++)
			w[i] = run_time();
		while (!stats_enough_runs(w, n, MIN_RUNS, MAX_RUNS, TARGET))
			n++;
		stopped_early += n < MAX_RUNS;
		sum_adaptive += stats_median(w, n) / truth;
		sum_fixed += stats_median(w, MAX_RUNS) / truth;
	}
	drift_a = sum_adaptive / CASES - 1;
	drift_f = sum_fixed / CASES - 1;
	bias = drift_a - drift_f;
	printf("median of the distribution %.5f; mean median / it: adaptive %+.4f %%, "
	       "always %d runs %+.4f %%; bias of stopping %+.4f %%; stopped before %d: %zu of %d\n",
	       truth, 100 * drift_a, MAX_RUNS, 100 * drift_f, 100 * bias, MAX_RUNS,
	       stopped_early, CASES);
	CHECK(stopped_early > CASES / 10);	/* the rule does stop early */
	CHECK(fabs(bias) < 0.001);
	CHECK(fabs(drift_a) < 0.01);
	CHECK(fabs(drift_f) < 0.01);
	return test_report("stopping_rule_unbiased");
}
