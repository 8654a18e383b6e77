// SPDX-License-Identifier: MIT
/*
 * tree_remove_wide_exact.c - a tree removed with many removals in flight is
 * gone whole, and the count of what was removed is exact: a flat folder of
 * many files (more than the removers take at once), a chain of nested
 * folders, empty folders, a name with a newline, an empty file, a path
 * longer than PATH_MAX (removed by folder descriptors); one remover and many
 * give the same count; a plain file is unlinked; a missing path is nothing
 * to do.
 */
#include "datasets/treegen.h"
#include "support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FLAT 1000
#define DEPTH 30

static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if (write(fd, "x", 1) != 1) {
		close(fd);
		return -1;
	}
	return close(fd);
}

/* Folders of 200-character names LONG deep below root, a file at the
 * bottom: a path longer than PATH_MAX. How many entries it made. */
#define LONG 25
static uint64_t make_long(const char *root)
{
	char name[201];
	uint64_t n = 0;
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), next;

	memset(name, 'n', 200);
	name[200] = '\0';
	for (int i = 0; fd >= 0 && i < LONG; i++) {
		n += !mkdirat(fd, name, 0755);
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	if (fd < 0)
		return n;
	next = openat(fd, "bottom", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	n += next >= 0;
	close(next);
	close(fd);
	return n;
}

/* A tree at root; how many entries below it. */
static uint64_t make_tree(const char *root)
{
	char path[4096];
	uint64_t n = 0;
	size_t len;

	if (mkdir(root, 0755))
		return 0;
	snprintf(path, sizeof(path), "%s/flat", root);
	n += !mkdir(path, 0755);
	for (int i = 0; i < FLAT; i++) {
		snprintf(path, sizeof(path), "%s/flat/f%d", root, i);
		n += !touch(path);
	}
	snprintf(path, sizeof(path), "%s/deep", root);
	for (int i = 0; i < DEPTH; i++) {
		n += !mkdir(path, 0755);
		len = strlen(path);
		snprintf(path + len, sizeof(path) - len, "/g%d", i);
		n += !touch(path);
		snprintf(path + len, sizeof(path) - len, "/d%d", i);
	}
	snprintf(path, sizeof(path), "%s/empty", root);
	n += !mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/new\nline", root);
	n += !touch(path);
	snprintf(path, sizeof(path), "%s/nothing", root);
	n += !close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	return n + make_long(root);
}

static void removes_all(const char *root, unsigned threads)
{
	uint64_t made = make_tree(root), removed = 12345;
	struct stat st;

	CHECK_EQ_U64(made, 1 + FLAT + 2 * DEPTH + 1 + 2 + LONG + 1);
	CHECK_EQ_U64(tree_remove_wide(root, threads, &removed), 0);
	CHECK_EQ_U64(removed, made);
	CHECK(lstat(root, &st) && errno == ENOENT);
}

int main(void)
{
	const char *dir = test_tmpdir();
	char root[512], file[512];
	uint64_t removed = 1;
	struct stat st;

	snprintf(root, sizeof(root), "%s/t", dir);
	removes_all(root, 1);
	removes_all(root, 8);
	removes_all(root, TREE_REMOVE_THREADS);

	snprintf(file, sizeof(file), "%s/plain", dir);
	CHECK(touch(file) == 0);
	CHECK_EQ_U64(tree_remove_wide(file, 4, &removed), 0);
	CHECK(lstat(file, &st) && errno == ENOENT);
	CHECK_EQ_U64(removed, 0);
	CHECK_EQ_U64(tree_remove_wide(root, 4, NULL), 0);	/* gone: nothing to do */

	test_cleanup_dir();
	return test_report("tree_remove_wide_exact");
}
