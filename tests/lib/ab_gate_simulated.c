// SPDX-License-Identifier: MIT
/*
 * ab_gate_simulated.c - `bench ab`'s decision (abstat.c: the Hodges-Lehmann
 * estimate and its signed-rank interval, the verdict, the exit code) on
 * simulated invocations, no timing:
 * each invocation is 30 rounds of ln(B/A) drawn normal with a per-round sd of
 * 11 %, as measured on a 2-vCPU VM (docs/check.md), judged at alpha 0.01,
 * threshold 1 %, with a fixed seed, so every count below is exact.
 *
 *  - A/A (no shift), 2000 invocations: `regression` at most alpha of them.
 *    The interval covers with 99.5 % on each side, so about 0.5 % is
 *    expected; the count is asserted exactly (15) and against alpha x 2000.
 *  - B +3 % slower, 2000 invocations: 30 rounds cannot resolve 3 % against
 *    11 %: never `no regression` (exit 0); `inconclusive` (exit 3) 1781
 *    times, `regression` 219 (the sign test on the median: 72).
 *  - coverage: a known shift (+3 %), normal and Laplace (heavy-tailed)
 *    noise, 30 and 60 rounds, 4000 invocations each: the interval misses
 *    the shift on each side at most a/2 = 0.5 % of the time, within the
 *    binomial bound 20 + 3 sd = 33 of 4000 (they miss 11 to 25 times).
 */
#include "lib/abstat.h"
#include "lib/rng.h"
#include "support/testutil.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define ROUNDS 30
#define INVOCATIONS 2000
#define SD 0.11
#define ALPHA 0.01
#define THRESHOLD 0.01

