// SPDX-License-Identifier: MIT
/*
 * testfs_stale.c - what a killed `bench --fs` left behind (SIGKILL, power
 * loss): its folder fs-<pid>-XXXXXX in --dir (the pid no longer running),
 * the filesystems mounted on <type>/ in it, the loop devices over its
 * <type>.img files, and those files. Only that folder's contents as bench
 * names them are touched: a mount, loop device or file elsewhere, or of
 * another name, is never anyone's but its owner's.
 */
#include "testfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const fs_types[] = { "ext4", "xfs", "btrfs", "tmpfs" };

/* fs-<pid>-XXXXXX of a pid that is gone. */
static bool stale_root_name(const char *name)
{
	char tail[8];
	long pid;

	return sscanf(name, "fs-%ld-%6[A-Za-z0-9]", &pid, tail) == 2 && strlen(tail) == 6 &&
	       pid > 0 && pid != (long)getpid() && kill((pid_t)pid, 0) && errno == ESRCH;
}

size_t testfs_find_stale(const char *dir, char *first, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t count = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (stale_root_name(e->d_name) && count++ == 0 && first)
			snprintf(first, n, "%s/%s", dir, e->d_name);
	closedir(d);
	return count;
}

/* /proc/self/mountinfo escapes space, tab, newline and \ as \ooo. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Unmounts every mount under root/ (deepest first). 0, or -errno of a failure. */
static int unmount_under(const char *root, testfs_said_fn said, void *arg)
{
	size_t len = strlen(root);
	char line[4096], mp[PATH_MAX];
	int ret = 0, again = 1;

	while (again && !ret) {
		FILE *f = fopen("/proc/self/mountinfo", "re");
		char deepest[PATH_MAX] = "";

		if (!f)
			return 0;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) == 1) {
				unescape(mp);
				if (!strncmp(mp, root, len) && mp[len] == '/' && strlen(mp) > strlen(deepest))
					snprintf(deepest, sizeof(deepest), "%s", mp);
			}
		fclose(f);
		again = deepest[0] != '\0';
		if (!again)
			break;
		if (umount2(deepest, 0) && (errno != EBUSY || umount2(deepest, MNT_DETACH)))
			ret = -errno;
		said(ret ? "cannot unmount" : "unmounted", deepest, ret ? strerror(-ret) : NULL, arg);
	}
	return ret;
}

/* The loop devices backed by a file under root/: detached. 0 or -errno. */
static int detach_loops_under(const char *root, testfs_said_fn said, void *arg)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	size_t len = strlen(root);
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int ret = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[PATH_MAX], backing[PATH_MAX] = "";
		FILE *f;
		int fd, i;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", e->d_name);
		/* autoclear detaches it once unmounted: give it a moment */
		for (i = 0; i < 20; i++) {
			f = fopen(path, "re");
			if (!f || !fgets(backing, sizeof(backing), f))
				backing[0] = '\0';
			if (f)
				fclose(f);
			if (strncmp(backing, root, len) || backing[len] != '/')
				break;
			nanosleep(&pause, NULL);
		}
		if (i == 0 || !backing[0] || strncmp(backing, root, len) || backing[len] != '/') {
			if (i > 0)
				said("detached", e->d_name, NULL, arg);
			continue;
		}
		snprintf(path, sizeof(path), "/dev/%s", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || ioctl(fd, LOOP_CLR_FD, 0))
			ret = -errno;
		if (fd >= 0)
			close(fd);
		said(ret ? "cannot detach" : "detached", path, ret ? strerror(-ret) : NULL, arg);
	}
	closedir(d);
	return ret;
}

/* The mount points and images bench names in root, then root. 0 or -1. */
static int remove_root(const char *root, testfs_said_fn said, void *arg)
{
	int ret = 0;

	for (size_t i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++) {
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/%s", root, fs_types[i]);
		if (rmdir(path) == 0)
			said("removed", path, NULL, arg);
		else if (errno != ENOENT)
			ret = -1, said("kept", path, strerror(errno), arg);
		snprintf(path, sizeof(path), "%s/%s.img", root, fs_types[i]);
		if (unlink(path) == 0)
			said("removed", path, NULL, arg);
		else if (errno != ENOENT)
			ret = -1, said("kept", path, strerror(errno), arg);
	}
	if (rmdir(root) == 0)
		said("removed", root, NULL, arg);
	else
		ret = -1, said("kept", root, errno == ENOTEMPTY ? "it holds files bench did not make" :
			       strerror(errno), arg);
	return ret;
}

int testfs_clean_stale(const char *dir, testfs_said_fn said, void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int count = 0, failed = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char root[PATH_MAX], real[PATH_MAX];

		if (!stale_root_name(e->d_name))
			continue;
		snprintf(root, sizeof(root), "%s/%s", dir, e->d_name);
		if (!realpath(root, real))
			continue;
		if (unmount_under(real, said, arg) || detach_loops_under(real, said, arg) ||
		    remove_root(root, said, arg))
			failed = 1;
		else
			count++;
	}
	closedir(d);
	return failed ? -1 : count;
}
