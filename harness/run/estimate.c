// SPDX-License-Identifier: MIT
/*
 * estimate.c - the time a run takes, from rates per workload (estimate.h).
 * The default rates are this project's 2-vCPU VM's, busy, at 200M
 * (docs/budget.md); a measured rate replaces them.
 */
#include "estimate.h"

#include <string.h>

#define MIB (1024.0 * 1024.0)
/* A run's cost that no byte explains: fork, exec of a checker, fsyncs. */
#define ESTIMATE_RUN_OVERHEAD_S 0.02

static const struct estimate_rate defaults[] = {
	{ "copy", 280, 0, 0 },
	{ "split", 250, 0, 0 },
	{ "transform", 200, 0, 0 },
	{ "tree", 0, 900, 0 },
	{ "limit", 800, 0, 0 },
};

void estimate_init(struct estimate *e)
{
	memset(e, 0, sizeof(*e));
	memcpy(e->rates, defaults, sizeof(defaults));
	e->nrates = sizeof(defaults) / sizeof(defaults[0]);
}

const struct estimate_rate *estimate_rate_of(const struct estimate *e, const char *wl)
{
	for (size_t i = 0; i < e->nrates; i++)
		if (!strcmp(e->rates[i].workload, wl))
			return &e->rates[i];
	return &defaults[0];
}

double estimate_run_s(const struct estimate *e, const struct bench_case *c)
{
	const struct estimate_rate *r = estimate_rate_of(e, c->spec.wl->name);

	if (c->spec.files && r->files_per_s > 0)
		return ESTIMATE_RUN_OVERHEAD_S + (double)c->spec.files / r->files_per_s;
	return ESTIMATE_RUN_OVERHEAD_S + (double)c->spec.size / MIB / r->mib_per_s;
}
