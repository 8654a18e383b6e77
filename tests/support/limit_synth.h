/* SPDX-License-Identifier: MIT */
/*
 * limit_synth.h - for the tests of the limit rows a copy is divided by: a
 * cold case with one verified run of a known wall time, a copy by a named
 * strategy or a row of the limit workload.
 */
#ifndef COPYBENCH_LIMIT_SYNTH_H
#define COPYBENCH_LIMIT_SYNTH_H

#include "run/case.h"

#include <stdbool.h>

/*
 * c as a cold case of ds (size bytes) whose one run, *run, took ms: a copy
 * by the strategy name (its spec.strategy NULL when there is no such
 * strategy), or the limit row name when limit. Threads and queue depth 0.
 */
void synth_cold_case(struct bench_case *c, struct run_result *run, const char *name, bool limit,
		     struct dataset *ds, uint64_t size, double ms);

#endif
