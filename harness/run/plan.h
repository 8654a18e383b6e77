/* SPDX-License-Identifier: MIT */
/* plan.h - from options to cases. */
#ifndef COPYBENCH_PLAN_H
#define COPYBENCH_PLAN_H

#include "runner.h"

/*
 * Fills r->cases and r->datasets from r->o. Probes every strategy and channel
 * in r->o->dir. 0, or 2 after one line on stderr (usage error), or 1.
 */
int plan_build(struct runner *r);

#endif
