// SPDX-License-Identifier: MIT
/*
 * progress_eta_from_plan_until_two_rounds.c - the time left that progress
 * shows until two measured rounds have ended: the round's time is the plan's
 * estimate (the counting round and the first measured one, which also waits
 * for the counters' removal, said several times the real time left:
 * docs/budget.md), and a budget caps it. After that, the last round's time
 * (progress_eta_from_last_round.c).
 */
#include "run/progress.h"
#include "support/testutil.h"

#include <string.h>

/* What the line says after rounds_done rounds, elapsed seconds in. */
static void check_text(const struct progress *p, unsigned rounds_done, double elapsed,
		       const char *want)
{
	char got[64];

	progress_left_text(p, rounds_done, elapsed, got, sizeof(got));
	test_checks++;
	if (strcmp(got, want)) {
		test_failures++;
		fprintf(stderr, "progress_eta_from_plan_until_two_rounds.c: after %u rounds at %.1f s: '%s', expected '%s'\n",
			rounds_done, elapsed, got, want);
	}
}

/* 1 counting round and 10 measured, a round of every case estimated at
 * 0.8 s by the plan and the counters' removal at 2 s: the plan counts until
 * 2 measured rounds have ended. */
static void from_plan(void)
{
	struct progress p;

	progress_init(&p, true);
	progress_rounds_begin(&p, 21, 11);
	check_text(&p, 0, 0, "");			/* no plan: not known yet */
	progress_plan(&p, 0.8, 1);
	progress_pending(&p, 2.0);
	check_text(&p, 0, 0, "about 11 s left");	/* 11 x 0.8 + 2, from the first case */
	p.last_round_s = 3.0;				/* the counting round */
	check_text(&p, 1, 3.0, "about 10 s left");	/* 10 x 0.8 + 2, not 10 x 3 */
	progress_pending(&p, 0);			/* the counters are down */
	check_text(&p, 1, 5.0, "about 8 s left");
	p.last_round_s = 2.0;				/* the first measured round */
	check_text(&p, 2, 5.0, "about 7 s left");	/* 9 x 0.8, not 9 x 2 */
	p.last_round_s = 0.5;				/* the second */
	check_text(&p, 3, 5.5, "about 4 s left");	/* 8 x 0.5: measured now */
	check_text(&p, 11, 9.5, "about 0 s left");
	check_text(&p, 12, 9.9, "about 0 s left");	/* a retry round */
}

/* The plan's rounds capped by the budget left, but not below the
 * minimum's rounds left. */
static void from_plan_with_budget(void)
{
	struct progress p;

	progress_init(&p, true);
	progress_rounds_begin(&p, 61, 31);
	progress_budget(&p, 20, 7, 0);
	progress_plan(&p, 1.0, 1);
	check_text(&p, 0, 2, "about 18 s left");	/* 31 x 1 capped at 20 - 2 */
	check_text(&p, 0, 15, "about 7 s left");	/* the minimum's 7 rounds */
	check_text(&p, 2, 19, "about 5 s left");
	p.last_round_s = 0.25;
	check_text(&p, 3, 10, "about 7 s left");	/* 28 x 0.25 under the budget */
}

int main(void)
{
	from_plan();
	from_plan_with_budget();
	return test_report("progress_eta_from_plan_until_two_rounds");
}
