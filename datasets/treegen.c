// SPDX-License-Identifier: MIT
/*
 * treegen.c - trees of many files generated, reproducible from (files,
 * size, seed). The tree hash that verifies a copy of one is tree_hash.c's,
 * a tree's removal tree_remove.c's.
 *
 * A generated tree has TREE_FANOUT folders under its root, each holding
 * TREE_FANOUT folders (treegen.h): up to TREE_LEAVES leaf folders, fewer when
 * there are fewer files, and file number i ("f<i>") in leaf i % leaves. Its
 * bytes are random, from a stream of its own per file (dataset_fill_stream):
 * nothing compresses or deduplicates. Each file is `size` bytes, or, for
 * DATASET_SIZE_SRC, drawn from the size mix of a real source tree:
 * the file sizes of /usr/include on a Debian 12 machine (22 353 files),
 * their quantiles below, linear between them, clipped at 1 MiB
 * (docs/tree.md says how they were measured).
 */
#include "stream.h"
#include "tree_internal.h"
#include "lib/fileio.h"
#include "lib/rng.h"
#include "lib/units.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

/* Quantiles of the file sizes of /usr/include (Debian 12), docs/tree.md. */
static const struct { double q; double bytes; } tree_src_mix[] = {
	{ 0.00, 0 },     { 0.10, 751 },    { 0.20, 1140 },   { 0.30, 1625 },
	{ 0.40, 2284 },  { 0.50, 3215 },   { 0.60, 4612 },   { 0.70, 7098 },
	{ 0.80, 11747 }, { 0.90, 23380 },  { 0.95, 41441 },  { 0.99, 109792 },
	{ 1.00, 1048576 },
};

void tree_size_name(uint64_t size, char *out, size_t n)
{
	if (size == DATASET_SIZE_SRC)
		snprintf(out, n, "src");
	else
		format_size(size, out, n);
}

uint64_t tree_file_size(uint64_t size, uint64_t seed, uint64_t i)
{
	uint64_t m = seed ^ 0x7472656573697a65ull;	/* "treesize" */
	size_t k = 1;
	double u, f;

	if (size != DATASET_SIZE_SRC)
		return size;
	m = splitmix64(&m) ^ i;
	u = (double)(splitmix64(&m) >> 11) / 9007199254740992.0;	/* [0, 1) */
	while (k + 1 < sizeof(tree_src_mix) / sizeof(tree_src_mix[0]) && u >= tree_src_mix[k].q)
		k++;
	f = (u - tree_src_mix[k - 1].q) / (tree_src_mix[k].q - tree_src_mix[k - 1].q);
	return (uint64_t)(tree_src_mix[k - 1].bytes +
			  f * (tree_src_mix[k].bytes - tree_src_mix[k - 1].bytes));
}

uint64_t tree_total_size(uint64_t size, uint64_t files, uint64_t seed)
{
	uint64_t total = 0;

	for (uint64_t i = 0; i < files; i++)
		total += tree_file_size(size, seed, i);
	return total;
}

/* ------------------------------------------------------------------ */
/* Generating a tree                                                   */
/* ------------------------------------------------------------------ */

struct tree_gen {
	uint64_t size, files, seed;
	int root;
	struct tree_list l;
	char *buf;
	size_t cap;
};

static unsigned tree_leaves(uint64_t files)
{
	return files >= TREE_LEAVES ? TREE_LEAVES : files ? (unsigned)files : 1;
}

static void leaf_name(unsigned leaf, char *out, size_t n)
{
	snprintf(out, n, "d%u/d%u", leaf / TREE_FANOUT, leaf % TREE_FANOUT);
}

static int gen_dirs(struct tree_gen *g, unsigned leaves)
{
	char name[32];

	for (unsigned top = 0; top * TREE_FANOUT < leaves; top++) {
		snprintf(name, sizeof(name), "d%u", top);
		if (mkdirat(g->root, name, 0755))
			return -errno;
		if (tree_list_add(&g->l, name, 'd', 0, 0))
			return -ENOMEM;
	}
	for (unsigned leaf = 0; leaf < leaves; leaf++) {
		leaf_name(leaf, name, sizeof(name));
		if (mkdirat(g->root, name, 0755))
			return -errno;
		if (tree_list_add(&g->l, name, 'd', 0, 0))
			return -ENOMEM;
	}
	return 0;
}

static int gen_file(struct tree_gen *g, int dfd, const char *dir, uint64_t i)
{
	uint64_t size = tree_file_size(g->size, g->seed, i);
	char name[32], rel[64];
	int fd, err;

	if (size > g->cap) {
		char *b = realloc(g->buf, (size_t)size);

		if (!b)
			return -ENOMEM;
		g->buf = b;
		g->cap = (size_t)size;
	}
	dataset_fill_stream(g->seed, i, g->buf, (size_t)size);
	snprintf(name, sizeof(name), "f%" PRIu64, i);
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	err = full_pwrite(fd, g->buf, (size_t)size, 0);
	if (close(fd) && !err)
		err = -errno;
	if (err)
		return err;
	snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	return tree_list_add(&g->l, rel, 'f', size, XXH3_64bits(g->buf, (size_t)size));
}

static int gen_files(struct tree_gen *g, unsigned leaves)
{
	char dir[32];
	int err = 0;

	for (unsigned leaf = 0; leaf < leaves && !err; leaf++) {
		int dfd;

		leaf_name(leaf, dir, sizeof(dir));
		dfd = openat(g->root, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			return -errno;
		for (uint64_t i = leaf; i < g->files && !err; i += leaves) {
			if (dataset_stop && *dataset_stop)
				err = -EINTR;
			else
				err = gen_file(g, dfd, dir, i);
		}
		close(dfd);
	}
	return err;
}

int tree_generate(uint64_t size, uint64_t files, uint64_t seed, const char *path,
		  struct tree_sum *sum)
{
	struct tree_gen g = { .size = size, .files = files, .seed = seed };
	unsigned leaves = tree_leaves(files);
	char tmp[PATH_MAX];
	int err;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	if (!mkdtemp(tmp))
		return -errno;
	if (chmod(tmp, 0755)) {
		err = -errno;
		goto out_remove;
	}
	g.root = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (g.root < 0) {
		err = -errno;
		goto out_remove;
	}
	err = gen_dirs(&g, leaves);
	if (!err)
		err = gen_files(&g, leaves);
	close(g.root);
	if (!err)
		err = tree_list_sum(&g.l, sum);
	if (!err && rename(tmp, path))
		err = -errno;
out_remove:
	if (err)
		tree_remove(tmp);
	tree_list_free(&g.l);
	free(g.buf);
	return err;
}

