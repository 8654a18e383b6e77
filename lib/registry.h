/* SPDX-License-Identifier: MIT */
/*
 * registry.h - the plug-in tables (strategies, workloads, channels, tree
 * methods): how each is written, and the one lookup by name.
 */
#ifndef COPYBENCH_REGISTRY_H
#define COPYBENCH_REGISTRY_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Each extension point is one list, one line a plug-in: the name of the
 * descriptor its file defines, X(descriptor), in a macro NAME_LIST(X). Its
 * registry expands the list twice, to declare every descriptor and to make
 * the table of them:
 *
 *	#define STRATEGY_LIST(X)  *		X(strategy_copy_file_range)  *		X(strategy_readwrite)
 *	STRATEGY_LIST(REGISTRY_DECLARE_STRATEGY)   (extern const struct ... d;)
 *	const struct copy_strategy *const strategy_table[] = { STRATEGY_LIST(REGISTRY_ENTRY) };
 *
 * The descriptor's whole name is on its line, so grep finds it there.
 */
#define REGISTRY_ENTRY(descriptor) &descriptor,

/* The index of the entry called name among table[0..n), each a descriptor
 * whose name (const char *) is name_offset bytes in; -1 when none is. */
ssize_t registry_find(const void *const *table, size_t n, size_t name_offset, const char *name);

#endif
