// SPDX-License-Identifier: MIT
/* registry.c - the table of workloads. Add a line here when you add a file
 * in workloads/; its declaration is generated. */
#include "registry.h"
#include "workload.h"

#include <string.h>

/* The extern declaration of every workload descriptor, written at build
 * time by tools/plugin-externs.cmake. */
#include "workload_externs.h"

const struct workload *const workload_table[] = {
	&workload_copy,
	&workload_split,
	&workload_transform,
	&workload_tree,
	&workload_limit,
};

const size_t workload_count = sizeof(workload_table) / sizeof(workload_table[0]);

static const char *workload_name(size_t i)
{
	return workload_table[i]->name;
}

const struct workload *workload_find(const char *name)
{
	ssize_t i = registry_find(workload_count, workload_name, name);

	return i < 0 ? NULL : workload_table[i];
}

const struct workload_variant *workload_variant_find(const struct workload *wl,
						      const char *name)
{
	for (const struct workload_variant *v = wl->own_variants; v && v->name; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}
