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

extern const struct copy_strategy strategy_copy_file_range;

static int by_inode(const void *a, const void *b)
{
	uint64_t x = ((const struct tree_entry *)a)->ino;
	uint64_t y = ((const struct tree_entry *)b)->ino;

	return x < y ? -1 : x > y;
}

static int sorted_copy(const struct tree_job *job)
{
	struct tree_files l;
	int err = tree_files_walk(&l, job);

	if (!err && l.n)
		qsort(l.v, l.n, sizeof(*l.v), by_inode);
	for (size_t i = 0; i < l.n && !err; i++) {
		struct tree_file f = tree_entry_file(&l, &l.v[i]);

		err = tree_copy_one(job, &strategy_copy_file_range, &f);
	}
	tree_files_end(&l);
	return err;
}

static int sorted_probe(const char *dir, char *why, size_t n)
{
	return strategy_probe(&strategy_copy_file_range, dir, why, n);
}

const struct tree_method tree_method_inode_order = {
	.syscalls = "getdents64,openat,mkdirat,newfstatat,copy_file_range,close",
	.probe = sorted_probe,
	.copy = sorted_copy,
};
