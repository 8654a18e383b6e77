/* SPDX-License-Identifier: MIT */
/*
 * budget.h - where a time budget's measured runs go (--budget). A pure
 * function of what is known of each case: the cost of one of its runs, its
 * counted runs so far, its median and the median's 95 % interval, and which
 * cases are ranked together; the runner asks it before every measured round
 * which cases run in it, so the rounds stay interleaved and every run keeps
 * its warm or cold discipline.
 *
 * The rule: every open case first gets the minimum (BUDGET_MIN_RUNS, the
 * fewest runs with a 95 % interval of the median); then a round goes to the
 * cases whose place is not settled, cheapest run first, as long as the runs
 * fit the time left. A case is unsettled when its interval overlaps the
 * interval of a ranking neighbour (the case just faster or just slower), or
 * when its interval is wider than rules->target and a neighbour is close
 * (within rules->apart times its median) or it has none. A case clearly
 * apart from its neighbours, such as a clearly-last one, stops at the
 * minimum however wide its interval.
 */
#ifndef COPYBENCH_BUDGET_H
#define COPYBENCH_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stats.h"

/* The fewest counted runs with a 95 % order-statistic interval of the median. */
#define BUDGET_MIN_RUNS ((unsigned)STATS_CI_MIN_RUNS)
/*
 * The share of the budget kept back from the rounds: the time a round and
 * the finish after the last run will take are means, and the main job
 * (`bench --all --size 200M`, 120 s) ended 0.5-3 s past its plan here.
 */
#define BUDGET_RESERVE 0.04
/* A case alone in no ranking. */
#define BUDGET_NO_GROUP SIZE_MAX

struct budget_case {
	double cost_s;		/* one measured run, its work around the clock included */
	size_t runs;		/* counted runs so far */
	double median;		/* of the counted runs (any unit, one for all cases) */
	double lo, hi;		/* its 95 % interval; lo = hi = 0: none yet */
	size_t group;		/* cases ranked together share it; BUDGET_NO_GROUP */
	bool closed;		/* failed or unavailable: no more runs */
};

struct budget_rules {
	unsigned min, max;	/* counted runs per case: at least, at most */
	double target;		/* half the interval over the median that settles a case */
	double apart;		/* a neighbour whose median is this many times away is far */
};

/* Seconds of the minimum: `unmeasured` runs (counting, warm-up) and the
 * missing measured ones of every open case. */
double budget_minimum_s(const struct budget_case *cs, size_t n, const struct budget_rules *rules,
			unsigned unmeasured);

/* The seconds the rounds may still take: a budget of budget_s, elapsed_s
 * of it gone, finish_s needed after the last run, BUDGET_RESERVE kept back. */
double budget_left_s(double budget_s, double elapsed_s, double finish_s);

/* Does case i want more runs to settle its place (cost and budget aside)? */
bool budget_unsettled(const struct budget_case *cs, size_t n, size_t i,
		      const struct budget_rules *rules);

/*
 * The cases of the next measured round: want[i] set for each. While an open
 * case lacks the minimum, those cases (whatever the time left: the minimum
 * was checked before the run); then the unsettled cases under rules->max,
 * cheapest first, while their runs fit left_s. Returns how many; 0 ends the
 * measured rounds.
 */
size_t budget_next_round(const struct budget_case *cs, size_t n, const struct budget_rules *rules,
			 double left_s, bool *want);

#endif
