// SPDX-License-Identifier: MIT
/*
 * history_check_window_known.c - `bench history check`'s window and
 * baseline on a history whose every figure is known: twelve runs without
 * noise, run i taking exactly (1 + i / 100) times the base time in every
 * rep. --window N must compare with the newest N runs alone, so the
 * baseline is the median of runs 13 - N .. 12, and their count is N: a
 * window one run longer or shorter, or a baseline from another rep than the
 * fastest, moves these exact figures, and so does the bar each change must
 * pass (the threshold column). A case only the run just outside the window
 * has is new to it.
 */
#include "support/history_synth.h"
#include "support/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NRUNS 12
#define BASE_NS 1.0e6	/* readwrite's base time in history_synth.c */
#define EXTRA "splice"	/* history_synth.c's case 4, written when with_extra */

static char db[600];

static struct hsynth exact(uint64_t seed, double factor)
{
	struct hsynth s = hsynth_default(seed);

	s.run_noise = 0;
	s.jitter = 0;
	for (int c = 0; c < 3; c++)
		s.factor[c] = factor;
	return s;
}

static double cell(const char *col)
{
	char v[64];

	test_csv_lookup(hout, "strategy", "readwrite", col, v, sizeof(v));
	return v[0] ? strtod(v, NULL) : NAN;
}

/* The median of runs first..NRUNS's figures. */
static double expected_median(int first)
{
	int n = NRUNS - first + 1;
	double lo = 1 + (first + (n - 1) / 2) / 100.0, hi = 1 + (first + n / 2) / 100.0;

	return BASE_NS * (lo + hi) / 2;
}

/* The bar a change must pass, written in the threshold column: the larger
 * of --threshold (5%) and exp(4 x spread) - 1, the spread being 1.4826 x the
 * median absolute deviation of the log figures of the window's runs, times
 * the small-sample factor that makes its median the sd of normal values
 * (1.864 for 3 runs, 1.340 for 5, 1.136 for 10, 1 + 1.2 / n above 12). */
static double expected_bar_pct(int window)
{
	static const double factor[13] = { 1, 1, 1.420, 1.864, 1.489, 1.340, 1.261, 1.208,
					   1.180, 1.149, 1.136, 1.117, 1.106 };
	double l[NRUNS], d[NRUNS], m, s;
	int first = NRUNS - window + 1;

	for (int i = 0; i < window; i++)
		l[i] = log(1 + (first + i) / 100.0);	/* ascending */
	m = window % 2 ? l[window / 2] : (l[window / 2 - 1] + l[window / 2]) / 2;
	for (int i = 0; i < window; i++)
		d[i] = fabs(l[i] - m);
	for (int i = 1; i < window; i++)	/* insertion sort: few values */
		for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
			double t = d[j];

			d[j] = d[j - 1];
			d[j - 1] = t;
		}
	s = 1.4826 * (window % 2 ? d[window / 2] : (d[window / 2 - 1] + d[window / 2]) / 2) *
	    (window < 13 ? factor[window] : 1 + 1.2 / window);
	return fmax(5.0, (exp(4 * s) - 1) * 100);
}

static void check_bar(int window)
{
	double want = expected_bar_pct(window), got = cell("threshold_pct");

	CHECK(fabs(got - want) < 0.011);
	if (!(fabs(got - want) < 0.011))
		fprintf(stderr, "window %d: threshold_pct %.2f, expected %.2f\n", window, got, want);
}

static void check_window(const char *dir, int window)
{
	char arg[32];
	int rc;

	snprintf(arg, sizeof(arg), "--window=%d", window);
	rc = hrun("check", "--current", dir, "--db", db, "--format", "csv", arg, (char *)NULL);
	CHECK(rc == 0 || rc == 1 || rc == 3);
	CHECK_EQ_U64((uint64_t)cell("baseline_runs"), (uint64_t)window);
	CHECK(fabs(cell("baseline_median_ns") - expected_median(NRUNS - window + 1)) < 0.5);
	CHECK(fabs(cell("current_median_ns") - BASE_NS) < 0.5);
	check_bar(window);
	if (fabs(cell("baseline_median_ns") - expected_median(NRUNS - window + 1)) >= 0.5)
		fprintf(stderr, "window %d: baseline %.0f, expected %.0f\n%s", window,
			cell("baseline_median_ns"), expected_median(NRUNS - window + 1), hout);
}

/* The case only run 7 has is outside a window of 5: new to it. */
static void extra_outside(const char *dir)
{
	char v[64];

	hrun("check", "--current", dir, "--db", db, "--format", "csv", "--window=5", (char *)NULL);
	test_csv_lookup(hout, "strategy", EXTRA, "baseline_runs", v, sizeof(v));
	CHECK(strcmp(v, "0") == 0);
	if (strcmp(v, "0"))
		fprintf(stderr, "window 5, %s: baseline_runs '%s'\n%s", EXTRA, v, hout);
	hrun("check", "--current", dir, "--db", db, "--format", "csv", "--window=6", (char *)NULL);
	test_csv_lookup(hout, "strategy", EXTRA, "baseline_runs", v, sizeof(v));
	CHECK(strcmp(v, "1") == 0);
}

int main(void)
{
	char name[32];
	const char *cur;

	snprintf(db, sizeof(db), "%s", hsynth_path("known.sqlite"));
	for (int i = 1; i <= NRUNS; i++) {
		struct hsynth s = exact((uint64_t)(700 + i), 1 + i / 100.0);
		int rc;

		s.with_extra = i == NRUNS - 5;	/* just outside a window of 5 */

		snprintf(name, sizeof(name), "k%d", i);
		rc = hrun("add", hsynth_write(name, &s), "--commit", name, "--branch", "main",
			  "--db", db, (char *)NULL);
		CHECK_EQ_U64(rc, 0);
	}
	{
		struct hsynth s = exact(799, 1.0);

		s.with_extra = 1;
		cur = hsynth_write("current", &s);
	}
	check_window(cur, 3);
	check_window(cur, 5);
	extra_outside(cur);
	check_window(cur, 10);
	check_window(cur, 12);
	test_cleanup_dir();
	return test_report("history_check_window_known");
}
