// SPDX-License-Identifier: MIT
/* registry.c - the table of workloads (registry.h). */
#include "workload.h"
#include "lib/registry.h"

#include <stddef.h>
#include <string.h>

/* Every workload, in the order runs and bench list take them: the
 * descriptor its file in workloads/ defines. A new workload is its file and
 * one line here. */
#define WORKLOAD_LIST(X) \
	X(workload_copy) \
	X(workload_split) \
	X(workload_transform) \
	X(workload_tree) \
	X(workload_limit)

#define DECLARE_WORKLOAD(d) extern const struct workload d;
WORKLOAD_LIST(DECLARE_WORKLOAD)

const struct workload *const workload_table[] = { WORKLOAD_LIST(REGISTRY_ENTRY) };
const size_t workload_count = sizeof(workload_table) / sizeof(workload_table[0]);

const struct workload *workload_find(const char *name)
{
	ssize_t i = registry_find((const void *const *)workload_table, workload_count,
				  offsetof(struct workload, name), name);

	return i < 0 ? NULL : workload_table[i];
}
