/* SPDX-License-Identifier: MIT */
/*
 * costs.h - where the wall time of a `bench` run went: making datasets,
 * preparing expected outputs, and for every run of every case (counting,
 * warm-up, measured) the time inside the clock against everything around
 * it: setting the cache state, waiting for writeback, the child's fork,
 * setup, teardown and exit, verification, and removing the output. Printed
 * once at the end of a run, on stderr, so a user sees what a job costs.
 */
#ifndef COPYBENCH_COSTS_H
#define COPYBENCH_COSTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The steps of one run, in the order they happen. */
enum cost_step {
	COST_CACHE,		/* set and check the source's cache state */
	COST_WRITEBACK,		/* wait for earlier writeback to drain */
	COST_CHILD,		/* fork, setup, teardown, exit: the child, untimed */
	COST_TIMED,		/* inside the clock */
	COST_VERIFY,		/* verify the output */
	COST_REMOVE,		/* inspect and remove the output */
	COST_STEPS,
};

/* Which round a run belongs to. */
enum cost_round { COST_COUNTING, COST_WARMUP, COST_MEASURED, COST_ROUNDS };

#define COSTS_WORKLOADS 8

struct cost_row {
	const char *workload;
	uint64_t runs[COST_ROUNDS];
	uint64_t ns[COST_ROUNDS][COST_STEPS];
};

struct costs {
	uint64_t start_ns;	/* when the command began */
	uint64_t generate_ns;	/* making (or checking) the datasets */
	uint64_t generated_bytes;	/* of datasets made, not reused */
	uint64_t prepare_ns;	/* workloads' prepare(): expected outputs */
	enum cost_round round;	/* the round the next runs belong to */
	struct cost_row rows[COSTS_WORKLOADS];
	size_t nrows;
};

/* CLOCK_MONOTONIC stamps the runner takes between the steps of one run. */
struct cost_stamps {
	uint64_t start;		/* before the cache state is set */
	uint64_t cached;	/* the cache state is set and checked */
	uint64_t settled;	/* writeback has drained */
	uint64_t reaped;	/* the child has exited */
	uint64_t verified;	/* the output is verified (or not: failed) */
	uint64_t removed;	/* the output is removed */
	uint64_t timed_ns;	/* the child's clock, part of fork..reaped */
};

void costs_begin(struct costs *c, uint64_t now_ns);
/* Adds one run of `workload` in the current round. */
void costs_add_run(struct costs *c, const char *workload, const struct cost_stamps *s);
/* The block printed at the end of a run: wall time now_ns - start. */
void costs_print(FILE *f, const struct costs *c, uint64_t now_ns);

#endif
