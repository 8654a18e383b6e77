// SPDX-License-Identifier: MIT
/* registry.c - the table of strategies (registry.h). */
#include "lib/registry.h"
#include "strategy.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Every strategy, sorted by name: the descriptor its file in strategies/
 * defines. A new strategy is its file and one line here. */
#define STRATEGY_LIST(X) \
	X(strategy_copy_file_range) \
	X(strategy_corrupt) \
	X(strategy_direct) \
	X(strategy_full_buffer) \
	X(strategy_holes) \
	X(strategy_io_uring) \
	X(strategy_lines) \
	X(strategy_mmap) \
	X(strategy_mmap_memcpy) \
	X(strategy_parallel) \
	X(strategy_readwrite) \
	X(strategy_reflink) \
	X(strategy_sendfile) \
	X(strategy_splice) \
	X(strategy_stdio) \
	X(strategy_throttled) \
	X(strategy_touch_source)

#define DECLARE_STRATEGY(d) extern const struct copy_strategy d;
STRATEGY_LIST(DECLARE_STRATEGY)

const struct copy_strategy *const strategy_table[] = { STRATEGY_LIST(REGISTRY_ENTRY) };
const size_t strategy_count = sizeof(strategy_table) / sizeof(strategy_table[0]);

const struct copy_strategy *strategy_find(const char *name)
{
	ssize_t i = registry_find((const void *const *)strategy_table, strategy_count,
				  offsetof(struct copy_strategy, name), name);

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
