// SPDX-License-Identifier: MIT
/* limit_synth.c - synthetic cold cases for the limit-row tests (limit_synth.h). */
#include "limit_synth.h"
#include "strategies/strategy.h"
#include "workloads/workload.h"

#include <string.h>

void synth_cold_case(struct bench_case *c, struct run_result *run, const char *name, bool limit,
		     struct dataset *ds, uint64_t size, double ms)
{
	memset(c, 0, sizeof(*c));
	c->spec.wl = workload_find(limit ? "limit" : "copy");
	c->spec.variant = name;
	c->spec.strategy = limit ? NULL : strategy_find(name);
	c->spec.ds = ds;
	c->spec.size = size;
	c->cache = CACHE_COLD;
	c->state = CASE_OK;
	memset(run, 0, sizeof(*run));
	run->rep = 1;
	run->verified = true;
	run->wall_ns = (uint64_t)(ms * 1e6);
	c->runs = run;
	c->nruns = c->cap_runs = 1;
}
