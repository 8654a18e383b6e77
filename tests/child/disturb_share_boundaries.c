// SPDX-License-Identifier: MIT
/*
 * disturb_share_boundaries.c - the share rule of disturb.h on made-up
 * snapshots, at its edges: steal counts from the ticks surely inside the
 * window (seen - CPUs) against 10 % of the machine's CPU time in it;
 * reporting from its host faults (5 us a 4 KiB page) against 10 % of the
 * window; a run of a few ticks cannot be shown to have lost a share.
 */
#include "child/disturb.h"
#include "support/testutil.h"

#define MS 1000000ull

/* Probes around a window of `window_ms` on 2 CPUs, 10 ms ticks, with
 * `ticks` of steal and `kib` reported inside it. */
static unsigned judge(uint64_t window_ms, uint64_t ticks, int64_t kib)
{
	struct disturb_probe a = { .t_ns = 5000 * MS, .reported_kib = 4096, .steal_ticks = 700,
				   .tick_ns = 10 * MS, .ncpu = 2 };
	struct disturb_probe b = a;

	b.t_ns += window_ms * MS;
	b.steal_ticks += ticks;
	b.reported_kib += kib;
	return disturb_judge(&a, &b);
}

static void steal_by_share(void)
{
	CHECK(judge(100, 0, 0) == 0);
	CHECK(judge(100, 2, 0) == 0);		/* 2 ticks on 2 CPUs: none surely inside */
	CHECK(judge(100, 4, 0) == 0);		/* 20 ms of 200: exactly 10 %, not more */
	CHECK(judge(100, 5, 0) == DISTURB_STEAL);	/* 30 ms of 200 */
	CHECK(judge(1000, 20, 0) == 0);		/* the same 20 ticks over 1 s: 9 % */
	CHECK(judge(1000, 23, 0) == DISTURB_STEAL);	/* 210 ms of 2000 */
	CHECK(judge(5, 2, 0) == 0);		/* a run of a tick: kept */
	CHECK(judge(5, 3, 0) == DISTURB_STEAL);	/* 10 ms surely stolen in 5 ms */
}

static void reporting_by_share(void)
{
	CHECK(judge(100, 0, 2048) == 0);	/* 512 pages: 2.6 ms of 100 */
	CHECK(judge(100, 0, 6144) == 0);	/* 7.7 ms */
	CHECK(judge(100, 0, 8192) == DISTURB_REPORTING);	/* 10.24 ms */
	CHECK(judge(10, 0, 2048) == DISTURB_REPORTING);	/* 2.6 ms of 10 */
	CHECK(judge(100, 5, 8192) == (DISTURB_REPORTING | DISTURB_STEAL));
}

static void unknown_or_still(void)
{
	struct disturb_probe a = { .t_ns = MS, .reported_kib = -1, .tick_ns = 10 * MS, .ncpu = 2 };
	struct disturb_probe b = a;

	b.t_ns += MS;
	b.reported_kib = 1 << 20;	/* unknown at the start: nothing judged */
	CHECK(disturb_judge(&a, &b) == 0);
	a.reported_kib = 2048;
	b.reported_kib = 0;		/* a counter that went back: nothing */
	CHECK(disturb_judge(&a, &b) == 0);
}

int main(void)
{
	steal_by_share();
	reporting_by_share();
	unknown_or_still();
	return test_report("disturb_share_boundaries");
}
