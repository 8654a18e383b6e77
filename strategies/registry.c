// SPDX-License-Identifier: MIT
/* registry.c - the table of strategies, sorted by name. Add a line here when
 * you add a file in strategies/. */
#include "strategy.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

extern const struct copy_strategy strategy_copy_file_range;
extern const struct copy_strategy strategy_corrupt;
extern const struct copy_strategy strategy_direct;
extern const struct copy_strategy strategy_full_buffer;
extern const struct copy_strategy strategy_io_uring;
extern const struct copy_strategy strategy_lines;
extern const struct copy_strategy strategy_mmap;
extern const struct copy_strategy strategy_mmap_memcpy;
extern const struct copy_strategy strategy_parallel;
extern const struct copy_strategy strategy_readwrite;
extern const struct copy_strategy strategy_reflink;
extern const struct copy_strategy strategy_sendfile;
extern const struct copy_strategy strategy_splice;
extern const struct copy_strategy strategy_stdio;
extern const struct copy_strategy strategy_throttled;

const struct copy_strategy *const strategy_table[] = {
	&strategy_copy_file_range,
	&strategy_corrupt,
	&strategy_direct,
	&strategy_full_buffer,
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
};

const size_t strategy_count = sizeof(strategy_table) / sizeof(strategy_table[0]);

const struct copy_strategy *strategy_find(const char *name)
{
	for (size_t i = 0; i < strategy_count; i++)
		if (strcmp(strategy_table[i]->name, name) == 0)
			return strategy_table[i];
	return NULL;
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