static double uniform01(uint64_t *s)	/* (0, 1) */
{
	return ((double)(splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *s)
{
	double u = uniform01(s), v = uniform01(s);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Laplace with the sd of gauss(): a heavier tail, symmetric. */
static double laplace(uint64_t *s)
{
	double u = uniform01(s) - 0.5;

	return (u < 0 ? 1 : -1) * log(1 - 2 * fabs(u)) / sqrt(2);
}

/* Invocations of n rounds with shift +3 % whose interval misses it below
 * (its upper end under the shift) and above. */
static void coverage(uint64_t seed, size_t n, bool heavy, size_t miss[2])
{
	double logr[64];
	uint64_t s = seed;

	miss[0] = miss[1] = 0;
	for (size_t i = 0; i < 4000; i++) {
		struct ab_stat st;

		for (size_t k = 0; k < n; k++)
			logr[k] = log1p(0.03) + SD * (heavy ? laplace(&s) : gauss(&s));
		ab_interval(logr, n, ALPHA, &st);
		miss[0] += st.hi < log1p(0.03);
		miss[1] += st.lo > log1p(0.03);
	}
}

static void covered(void)
{
	static const size_t want[4][2] = { { 11, 23 }, { 16, 20 }, { 25, 19 }, { 25, 17 } };
	size_t miss[2];

	for (int c = 0; c < 4; c++) {
		coverage(10 + (uint64_t)c, c % 2 ? 60 : 30, c >= 2, miss);
		fprintf(stderr, "coverage, %d rounds, %s: missed below %zu, above %zu of 4000\n",
			c % 2 ? 60 : 30, c >= 2 ? "Laplace" : "normal", miss[0], miss[1]);
		CHECK(miss[0] <= 33 && miss[1] <= 33);
		CHECK_EQ_U64(miss[0], want[c][0]);
		CHECK_EQ_U64(miss[1], want[c][1]);
	}
}

/*
 * Sequential invocations, as bench ab samples: looks at 30, 60, 120, ...
 * 960 rounds (AB_LOOKS), each at alpha / AB_LOOKS, stopping at the first look
 * that decides. Counts the regressions, the exits 0, and the final
 * intervals that miss the true shift.
 */
struct seq_count {
	size_t regression, green, miss, looks;
};

static void sequential(uint64_t seed, double shift, size_t invocations, struct seq_count *out)
{
	static double logr[ROUNDS << (AB_LOOKS - 1)], tmp[ROUNDS << (AB_LOOKS - 1)];
	uint64_t s = seed;

	*out = (struct seq_count){ 0 };
	for (size_t i = 0; i < invocations; i++) {
		enum ab_verdict v = AB_INCONCLUSIVE;
		struct ab_stat st;
		size_t n;

		for (n = 1; n <= ab_last_look(ROUNDS); n++) {
			logr[n - 1] = log1p(shift) + SD * gauss(&s);
			if (!ab_look_at(n, ROUNDS))
				continue;
			for (size_t k = 0; k < n; k++)
				tmp[k] = logr[k];
			v = ab_look(tmp, n, ALPHA, THRESHOLD, &st);
			out->looks++;
			if (v != AB_INCONCLUSIVE)
				break;
		}
		out->regression += v == AB_REGRESSION;
		out->green += v == AB_OK || v == AB_SLOWER || v == AB_FASTER;
		out->miss += st.judged && (st.lo > log1p(shift) || st.hi < log1p(shift));
	}
}

/*
 * Under repeated looks: A/A over 1000 invocations, regression at most alpha;
 * +3 %, never green; the interval at the look that stopped misses the shift
 * at most alpha of the time. Looking at each look with the full alpha (no
 * spending) breaks the first and the last.
 */
static void repeated_looks(void)
{
	struct seq_count c;

	sequential(31, 0, 1000, &c);
	fprintf(stderr, "sequential A/A: %zu regression, %zu green, %zu missed, %zu looks\n",
		c.regression, c.green, c.miss, c.looks);
	CHECK(c.regression <= (size_t)(ALPHA * 1000));
	CHECK(c.miss <= (size_t)(ALPHA * 1000));
	CHECK_EQ_U64(c.regression, 4);
	CHECK_EQ_U64(c.miss, 6);
	sequential(32, 0.03, 1000, &c);
	fprintf(stderr, "sequential +3 %%: %zu regression, %zu green, %zu missed, %zu looks\n",
		c.regression, c.green, c.miss, c.looks);
	CHECK_EQ_U64(c.green, 0);
	CHECK(c.miss <= (size_t)(ALPHA * 1000));
	/* 30 rounds alone: 219 of 2000; looks every 30 rounds up to 180: 677 */
	CHECK_EQ_U64(c.regression, 1000);
	CHECK_EQ_U64(c.miss, 3);
}

/* One simulated invocation of one case: its verdict. */
static enum ab_verdict invocation(uint64_t *s, double shift)
{
	double logr[ROUNDS];
	struct ab_stat st;

	for (size_t i = 0; i < ROUNDS; i++)
		logr[i] = log1p(shift) + SD * gauss(s);
	ab_interval(logr, ROUNDS, ALPHA, &st);
	return ab_judge(&st, THRESHOLD);
}

/* The verdicts of INVOCATIONS invocations, and their exit codes; the
 * tally is said on stderr after the label. */
static void simulate(const char *label, uint64_t seed, double shift, struct ab_tally *verdicts,
		     size_t exits[4])
{
	uint64_t s = seed;

	*verdicts = (struct ab_tally){ 0 };
	for (size_t i = 0; i < 4; i++)
		exits[i] = 0;
	for (size_t i = 0; i < INVOCATIONS; i++) {
		struct ab_tally one = { 0 };
		enum ab_verdict v = invocation(&s, shift);

		one.v[v] = 1;
		verdicts->v[v]++;
		exits[ab_exit_code(&one)]++;
	}
	fprintf(stderr, "%s: %zu regression, %zu inconclusive, %zu ok, %zu slower, %zu faster\n",
		label, verdicts->v[AB_REGRESSION], verdicts->v[AB_INCONCLUSIVE], verdicts->v[AB_OK],
		verdicts->v[AB_SLOWER], verdicts->v[AB_FASTER]);
}

static void a_a(void)
{
	struct ab_tally t;
	size_t exits[4];

	simulate("A/A", 1, 0, &t, exits);
	CHECK(t.v[AB_REGRESSION] <= (size_t)(ALPHA * INVOCATIONS));
	CHECK_EQ_U64(t.v[AB_REGRESSION], 15);	/* 0.75 %: 0.5 % expected */
	CHECK_EQ_U64(exits[1], t.v[AB_REGRESSION]);
	/* 30 rounds at 11 % rarely rule out 1 %: an interval that happened to
	 * lie low (ok 19, faster 9); the rest cannot tell */
	CHECK_EQ_U64(t.v[AB_OK] + t.v[AB_FASTER], 28);
	CHECK_EQ_U64(exits[0], 28);
	CHECK_EQ_U64(exits[3], 1957);
}

static void shift_3(void)
{
	struct ab_tally t;
	size_t exits[4];

	simulate("+3 %", 2, 0.03, &t, exits);
	CHECK_EQ_U64(exits[0], 0);	/* never green */
	CHECK_EQ_U64(t.v[AB_OK] + t.v[AB_SLOWER] + t.v[AB_FASTER], 0);
	CHECK_EQ_U64(exits[3], t.v[AB_INCONCLUSIVE]);
	CHECK_EQ_U64(t.v[AB_INCONCLUSIVE], 1781);
	CHECK_EQ_U64(t.v[AB_REGRESSION], 219);
	CHECK_EQ_U64(exits[1] + exits[3], INVOCATIONS);
}

/* One inconclusive case among cleared ones is exit 3; B failing, 1; A, 2. */
static void exit_codes(void)
{
	struct ab_tally t = { .v = { [AB_OK] = 3, [AB_SLOWER] = 1, [AB_FASTER] = 1 } };

	CHECK_EQ_U64(ab_exit_code(&t), 0);
	t.v[AB_INCONCLUSIVE] = 1;
	CHECK_EQ_U64(ab_exit_code(&t), 3);
	t.a_failed = 1;
	CHECK_EQ_U64(ab_exit_code(&t), 2);
	t.v[AB_REGRESSION] = 1;
	CHECK_EQ_U64(ab_exit_code(&t), 1);
	t = (struct ab_tally){ .b_failed = 1 };
	CHECK_EQ_U64(ab_exit_code(&t), 1);
}

int main(void)
{
	a_a();
	shift_3();
	exit_codes();
	covered();
	repeated_looks();
	return test_report("ab_gate_simulated");
}
