// SPDX-License-Identifier: MIT
/*
 * tree_dataset_deterministic_and_verified.c - generated trees are
 * reproducible from (files, size, seed): the same seed makes the same tree
 * hash, another seed another; the hash recorded when generating is the hash
 * of what a walk finds on disk; the source-tree mix draws sizes of its own;
 * the hash covers names, sizes and bytes (one byte, one name or one size
 * changed is seen, and named by tree_first_difference); an empty folder
 * missing from a copy, or one more in it, changes the hash (a copy that
 * drops an empty folder fails verification); a tree with a symlink or a
 * special file is refused with a line naming it; dataset_ensure reuses a
 * tree only while it is unchanged, and dataset_clean removes it.
 */
#include "datasets/dataset.h"
#include "support/testutil.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char base[512];

static int gen(const char *name, uint64_t files, uint64_t size, uint64_t seed,
	       struct dataset *d)
{
	char path[600];
	struct tree_sum sum;
	int err;

	*d = (struct dataset){ .kind = DATASET_TREE, .files = files, .size = size, .seed = seed };
	snprintf(path, sizeof(path), "%s/%s", base, name);
	err = tree_generate(size, files, seed, path, &sum);
	d->hash = sum.hash;
	d->total = sum.bytes;
	return err;
}

static uint64_t walk_hash(const char *name, struct tree_sum *sum)
{
	char path[600], why[200] = "";

	snprintf(path, sizeof(path), "%s/%s", base, name);
	if (tree_hash(path, sum, why, sizeof(why))) {
		fprintf(stderr, "tree_hash %s: %s\n", name, why);
		return 0;
	}
	return sum->hash;
}

static void same_seed_same_hash(void)
{
	struct dataset a, b, c;
	struct tree_sum sum;

	CHECK(gen("a", 250, 4096, 7, &a) == 0);
	CHECK(gen("b", 250, 4096, 7, &b) == 0);
	CHECK(gen("c", 250, 4096, 8, &c) == 0);
	CHECK(a.hash == b.hash);
	CHECK(a.hash != c.hash);
	CHECK_EQ_U64(walk_hash("a", &sum), a.hash);
	CHECK_EQ_U64(sum.files, 250);
	CHECK_EQ_U64(sum.bytes, 250 * 4096);
	CHECK_EQ_U64(a.total, 250 * 4096);
	/* 100 leaves in 10 folders */
	CHECK_EQ_U64(sum.dirs, 110);
	CHECK_EQ_U64(walk_hash("c", &sum), c.hash);
}

