// SPDX-License-Identifier: MIT
/* registry.c - the one lookup of the plug-in tables (registry.h). */
#include "registry.h"

#include <string.h>

ssize_t registry_find(const void *const *table, size_t n, size_t name_offset, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		const char *const *at = (const char *const *)((const char *)table[i] + name_offset);

		if (strcmp(*at, name) == 0)
			return (ssize_t)i;
	}
	return -1;
}
