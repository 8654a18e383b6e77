// SPDX-License-Identifier: MIT
/*
 * modes_detected.c - the two-mode rule (lib/modes.c) on known sets and by
 * simulation:
 *   - the two invocations of `lines` 16M reported on a VM (a 26 ms and a
 *     35 ms level) are two modes, with each level's median and run count;
 *   - one run at twice the others, a long smooth tail, too few runs: one;
 *   - unimodal log-normal run times (sigma 3 %), 10000 sets at each of 8,
 *     9, 10, 15 and 20 runs: none is flagged (an exact count for the fixed
 *     seed);
 *   - log-normal with sigma 10 % (a noisy machine): fewer than 2 % of the
 *     sets of 9 runs are flagged (the rule's price for finding modes in
 *     nine runs: a chance gap that wide);
 *   - a 25 / 35 ms mixture (each level log-normal, sigma 3 %), 10000 sets
 *     of 9 runs: flagged only when each level drew enough runs for a mode
 *     (3), then in at least 99 % of the sets, always split into exactly
 *     the runs each level drew (their counts, their medians).
 */
#include "lib/modes.h"
#include "lib/stats.h"
#include "support/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define SETS 10000
#define SIGMA 0.03

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform01(void)	/* (0, 1] */
{
	return (test_uniform(&rng) + 1) / 2 + 1e-12;
}

static double lognormal_sd(double median, double sigma)
{
	double g = sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());

	return median * exp(sigma * g);
}

static double lognormal(double median)
{
	return lognormal_sd(median, SIGMA);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void known_two_modes(void)
{
	static const double inv1[] = { 36.9, 26.0, 40.8, 35.2, 35.4, 25.9, 35.0, 26.0, 35.0 };
	static const double inv2[] = { 29.2, 34.3, 25.9, 34.0, 25.6, 27.2, 26.4, 33.9, 25.9 };
	static const double rw4k[] = { 41.0, 52.0, 42.0, 55.0, 40.5, 51.0, 43.0, 56.0, 53.0 };
	struct modes m;

	CHECK(modes_detect(inv1, 9, &m));
	CHECK_EQ_U64(m.count, 2);
	CHECK(near(m.fast_median, 26.0) && near(m.slow_median, 35.3));
	CHECK_EQ_U64(m.fast_runs, 3);
	CHECK_EQ_U64(m.slow_runs, 6);
	CHECK(modes_detect(inv2, 9, &m));
	CHECK(near(m.fast_median, 26.15) && near(m.slow_median, 34.0));
	CHECK_EQ_U64(m.fast_runs, 6);
	CHECK_EQ_U64(m.slow_runs, 3);
	CHECK(modes_detect(rw4k, 9, &m));
	CHECK(near(m.fast_median, 41.5) && near(m.slow_median, 53.0));
	CHECK_EQ_U64(m.fast_runs, 4);
}

static void known_one_mode(void)
{
	static const double outlier[] = { 25.1, 25.4, 24.9, 50.2, 25.0, 25.3, 25.2, 24.8, 25.6 };
	static const double tail[] = { 10.0, 10.1, 9.9, 10.2, 10.0, 9.8, 10.1, 15.0, 25.0, 40.0 };
	static const double five[] = { 25.0, 25.1, 35.0, 35.1, 35.2 };
	static const double unimodal[] = { 26.6, 26.5, 25.8, 26.9, 26.1, 26.3, 25.9, 26.2 };
	struct modes m;

	CHECK(!modes_detect(outlier, 9, &m));
	CHECK_EQ_U64(m.count, 1);
	CHECK(near(m.fast_median, 25.2) && near(m.slow_median, 25.2));
	CHECK_EQ_U64(m.fast_runs, 9);
	CHECK_EQ_U64(m.slow_runs, 0);
	CHECK(!modes_detect(tail, 10, &m));
	CHECK(!modes_detect(five, 5, &m));
	CHECK(!modes_detect(unimodal, 8, &m));
	CHECK(!modes_detect(unimodal, 0, &m));
	CHECK_EQ_U64(m.count, 0);
}

/* Unimodal sets of n runs (spread sigma) flagged as two modes, of SETS. */
static size_t false_flags(size_t n, double sigma)
{
	double w[32];
	struct modes m;
	size_t flagged = 0;

	for (size_t s = 0; s < SETS; s++) {
		for (size_t i = 0; i < n; i++)
			w[i] = lognormal_sd(25e6, sigma);
		flagged += modes_detect(w, n, &m);
	}
	return flagged;
}

/* 9 runs from a 25 / 35 ms mixture: flagged only when each level has
 * MODES_MIN_RUNS runs, then nearly always, with that level's run count. */
static void mixture(void)
{
	size_t flagged = 0, admissible = 0, wrong = 0;
	struct modes m;
	double w[9], f[9], sl[9];

	for (size_t s = 0; s < SETS; s++) {
		size_t nf = 0, ns = 0;
		bool enough;

		for (size_t i = 0; i < 9; i++) {
			bool fast = uniform01() <= 0.5;

			w[i] = lognormal(fast ? 25e6 : 35e6);
			if (fast)
				f[nf++] = w[i];
			else
				sl[ns++] = w[i];
		}
		enough = nf >= MODES_MIN_RUNS && ns >= MODES_MIN_RUNS;
		admissible += enough;
		if (modes_detect(w, 9, &m)) {
			flagged++;
			wrong += !enough || m.fast_runs != nf || m.slow_runs != ns ||
				 m.fast_median != stats_median(f, nf) ||
				 m.slow_median != stats_median(sl, ns);
		}
	}
	printf("25/35 ms mixture, 9 runs: %zu of %d sets flagged, %zu with each level >= %d runs, %zu with a wrong split\n",
	       flagged, SETS, admissible, MODES_MIN_RUNS, wrong);
	CHECK(flagged <= admissible && flagged >= admissible * 99 / 100);
	CHECK_EQ_U64(wrong, 0);
}

int main(void)
{
	static const size_t sizes[] = { 8, 9, 10, 15, 20 };
	size_t wide;

	known_two_modes();
	known_one_mode();
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t f = false_flags(sizes[i], SIGMA);

		printf("log-normal sigma %.0f %%, %zu runs: %zu of %d sets flagged\n",
		       100 * SIGMA, sizes[i], f, SETS);
		CHECK_EQ_U64(f, 0);
	}
	wide = false_flags(9, 0.10);
	printf("log-normal sigma 10 %%, 9 runs: %zu of %d sets flagged\n", wide, SETS);
	CHECK(wide < SETS / 50);
	mixture();
	return test_report("modes_detected");
}
