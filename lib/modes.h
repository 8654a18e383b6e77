/* SPDX-License-Identifier: MIT */
/*
 * modes.h - do a case's run times fall into two modes? On a VM a case's
 * runs can sit at two levels (docs/noise.md, "Two modes of one case"), and
 * then the median is whichever level has the majority: it jumps between
 * invocations while neither level moved. The rule (modes.c) flags such a
 * set and gives each level's median and run count, so a reader sees both.
 */
#ifndef COPYBENCH_MODES_H
#define COPYBENCH_MODES_H

#include <stdbool.h>
#include <stddef.h>

/* The fewest runs a mode needs, and its least share of the runs. */
#define MODES_MIN_RUNS 3
#define MODES_MIN_SHARE 0.20
/* The gap between the modes: at least this fraction of the fast mode's
 * median, and more than this many standard deviations of the wider mode. */
#define MODES_MIN_GAP 0.10
#define MODES_GAP_SPREADS 3.0

struct modes {
	unsigned count;		/* 2: two modes; 1: one; 0: no samples */
	double fast_median;	/* the faster mode's (count 1: the median) */
	double slow_median;	/* the slower mode's (count 1: the median) */
	size_t fast_runs;	/* count 1: all of them */
	size_t slow_runs;	/* count 1: 0 */
};

/*
 * Sorts a copy of samples[0..n) and looks for two modes there (see
 * modes.c); fills out either way and returns whether there are two. Pure:
 * the samples are not modified. Too little memory gives count 0.
 */
bool modes_detect(const double *samples, size_t n, struct modes *out);

#endif
