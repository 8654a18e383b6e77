// SPDX-License-Identifier: MIT
/* registry.c - the table of strategies (registry.h). */
#include "strategy.h"
#include "lib/registry.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Every strategy, sorted by name: the descriptor its file in strategies/
 * defines. A new strategy is its file and one line here. */
#define STRATEGY_LIST(X) \
	X(strategy_copy_file_range) \
	X(strategy_direct) \
	X(strategy_full_buffer) \
	X(strategy_io_uring) \
	X(strategy_lines) \
	X(strategy_mmap) \
	X(strategy_mmap_memcpy) \
	X(strategy_parallel) \
	X(strategy_readwrite) \
	X(strategy_reflink) \
	X(strategy_sendfile) \
	X(strategy_splice) \
	X(strategy_stdio)

#define DECLARE_STRATEGY(d) extern const struct copy_strategy d;
STRATEGY_LIST(DECLARE_STRATEGY)

static const struct copy_strategy *const product_table[] = { STRATEGY_LIST(REGISTRY_ENTRY) };

#define PRODUCT_COUNT (sizeof(product_table) / sizeof(product_table[0]))

/* The product's strategies and, once strategy_register_extra has run, the
 * extra ones merged in by name: what strategy_table points to then. */
static const struct copy_strategy *merged_table[PRODUCT_COUNT + STRATEGY_EXTRA_MAX];

const struct copy_strategy *const *strategy_table = product_table;
size_t strategy_count = PRODUCT_COUNT;

/* Places s in merged_table[0..n), sorted by name. */
static void merge_one(const struct copy_strategy *s, size_t n)
{
	size_t i = n;

	while (i > 0 && strcmp(merged_table[i - 1]->name, s->name) > 0) {
		merged_table[i] = merged_table[i - 1];
		i--;
	}
	merged_table[i] = s;
}

int strategy_register_extra(const struct copy_strategy *const *extra, size_t n)
{
	size_t count = strategy_count;

	if (count + n > PRODUCT_COUNT + STRATEGY_EXTRA_MAX)
		return -ENOSPC;
	for (size_t i = 0; i < n; i++) {
		if (strategy_find(extra[i]->name))
			return -EEXIST;
		for (size_t j = 0; j < i; j++)
			if (strcmp(extra[j]->name, extra[i]->name) == 0)
				return -EEXIST;
	}
	if (strategy_table != merged_table)
		memcpy(merged_table, product_table, sizeof(product_table));
	for (size_t i = 0; i < n; i++)
		merge_one(extra[i], count++);
	strategy_table = merged_table;
	strategy_count = count;
	return 0;
}

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
