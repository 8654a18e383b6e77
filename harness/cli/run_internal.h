/* SPDX-License-Identifier: MIT */
/*
 * run_internal.h - the pieces of `bench [options]` shared by its files:
 *   run_preflight.c  the checks before any work
 *   run_steps.c      the plan shown, the datasets made, the runs, the results
 *   run_dry.c        --dry-run
 */
#ifndef COPYBENCH_RUN_INTERNAL_H
#define COPYBENCH_RUN_INTERNAL_H

#include "run.h"

#include <stddef.h>
#include <stdint.h>

/* Datasets are made at about this many bytes a second (docs/budget.md). */
#define DRY_GEN_RATE (512.0 * 1048576.0)

/* "79.2G": one decimal in the largest unit, for messages. */
void run_approx_size(uint64_t bytes, char *out, size_t n);
/* Bytes of datasets still to make, and the largest dataset (an output's size). */
void run_space_needed(const struct runner *r, uint64_t *to_make, uint64_t *biggest);
/* "1 counting run (the warm-up), 5 measured": the runs of each case. */
void run_runs_per_case(const struct bench_opts *o, char *out, size_t n);

#endif
