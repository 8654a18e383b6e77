// SPDX-License-Identifier: MIT
/* registry.c - the one lookup of the plug-in tables (registry.h). */
#include "registry.h"

#include <string.h>

ssize_t registry_find(size_t n, const char *(*name_at)(size_t i), const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(name_at(i), name) == 0)
			return (ssize_t)i;
	return -1;
}
