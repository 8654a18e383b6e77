// SPDX-License-Identifier: MIT
/*
 * budget_plan_synthetic.c - the --budget planner (harness/run/budget.c) on a
 * synthetic cost model. Five cases ranked together, each with a true median
 * and a run cost; after n runs a case's 95 % interval is its median
 * +-SPREAD / sqrt(n). The rounds are played until the planner gives none:
 *
 *   A 100, B 103 (cost 0.1 s each): their intervals overlap up to n = 412,
 *     so both run to the most (MAX);
 *   C 200 (0.12 s): apart from B by 1.94x (> APART) and its interval never
 *     meets B's: it stops at the minimum, wide as it is;
 *   D 4000 (1.6 s, full-buffer's place): clearly last, stops at the minimum;
 *   E 130 (5 s): apart from B's interval from n = 7 on, but wider than the
 *     5 % target and within 1.5x of B's median: unsettled, and the dearest.
 *
 * The budget is the measured minimum (6 runs each: 41.52 s) and 20 s more.
 * Each later round costs A + B + E = 5.2 s while E fits: 3 rounds (15.6 s),
 * then the 4.4 s left go to A and B alone (0.2 s a round) up to MAX. So A
 * and B get MAX runs, E 9, C and D the minimum.
 *
 * Then: the minimum is counted exactly; the rounds keep BUDGET_RESERVE
 * of the budget back; when the time left fits only some
 * runs, the cheapest go first; a case short of the minimum runs whatever is
 * left.
 */
#include "run/budget.h"
#include "support/testutil.h"

#include <math.h>
#include <string.h>

#define NCASES 5
#define SPREAD 0.30
#define MAX 20u

static const double medians[NCASES] = { 100, 103, 200, 4000, 130 };
static const double costs[NCASES] = { 0.1, 0.1, 0.12, 1.6, 5 };

static void set_interval(struct budget_case *c, double true_median)
{
	double h = SPREAD / sqrt((double)c->runs);

	c->median = true_median;
	c->lo = c->runs >= BUDGET_MIN_RUNS ? true_median * (1 - h) : 0;
	c->hi = c->runs >= BUDGET_MIN_RUNS ? true_median * (1 + h) : 0;
}

/* Plays the measured rounds; returns the seconds spent. */
static double play(struct budget_case *cs, const struct budget_rules *rules, double budget_s,
		   unsigned *rounds)
{
	bool want[NCASES];
	double spent = 0;

	*rounds = 0;
	while (budget_next_round(cs, NCASES, rules, budget_s - spent, want)) {
		for (size_t i = 0; i < NCASES; i++) {
			if (!want[i])
				continue;
			cs[i].runs++;
			spent += cs[i].cost_s;
			set_interval(&cs[i], medians[i]);
		}
		if (++*rounds > 1000)
			break;
	}
	return spent;
}

static void check_allocation(void)
{
	const struct budget_rules rules = { .min = BUDGET_MIN_RUNS, .max = MAX, .target = 0.05,
					    .apart = 1.5 };
	struct budget_case cs[NCASES];
	unsigned rounds;
	double spent;

	memset(cs, 0, sizeof(cs));
	for (size_t i = 0; i < NCASES; i++)
		cs[i].cost_s = costs[i];
	CHECK(fabs(budget_minimum_s(cs, NCASES, &rules, 1) - 7 * 6.92) < 1e-9);
	spent = play(cs, &rules, 6 * 6.92 + 20, &rounds);
	CHECK_EQ_U64(cs[0].runs, MAX);
	CHECK_EQ_U64(cs[1].runs, MAX);
	CHECK_EQ_U64(cs[2].runs, BUDGET_MIN_RUNS);
	CHECK_EQ_U64(cs[3].runs, BUDGET_MIN_RUNS);	/* clearly last: the minimum */
	CHECK_EQ_U64(cs[4].runs, 9);
	CHECK_EQ_U64(rounds, MAX);
	CHECK(fabs(spent - (6 * 6.92 + 3 * 5.2 + 11 * 0.2)) < 1e-9);
	for (size_t i = 0; i < NCASES; i++)
		if (cs[i].runs != (size_t[]){ MAX, MAX, 6, 6, 9 }[i])
			fprintf(stderr, "case %c: %zu runs\n", (char)('A' + i), cs[i].runs);
}

/* The time left fits one more run of the cheap pair only: they go first. */
static void check_cheapest_first(void)
{
	/* a target of 20 %: only the overlaps make these cases unsettled */
	const struct budget_rules rules = { .min = BUDGET_MIN_RUNS, .max = MAX, .target = 0.2,
					    .apart = 1.5 };
	struct budget_case cs[4] = {
		{ .cost_s = 3, .runs = 6, .median = 50, .lo = 45, .hi = 55, .group = 1 },
		{ .cost_s = 0.2, .runs = 6, .median = 10, .lo = 9, .hi = 11, .group = 0 },
		{ .cost_s = 0.2, .runs = 6, .median = 10.5, .lo = 9.5, .hi = 11.5, .group = 0 },
		{ .cost_s = 3, .runs = 6, .median = 52, .lo = 47, .hi = 57, .group = 1 },
	};
	bool want[4];

	CHECK_EQ_U64(budget_next_round(cs, 4, &rules, 1.0, want), 2);
	CHECK(!want[0] && want[1] && want[2] && !want[3]);
	CHECK_EQ_U64(budget_next_round(cs, 4, &rules, 10.0, want), 4);
	/* a case short of the minimum runs whatever the time left */
	cs[0].runs = 3;
	CHECK_EQ_U64(budget_next_round(cs, 4, &rules, 0, want), 1);
	CHECK(want[0] && !want[1]);
}

/* The rounds stop short of the budget by its reserve and the finish: of
 * 120 s, with 100 s gone and 6 s to finish, 120 - 4.8 - 100 - 6 = 9.2 s. */
static void check_reserve(void)
{
	CHECK(fabs(budget_left_s(120, 100, 6) - 9.2) < 1e-9);
	CHECK(budget_left_s(120, 110, 6) < 0);
}

int main(void)
{
	check_allocation();
	check_reserve();
	check_cheapest_first();
	return test_report("budget_plan_synthetic");
}
