// SPDX-License-Identifier: MIT
/*
 * limit_single_stream_ignores_queue_depth.c - readwrite's %limit is the same
 * whether the invocation said --queue-depth 2 or --queue-depth 32. The option
 * sets how many streams device-read-mt reads with (the most requests any
 * strategy keeps in flight), so that row's speed follows it; readwrite, one
 * stream, is bounded by the one-stream device rows only. Synthetic rows with
 * known medians: device-read-mt reads 200M in 80 ms with 2 streams (slower
 * than device-read's 50 ms) and in 20 ms with 32 (the fastest row); io_uring,
 * which takes the queue depth, is bounded by it in the second case.
 */
#include "results/summary.h"
#include "support/limit_synth.h"
#include "support/testutil.h"

#include <math.h>
#include <string.h>

#define SIZE (200ull << 20)
#define NCASES 5

enum { READWRITE, IO_URING, DEV_READ, DEV_DIRECT, DEV_MT };

static const char *const names[NCASES] = { "readwrite", "io_uring", "device-read",
	"device-direct", "device-read-mt" };

static struct run_result runs[NCASES];

static void fill_case(struct bench_case *c, int i, struct dataset *ds, double ms, unsigned qd)
{
	synth_cold_case(c, &runs[i], names[i], i >= DEV_READ, ds, SIZE, ms);
	c->spec.queue_depth = i == IO_URING ? qd : 0;
	c->spec.threads = i == DEV_MT ? qd : 0;
}

/* readwrite's and io_uring's %limit with the device-read-mt row of qd streams. */
static void limits_at(unsigned qd, double mt_ms, double *rw_pct, double *uring_pct,
		      const char **rw_row)
{
	static const double ms[NCASES] = { 100, 40, 50, 60, 0 };
	struct dataset ds = { .kind = DATASET_RANDOM, .size = SIZE };
	struct bench_case cases[NCASES];
	struct case_summary sums[NCASES];
	struct runner r = { .cases = cases, .ncases = NCASES };

	for (int i = 0; i < NCASES; i++)
		fill_case(&cases[i], i, &ds, i == DEV_MT ? mt_ms : ms[i], qd);
	CHECK(cases[READWRITE].spec.strategy && cases[IO_URING].spec.strategy);
	if (!cases[READWRITE].spec.strategy || !cases[IO_URING].spec.strategy)
		return;
	report_summarize(&r, sums);
	*rw_pct = sums[READWRITE].pct_of_limit;
	*uring_pct = sums[IO_URING].pct_of_limit;
	*rw_row = sums[READWRITE].limit_row ? sums[READWRITE].limit_row : "none";
}

int main(void)
{
	double rw2 = -1, rw32 = -2, ur2 = -1, ur32 = -1;
	const char *row2 = "none", *row32 = "none";

	limits_at(2, 80, &rw2, &ur2, &row2);
	limits_at(32, 20, &rw32, &ur32, &row32);
	CHECK(fabs(rw2 - 50.0) < 1e-9);	/* 50 ms of device-read over 100 ms */
	CHECK(fabs(rw32 - rw2) < 1e-9);
	CHECK(!strcmp(row2, "device-read") && !strcmp(row32, "device-read"));
	if (fabs(rw32 - rw2) >= 1e-9)
		fprintf(stderr, "readwrite %%limit %.1f (%s) at --queue-depth 2, %.1f (%s) at 32\n",
			rw2, row2, rw32, row32);
	/* io_uring takes the queue depth: its bound follows it */
	CHECK(fabs(ur2 - 125.0) < 1e-9 && fabs(ur32 - 50.0) < 1e-9);
	return test_report("limit_single_stream_ignores_queue_depth");
}
