/* SPDX-License-Identifier: MIT */
/*
 * plan_internal.h - the pieces of the plan shared by its files:
 *   plan.c         the cases: workload x variant x dataset x size x knobs
 *   plan_select.c  what the command line selects, checked before any case
 */
#ifndef COPYBENCH_PLAN_INTERNAL_H
#define COPYBENCH_PLAN_INTERNAL_H

#include "plan.h"

#include <stdbool.h>
#include <stddef.h>

int plan_check_cache(const struct bench_opts *o);
int plan_check_names(const struct bench_opts *o, const struct workload **wls,
		     size_t nwl);
int plan_workloads(const struct bench_opts *o, const struct workload **wls, size_t *nwl,
		   bool tree);
void plan_say_nothing_to_run(const struct bench_opts *o, const struct workload **wls,
			     size_t nwl);

#endif
