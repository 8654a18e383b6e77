// SPDX-License-Identifier: MIT
/*
 * progress_eta_from_last_round.c - the time left that progress shows: a
 * round's time for each planned round to go. The counting round and the
 * warm-up take longer than a measured round, and retry rounds are not
 * planned: an average over the rounds so far times the most rounds there may
 * be said about twice the real time early in a run. A budget caps it.
 * Until two measured rounds have ended the plan's estimate is used instead
 * (progress_eta_from_plan_until_two_rounds.c).
 */
#include "run/progress.h"
#include "support/testutil.h"

#include <math.h>

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void without_budget(void)
{
	struct progress p;

	progress_init(&p, true);
	/* 1 counting round + 10 measured, each may be retried: 21 at most */
	progress_rounds_begin(&p, 21, 11);
	CHECK(near(progress_left(&p, 0, 0), -1));
	p.last_round_s = 3.0;	/* the counting round */
	CHECK(near(progress_left(&p, 1, 3.0), 30.0));
	p.last_round_s = 0.5;	/* the first measured round */
	CHECK(near(progress_left(&p, 2, 3.5), 4.5));
	CHECK(near(progress_left(&p, 11, 8.0), 0));
	CHECK(near(progress_left(&p, 13, 9.0), 0));	/* retries: past the plan */
}

static void with_budget(void)
{
	struct progress p;

	progress_init(&p, true);
	progress_rounds_begin(&p, 61, 31);
	progress_budget(&p, 60, 8, 0);
	p.last_round_s = 0.5;
	CHECK(near(progress_left(&p, 2, 10), 14.5));	/* the rounds, under the budget */
	p.last_round_s = 3.0;
	CHECK(near(progress_left(&p, 2, 10), 50));	/* the budget left */
	CHECK(near(progress_left(&p, 2, 59), 18));	/* the minimum's 6 rounds */
	p.last_round_s = 0.5;
	CHECK(near(progress_left(&p, 2, 59), 3));
	CHECK(near(progress_left(&p, 9, 70), 0));
}

int main(void)
{
	without_budget();
	with_budget();
	return test_report("progress_eta_from_last_round");
}
