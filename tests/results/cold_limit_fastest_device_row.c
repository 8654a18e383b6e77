// SPDX-License-Identifier: MIT
/*
 * cold_limit_fastest_device_row.c - which limit row a cold copy is divided
 * by, on synthetic rows whose medians are known: a concurrent cold
 * page-cache copy (parallel, io_uring) by the fastest of the three device
 * rows, the concurrent one (device-read-mt) included, whichever it is; a
 * single-stream one (readwrite) by the faster of the single-stream rows
 * (device-read, device-direct), with device-read-mt apart when it is the
 * fastest; `direct` by device-direct only; and %limit is the copy's MiB/s
 * over that row's.
 */
#include "results/summary.h"
#include "support/limit_synth.h"
#include "support/testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIZE (64ull << 20)
#define NCASES 7

enum { PARALLEL, IO_URING, READWRITE, DIRECT, DEV_READ, DEV_MT, DEV_DIRECT };

static const char *const names[NCASES] = { "parallel", "io_uring", "readwrite", "direct",
	"device-read", "device-read-mt", "device-direct" };

/* Median wall times in ms: copies, then the three device rows. */
struct scenario {
	double ms[NCASES];
	const char *want;	/* the concurrent page-cache copies' limit row */
	const char *want_single;	/* readwrite's */
};

static struct run_result runs[NCASES];

static void fill_case(struct bench_case *c, int i, struct dataset *ds, double ms)
{
	synth_cold_case(c, &runs[i], names[i], i >= DEV_READ, ds, SIZE, ms);
	c->spec.threads = i == DEV_MT ? 4 : 0;
}

static int row_index(const char *name)
{
	int lim = DEV_READ;

	while (lim < NCASES && strcmp(names[lim], name))
		lim++;
	return lim;
}

static void check_scenario(const struct scenario *sc)
{
	struct dataset ds = { .kind = DATASET_RANDOM, .size = SIZE };
	struct bench_case cases[NCASES];
	struct case_summary sums[NCASES];
	struct runner r = { .cases = cases, .ncases = NCASES };

	for (int i = 0; i < NCASES; i++)
		fill_case(&cases[i], i, &ds, sc->ms[i]);
	CHECK(cases[PARALLEL].spec.strategy && cases[IO_URING].spec.strategy &&
	      cases[DIRECT].spec.strategy);
	if (!cases[PARALLEL].spec.strategy || !cases[DIRECT].spec.strategy)
		return;
	report_summarize(&r, sums);
	for (int i = PARALLEL; i <= READWRITE; i++) {
		const char *got = sums[i].limit_row;
		const char *want = i == READWRITE ? sc->want_single : sc->want;
		int lim = row_index(want);

		CHECK(got && !strcmp(got, want));
		if (!got || strcmp(got, want))
			fprintf(stderr, "%s: limit row %s, expected %s\n", names[i], got ? got : "none",
				want);
		CHECK(fabs(sums[i].pct_of_limit - 100.0 * sc->ms[lim] / sc->ms[i]) < 1e-9);
	}
	/* the concurrent bound apart, for readwrite only, when it is the fastest */
	CHECK(!sums[PARALLEL].concurrent_row && sums[PARALLEL].pct_of_concurrent < 0);
	if (!strcmp(sc->want, "device-read-mt"))
		CHECK(sums[READWRITE].concurrent_row &&
		      fabs(sums[READWRITE].pct_of_concurrent -
			   100.0 * sc->ms[DEV_MT] / sc->ms[READWRITE]) < 1e-9);
	else
		CHECK(!sums[READWRITE].concurrent_row && sums[READWRITE].pct_of_concurrent < 0);
	CHECK(sums[DIRECT].limit_row && !strcmp(sums[DIRECT].limit_row, "device-direct"));
	CHECK(fabs(sums[DIRECT].pct_of_limit - 100.0 * sc->ms[DEV_DIRECT] / sc->ms[DIRECT]) < 1e-9);
}

int main(void)
{
	static const struct scenario scenarios[] = {
		/* the concurrent row fastest: a concurrent copy over 100 % of the
		 * one-stream row is under 100 % of it; readwrite's bound stays a
		 * one-stream row */
		{ { 25, 30, 40, 60, 40, 20, 50 }, "device-read-mt", "device-read" },
		/* the one-stream buffered row fastest (the concurrent one contends) */
		{ { 25, 30, 40, 60, 20, 30, 50 }, "device-read", "device-read" },
		/* O_DIRECT fastest: it bounds the page-cache copies too */
		{ { 25, 30, 40, 60, 40, 30, 15 }, "device-direct", "device-direct" },
	};

	for (size_t k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++)
		check_scenario(&scenarios[k]);
	return test_report("cold_limit_fastest_device_row");
}
