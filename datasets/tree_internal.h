/* SPDX-License-Identifier: MIT */
/*
 * tree_internal.h - the pieces of trees of files shared by their files:
 *   tree_hash.c  the list of a tree's entries and its hash, the walk
 *   treegen.c    a tree generated, listed as it is written
 */
#ifndef COPYBENCH_TREE_INTERNAL_H
#define COPYBENCH_TREE_INTERNAL_H

#include "treegen.h"

#include <stddef.h>
#include <stdint.h>

struct tree_entry {
	char *name;		/* relative to the root */
	char type;		/* 'd' or 'f' */
	uint64_t size;
	uint64_t hash;
};

struct tree_list {
	struct tree_entry *v;
	size_t n, cap;
};

int tree_list_add(struct tree_list *l, const char *name, char type,
		  uint64_t size, uint64_t hash);
void tree_list_free(struct tree_list *l);
/* Sorts l and hashes it into sum. */
int tree_list_sum(struct tree_list *l, struct tree_sum *sum);

#endif