static void source_mix(void)
{
	struct dataset a, b;
	struct tree_sum sum;
	uint64_t lo = UINT64_MAX, hi = 0;

	CHECK(gen("m1", 400, DATASET_SIZE_SRC, 1, &a) == 0);
	CHECK(gen("m2", 400, DATASET_SIZE_SRC, 1, &b) == 0);
	CHECK(a.hash == b.hash);
	CHECK_EQ_U64(walk_hash("m1", &sum), a.hash);
	CHECK_EQ_U64(sum.bytes, tree_total_size(DATASET_SIZE_SRC, 400, 1));
	CHECK_EQ_U64(a.total, sum.bytes);
	for (uint64_t i = 0; i < 400; i++) {
		uint64_t s = tree_file_size(DATASET_SIZE_SRC, 1, i);

		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	CHECK(lo < 1000);
	CHECK(hi > 20000 && hi <= 1048576);
	CHECK(tree_total_size(DATASET_SIZE_SRC, 400, 2) != sum.bytes);
	/* a few files: as many leaves as files */
	CHECK(gen("few", 3, 10, 1, &a) == 0);
	CHECK_EQ_U64(walk_hash("few", &sum), a.hash);
	CHECK_EQ_U64(sum.dirs, 4);
}

static void differences_seen(void)
{
	char a[600], b[600], p[700], why[200] = "";
	struct dataset d, e;
	struct tree_sum sum;
	int fd;

	CHECK(gen("x", 120, 100, 3, &d) == 0);
	CHECK(gen("y", 120, 100, 3, &e) == 0);
	snprintf(a, sizeof(a), "%s/x", base);
	snprintf(b, sizeof(b), "%s/y", base);
	CHECK(tree_first_difference(a, b, why, sizeof(why)) == 0);
	/* one byte */
	snprintf(p, sizeof(p), "%s/d0/d5/f105", a);
	fd = open(p, O_WRONLY);
	CHECK(fd >= 0 && pwrite(fd, "!", 1, 50) == 1);
	close(fd);
	CHECK(walk_hash("x", &sum) != d.hash);
	CHECK(tree_first_difference(a, b, why, sizeof(why)) == 1);
	CHECK(strstr(why, "d0/d5/f105: content hash") == why);
	/* a name */
	CHECK(tree_remove(a) == 0);
	CHECK(gen("x", 120, 100, 3, &d) == 0);
	snprintf(p, sizeof(p), "%s/d0/d5/f105", a);
	{
		char q[700];

		snprintf(q, sizeof(q), "%s/d0/d5/f\n\xff", a);
		CHECK(rename(p, q) == 0);
	}
	CHECK(walk_hash("x", &sum) != d.hash);
	CHECK(tree_first_difference(a, b, why, sizeof(why)) == 1);
	CHECK(strcmp(why, "d0/d5/f\\x0a\\xff: in the output, not in the source") == 0);
	/* a size */
	CHECK(tree_remove(a) == 0);
	CHECK(gen("x", 120, 100, 3, &d) == 0);
	CHECK(truncate(p, 99) == 0);
	CHECK(tree_first_difference(a, b, why, sizeof(why)) == 1);
	CHECK(strcmp(why, "d0/d5/f105: 99 bytes, expected 100") == 0);
	CHECK(tree_remove(a) == 0);
	CHECK(tree_remove(b) == 0);
	CHECK(access(a, F_OK) != 0 && access(b, F_OK) != 0);
}

static void empty_folders_seen(void)
{
	char a[600], b[600], p[700], why[200] = "";
	struct dataset d, e;
	struct tree_sum sum;

	CHECK(gen("ex", 30, 100, 5, &d) == 0);
	CHECK(gen("ey", 30, 100, 5, &e) == 0);
	snprintf(a, sizeof(a), "%s/ex", base);
	snprintf(b, sizeof(b), "%s/ey", base);
	/* the source has an empty folder the copy lacks */
	snprintf(p, sizeof(p), "%s/d2/empty", b);
	CHECK(mkdir(p, 0755) == 0);
	CHECK(walk_hash("ey", &sum) != e.hash);
	CHECK_EQ_U64(sum.dirs, 30 + 3 + 1);
	CHECK(walk_hash("ex", &sum) == d.hash);
	CHECK(tree_first_difference(a, b, why, sizeof(why)) == 1);
	CHECK(strcmp(why, "d2/empty: missing from the output") == 0);
	/* and the copy has one more */
	CHECK(tree_first_difference(b, a, why, sizeof(why)) == 1);
	CHECK(strcmp(why, "d2/empty: in the output, not in the source") == 0);
	/* an empty folder of another name */
	snprintf(p, sizeof(p), "%s/d2/other", a);
	CHECK(mkdir(p, 0755) == 0);
	CHECK(walk_hash("ex", &sum) != walk_hash("ey", &sum));
	CHECK(tree_remove(a) == 0);
	CHECK(tree_remove(b) == 0);
}

static void odd_entries_refused(void)
{
	char t[600], p[700], why[200] = "";
	struct tree_sum sum;

	snprintf(t, sizeof(t), "%s/odd", base);
	CHECK(mkdir(t, 0755) == 0);
	snprintf(p, sizeof(p), "%s/sub", t);
	CHECK(mkdir(p, 0755) == 0);
	snprintf(p, sizeof(p), "%s/sub/link", t);
	CHECK(symlink("/etc/passwd", p) == 0);
	CHECK(tree_hash(t, &sum, why, sizeof(why)) == -ELOOP);
	CHECK(strcmp(why, "sub/link: is a symbolic link (trees of regular files and folders only)") == 0);
	CHECK(unlink(p) == 0);
	snprintf(p, sizeof(p), "%s/sub/fifo", t);
	CHECK(mkfifo(p, 0644) == 0);
	CHECK(tree_hash(t, &sum, why, sizeof(why)) == -EINVAL);
	CHECK(strcmp(why, "sub/fifo: is a special file (trees of regular files and folders only)") == 0);
	CHECK(tree_remove(t) == 0);
	CHECK(access(t, F_OK) != 0);
}

static int count_cleaned;

static void on_clean(const char *path, uint64_t bytes, const char *kept, void *arg)
{
	(void)path;
	(void)bytes;
	(void)arg;
	count_cleaned += kept ? 100 : 1;
}

static void ensure_reuse_and_clean(void)
{
	struct dataset d = { .kind = DATASET_TREE, .files = 50, .size = 512, .seed = 1 };
	char dir[600], p[PATH_MAX + 32];
	uint64_t hash;
	int reused = -1, fd;

	snprintf(dir, sizeof(dir), "%s/cache", base);
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 0);
	hash = d.hash;
	CHECK(strstr(d.path, "/tree-50x512-s1") != NULL);
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 1);
	CHECK_EQ_U64(d.hash, hash);
	CHECK_EQ_U64(d.total, 50 * 512);
	/* a file below changed: made again */
	snprintf(p, sizeof(p), "%s/d4/d9/f49", d.path);
	fd = open(p, O_WRONLY);
	CHECK(fd >= 0 && pwrite(fd, "!", 1, 0) == 1);
	close(fd);
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 0);
	CHECK_EQ_U64(d.hash, hash);
	count_cleaned = 0;
	CHECK(dataset_clean(dir, false, on_clean, NULL) == 1);
	CHECK_EQ_U64(count_cleaned, 2);	/* the tree and its manifest */
	CHECK(access(d.path, F_OK) != 0);
	CHECK(rmdir(dir) == 0);
}

static void fast_enough_to_say(void)
{
	struct dataset d;
	struct timespec t0, t1;
	char path[600];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(gen("big", 20000, 4096, 1, &d) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* said, never judged: speed depends on the machine */
	printf("generated 20000 x 4 KiB in %.2f s\n",
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	snprintf(path, sizeof(path), "%s/big", base);
	CHECK(tree_remove(path) == 0);
}

int main(void)
{
	static const char *const made[] = { "a", "b", "c", "m", "m1", "m2", "few" };

	snprintf(base, sizeof(base), "%s", test_tmpdir());
	same_seed_same_hash();
	source_mix();
	differences_seen();
	empty_folders_seen();
	odd_entries_refused();
	ensure_reuse_and_clean();
	if (getenv("COPYBENCH_TREE_TIMING"))
		fast_enough_to_say();
	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		char p[600];

		snprintf(p, sizeof(p), "%s/%s", base, made[i]);
		tree_remove(p);
	}
	test_cleanup_dir();
	return test_report("tree_dataset_deterministic_and_verified");
}
