/* SPDX-License-Identifier: MIT */
/* plan.h - the options of one invocation, and the cases they expand into. */
#ifndef COPYBENCH_PLAN_H
#define COPYBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache.h"
#include "dataset.h"
#include "strategy.h"
#include "syscount.h"
#include "workload.h"

struct channel;

/* One measured execution of a case. */
struct run_result {
	unsigned rep;		/* 1..N */
	uint64_t wall_ns;
	uint64_t user_ns;
	uint64_t sys_ns;
	long max_rss_kb;
	long minflt, majflt, nvcsw, nivcsw;
	double resident_pct;	/* source residency just before the run */
	bool verified;
};

/* One cell of the experiment matrix. */
struct bench_case {
	const struct workload *wl;
	const char *variant;			/* strategy or channel name */
	const struct copy_strategy *strategy;	/* copy, split */
	const struct channel *channel;		/* transform */
	struct dataset *ds;			/* shared between cases */
	uint64_t size;
	size_t buffer;
	enum cache_mode cache;
	unsigned batch_lines;	/* transform: 0 = buffer-sized batches */
	uint64_t part_size;	/* split */
	unsigned queue_depth;
	unsigned threads;
	bool fsync;		/* fdatasync the output inside the timed region */

	/* Filled by the workload's prepare(). */
	uint64_t expect_hash;
	uint64_t expect_size;

	/* Outcome. */
	enum { CASE_PENDING, CASE_OK, CASE_FAILED, CASE_UNAVAILABLE } state;
	char why[256];		/* reason for failed/unavailable */
	struct run_result *runs;
	size_t nruns;
	struct syscount counts;	/* from the untimed counting pass */
	/* A verified output shared extents with the source (FIEMAP): the
	 * filesystem cloned instead of copying, so the time is no copy speed. */
	bool shared_extents;
};

#endif
