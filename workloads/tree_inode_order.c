// SPDX-License-Identifier: MIT
/*
 * tree_inode_order.c - the `inode-order` tree method: walk the whole tree first
 * (folders made, their descriptors kept), then copy the files in the order
 * of their inode numbers, each with copy_file_range(2) as the per-file
 * variant does.
 *
 * Why: getdents64 returns names in hash order on ext4 (htree), which has
 * nothing to do with where the inodes and their blocks lie; reading inodes
 * in number order reads the inode tables sequentially, which is what a cold
 * copy of many small files waits for (the trick of some tar and rsync
 * patches, and of fcp's and xcp's directory scans). Warm, it only shows
 * what the sorting and the kept folders cost.
 */
#include "tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

extern const struct copy_strategy strategy_copy_file_range;

struct sorted_file {
	int src_dir, dst_dir;
	uint64_t ino;
	char *name;
};

struct sorted_list {
	struct sorted_file *v;
	size_t n, cap;
};

static int sorted_add(void *arg, const struct tree_file *f)
{
	struct sorted_list *l = arg;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		struct sorted_file *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].name = strdup(f->name);
	if (!l->v[l->n].name)
		return -ENOMEM;
	l->v[l->n].src_dir = f->src_dir;
	l->v[l->n].dst_dir = f->dst_dir;
	l->v[l->n].ino = f->ino;
	l->n++;
	return 0;
}

static int by_inode(const void *a, const void *b)
{
	uint64_t x = ((const struct sorted_file *)a)->ino;
	uint64_t y = ((const struct sorted_file *)b)->ino;

	return x < y ? -1 : x > y;
}

static int sorted_copy(const struct tree_job *job)
{
	struct sorted_list l = { 0 };
	struct tree_walk w;
	int err;

	err = tree_walk(&w, job, TREE_WALK_KEEP_DIRS, sorted_add, &l);
	if (!err && l.n)
		qsort(l.v, l.n, sizeof(*l.v), by_inode);
	for (size_t i = 0; i < l.n && !err; i++) {
		struct tree_file f = {
			.src_dir = l.v[i].src_dir, .dst_dir = l.v[i].dst_dir,
			.name = l.v[i].name, .ino = l.v[i].ino,
		};

		err = tree_copy_one(job, &strategy_copy_file_range, &f);
	}
	tree_walk_end(&w);
	for (size_t i = 0; i < l.n; i++)
		free(l.v[i].name);
	free(l.v);
	return err;
}

static int sorted_probe(const char *dir, char *why, size_t n)
{
	return strategy_probe(&strategy_copy_file_range, dir, why, n);
}

const struct tree_method tree_method_inode_order = {
	.probe = sorted_probe,
	.copy = sorted_copy,
};
