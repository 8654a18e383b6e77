// SPDX-License-Identifier: MIT
/* registry.c - the table of strategies, sorted by name. Add one line to the
 * table when you add a file in strategies/; its declaration is generated. */
#include "registry.h"
#include "strategy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The extern declaration of every descriptor in strategies/, written at
 * build time by tools/plugin-externs.cmake. */
#include "strategy_externs.h"

const struct copy_strategy *const strategy_table[] = {
	&strategy_copy_file_range,
	&strategy_corrupt,
	&strategy_direct,
	&strategy_full_buffer,
	&strategy_holes,
	&strategy_io_uring,
	&strategy_lines,
	&strategy_mmap,
	&strategy_mmap_memcpy,
	&strategy_parallel,
	&strategy_readwrite,
	&strategy_reflink,
	&strategy_sendfile,
	&strategy_splice,
	&strategy_stdio,
	&strategy_throttled,
	&strategy_touch_source,
};

const size_t strategy_count = sizeof(strategy_table) / sizeof(strategy_table[0]);

static const char *strategy_name(size_t i)
{
	return strategy_table[i]->name;
}

const struct copy_strategy *strategy_find(const char *name)
{
	ssize_t i = registry_find(strategy_count, strategy_name, name);

	return i < 0 ? NULL : strategy_table[i];
}

int strategy_probe(const struct copy_strategy *s, const char *dir,
		   char *why, size_t n)
{
	if (n)
		why[0] = '\0';
	if (!s->probe)
		return 0;
	return s->probe(dir, why, n);
}

size_t strategy_default_buffer(const struct copy_strategy *s)
{
	return s->default_buffer ? s->default_buffer : STRATEGY_DEFAULT_BUFFER;
}
