// SPDX-License-Identifier: MIT
/*
 * fsinfo.c - what a path lives on and how a file is laid out: the name of the
 * filesystem mounted over a path, whether a file shares extents with another
 * (FIEMAP), and mkdir -p with undo.
 */
#include "fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is mount point mp a path prefix of path (at a component boundary)? */
static size_t mount_prefix_len(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	if (strncmp(mp, path, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return n;
	return 0;
}

int fs_type_name(const char *path, char *out, size_t n)
{
	char real[PATH_MAX], line[4096];
	size_t best = 0;
	FILE *f;

	snprintf(out, n, "unknown");
	if (!realpath(path, real))
		return -errno;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint opts [optional...] - fstype src opts */
		char mp[PATH_MAX], *sep, fstype[64];
		size_t len;

		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1)
			continue;
		len = mount_prefix_len(mp, real);
		if (len && len >= best) {
			best = len;
			snprintf(out, n, "%s", fstype);
		}
	}
	fclose(f);
	return 0;
}

#define FIEMAP_BATCH 64

/* Walks the extent map of fd, FIEMAP_BATCH extents per call, until one is
 * shared or the last one is seen. No FIEMAP_FLAG_SYNC: delayed-allocation
 * extents are reported as such (never shared), and forcing them to disk
 * would put the output's writeback into the next run's measurement. */
static int fiemap_any_shared(int fd, bool *shared)
{
	size_t sz = sizeof(struct fiemap) + FIEMAP_BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm = malloc(sz);
	uint64_t start = 0;
	int err = 0;

	if (!fm)
		return -ENOMEM;
	*shared = false;
	for (;;) {
		const struct fiemap_extent *last;

		memset(fm, 0, sz);
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_extent_count = FIEMAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			err = errno == ENOTTY ? -EOPNOTSUPP : -errno;
			break;
		}
		if (fm->fm_mapped_extents == 0)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents && !*shared; i++)
			*shared = fm->fm_extents[i].fe_flags & FIEMAP_EXTENT_SHARED;
		last = &fm->fm_extents[fm->fm_mapped_extents - 1];
		if (*shared || (last->fe_flags & FIEMAP_EXTENT_LAST))
			break;
		start = last->fe_logical + last->fe_length;
	}
	free(fm);
	return err;
}

int file_shares_extents(const char *path, bool *shared)
{
	int fd, err;

	*shared = false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fiemap_any_shared(fd, shared);
	close(fd);
	return err;
}

/*
 * mkdir -p. The first directory it had to create goes into made[] ("" when
 * the whole path existed), so that an early failure can take them away.
 */
int make_dirs(const char *path, char *made, size_t n)
{
	char buf[PATH_MAX];

	made[0] = '\0';
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1; ; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) == 0) {
			if (!made[0])
				snprintf(made, n, "%s", buf);
		} else if (errno != EEXIST) {
			return -errno;
		}
		*p = c;
		if (!c)
			break;
	}
	return 0;
}

/* Removes the directories make_dirs created, deepest first, if still empty. */
void unmake_dirs(const char *path, const char *made)
{
	char buf[PATH_MAX];
	size_t top = strlen(made);

	if (!top)
		return;
	snprintf(buf, sizeof(buf), "%s", path);
	for (;;) {
		char *slash;

		rmdir(buf);
		slash = strrchr(buf, '/');
		if (!slash || (size_t)(slash - buf) < top)
			return;
		*slash = '\0';
	}
}
