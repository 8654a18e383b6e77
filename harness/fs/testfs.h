/* SPDX-License-Identifier: MIT */
/*
 * testfs.h - the filesystems of `bench --fs`. One named by its type (ext4,
 * xfs, btrfs) is made for the run with mkfs on a sparse file in a private
 * folder of --dir and mounted through a loop device with direct I/O (so
 * that its data is cached once, in its own page cache, and a cold read
 * reaches the disk); tmpfs is mounted with a size. Everything bench made is
 * unmounted and removed at the end, on errors and after SIGINT/SIGTERM. One
 * named by a path is a mounted filesystem the run uses as it is.
 */
#ifndef COPYBENCH_TESTFS_H
#define COPYBENCH_TESTFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/options.h"

struct testfs_maker;

struct testfs {
	const char *name;			/* as given: a type or a path */
	const struct testfs_maker *maker;	/* NULL: an existing path */
	char dir[PATH_MAX];	/* where the run's files go: the mount point */
	char image[PATH_MAX];	/* the sparse backing file; "" when none */
	char loop[32];		/* "loop7" while bench has it attached */
	char options[256];	/* how bench made it (the fs_options column) */
	char why[256];		/* not "": unavailable here, and why */
	bool mounted;		/* bench mounted it and must unmount it */
};

struct testfs_set {
	struct testfs fs[OPT_LIST_MAX];
	size_t n;
	char root[PATH_MAX];	/* the private folder in --dir; "" when none */
};

/*
 * The --fs list: each a known type (named once) or a path to a directory.
 * 0, or 2 after one line on stderr.
 */
int testfs_parse(const struct str_list *names, struct testfs_set *set);
/* Whether any entry is a filesystem to make (which needs root). */
bool testfs_any_to_make(const struct testfs_set *set);
/* How many entries need a backing file (the space they take in --dir). */
size_t testfs_count_images(const struct testfs_set *set);

/*
 * Makes and mounts every filesystem named by type, each `size` bytes, in a
 * private folder of dir. One that cannot be made gets its why and is left
 * out; an interruption stops the making. 0, or -errno when the private
 * folder cannot be made. testfs_remove_all undoes all of it, whatever the
 * outcome.
 */
int testfs_make_all(struct testfs_set *set, const char *dir, uint64_t size);
/*
 * Unmounts what bench mounted (waiting for busy mounts, then detaching
 * them), waits for the loop devices to go, and removes the backing files,
 * the mount points and the private folder. SIGINT and SIGTERM wait.
 */
void testfs_remove_all(struct testfs_set *set);

/*
 * Leftovers of a killed bench --fs in dir (testfs_stale.c): its folders
 * fs-<pid>-XXXXXX whose pid is gone. testfs_find_stale counts them and
 * names the first in first; testfs_clean_stale unmounts what is mounted in
 * them, detaches the loop devices over their images, removes the mount
 * points, images and folders (nothing of another name), telling said each
 * step (why: NULL, or why it failed). The number of folders removed, or -1
 * when something stays (unmounting needs root).
 */
typedef void (*testfs_said_fn)(const char *what, const char *path, const char *why, void *arg);
size_t testfs_find_stale(const char *dir, char *first, size_t n);
int testfs_clean_stale(const char *dir, testfs_said_fn said, void *arg);

#endif
