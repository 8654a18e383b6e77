// SPDX-License-Identifier: MIT
/* registry.c - the table of workloads. Add a line here to add one. */
#include "workload.h"

#include <string.h>

extern const struct workload workload_copy;
extern const struct workload workload_limit;
extern const struct workload workload_split;
extern const struct workload workload_transform;

const struct workload *const workload_table[] = {
	&workload_copy,
	&workload_split,
	&workload_transform,
	&workload_limit,
};

const size_t workload_count = sizeof(workload_table) / sizeof(workload_table[0]);

const struct workload *workload_find(const char *name)
{
	for (size_t i = 0; i < workload_count; i++)
		if (strcmp(workload_table[i]->name, name) == 0)
			return workload_table[i];
	return NULL;
}

const struct workload_variant *workload_variant_find(const struct workload *wl,
						      const char *name)
{
	for (const struct workload_variant *v = wl->own_variants; v && v->name; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}
