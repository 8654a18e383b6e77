// SPDX-License-Identifier: MIT
/*
 * ab.h - `bench ab A B`, the room's door: two builds of bench compared in
 * one invocation, copy by copy.
 *
 * This bench is the orchestrator: it starts A and B as workers (`A copy
 * --serve`, ab_worker.c), asks each to probe every case's strategy once,
 * then for every pair starts a new worker of each, waits until both have
 * answered a probe, and sends each one copy request, A and B in a balanced
 * random order, timing each copy with its own clock from the request
 * written to the reply read. It sets the state before every copy
 * (syncfs and writeback settled, the source's cache state set and checked)
 * and verifies every output as a bench run does (hash, holes, shared
 * extents). The worker's own figure is recorded beside the orchestrator's
 * and a disagreement is reported; the verdict never rests on it.
 * The statistics are lib/abstat.h's.
 */
#ifndef COPYBENCH_AB_H
#define COPYBENCH_AB_H

#include "datasets/dataset.h"
#include "host/cache.h"
#include "options/cli.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ab_opts {
	const char *exe[2];	/* A (the baseline), B (the candidate) */
	struct str_list strategies;	/* empty: every one available here */
	uint64_t size;
	enum dataset_kind kind;
	enum cache_mode cache;
	unsigned rounds, warmup;
	double threshold, alpha;
	const char *dir, *csv;
	bool markdown;
	bool wall;		/* plain wall time, its waits for a CPU included */
	uint64_t seed;
	unsigned max_time;	/* seconds from the start: no look that would end after */
};

/* The whole comparison: the report on stdout, the exit code (abstat.h's
 * ab_exit_code; 2 when it could not start). */
int ab_main(const struct ab_opts *o);

/*
 * The worker's side (`bench copy --serve`): requests on in, one a line,
 * fields separated by tabs, each answered by one line on out:
 *
 *   probe  S DIR       -> ok | unavailable  WHY
 *   copy   S SRC DST   -> ok  WALL_NS  CPU_WAIT_NS | error  WHY
 *
 * A copy creates DST (which must not exist) and copies SRC into it with
 * strategy S, timed around the strategy alone by the worker's clock (its
 * own figure, which the orchestrator records but does not trust). Returns
 * 0 at the end of in.
 */
int ab_worker_serve(FILE *in, FILE *out);

#endif
