// SPDX-License-Identifier: MIT
/*
 * direct_probe_names_filesystem.c - the direct strategy's probe names the
 * file system that refuses O_DIRECT, in the exact words the results show.
 *
 * tmpfs refuses O_DIRECT before Linux 6.6 and accepts it since, so for tmpfs
 * the test first asks the kernel itself and then expects the probe to agree:
 * "filesystem tmpfs does not support O_DIRECT (EINVAL)" or available. ramfs
 * refuses O_DIRECT on every kernel, so it always checks the refusal; it needs
 * a mount, done only when running as root where mounting is permitted. As
 * root a private tmpfs is mounted too; otherwise /dev/shm (tmpfs) is used.
 */
#include "strategies/strategy.h"
#include "support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/* Does the kernel accept an O_DIRECT open of a new file in dir? */
static int kernel_accepts_odirect(const char *dir)
{
	char path[512];
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/odirect-check", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_DIRECT, 0600);
	if (fd < 0)
		err = -errno;
	else
		close(fd);
	unlink(path);
	return err;
}

static bool is_fs(const char *dir, long magic)
{
	struct statfs sf;

	return statfs(dir, &sf) == 0 && (long)sf.f_type == magic;
}

/* Mounts fstype on a fresh directory under the test dir; 0 or -errno. */
static int mount_scratch(const char *fstype, char *dir, size_t n)
{
	snprintf(dir, n, "%s/%s", test_tmpdir(), fstype);
	if (mkdir(dir, 0700) < 0)
		return -errno;
	if (geteuid() != 0)
		return -EPERM;
	if (mount(fstype, dir, fstype, MS_NOSUID | MS_NODEV, "size=1m") < 0)
		return -errno;
	return 0;
}

static void check_tmpfs(const struct copy_strategy *s, const char *dir)
{
	char why[256];
	int kernel = kernel_accepts_odirect(dir);
	int ret = strategy_probe(s, dir, why, sizeof(why));

	CHECK(is_fs(dir, TMPFS_MAGIC));
	if (kernel == -EINVAL) {
		CHECK_EQ_U64(ret, -EINVAL);
		CHECK(strcmp(why, "filesystem tmpfs does not support O_DIRECT (EINVAL)") == 0);
		printf("tmpfs %s: unavailable: %s\n", dir, why);
	} else {
		CHECK_EQ_U64(kernel, 0);
		CHECK_EQ_U64(ret, 0);
		printf("tmpfs %s: this kernel accepts O_DIRECT on tmpfs (Linux 6.6+), probe says available\n",
		       dir);
	}
}

static void check_ramfs(const struct copy_strategy *s, const char *dir)
{
	char why[256];
	int ret = strategy_probe(s, dir, why, sizeof(why));

	CHECK(is_fs(dir, RAMFS_MAGIC));
	CHECK_EQ_U64(ret, -EINVAL);
	CHECK(strcmp(why, "filesystem ramfs does not support O_DIRECT (EINVAL)") == 0);
	printf("ramfs %s: unavailable: %s\n", dir, why);
}

int main(void)
{
	const struct copy_strategy *s = strategy_find("direct");
	char tmpfs[512], ramfs[512];
	int ret;

	CHECK(s != NULL);
	if (!s)
		return test_report("direct_probe_names_filesystem");
	if (mount_scratch("tmpfs", tmpfs, sizeof(tmpfs)) == 0) {
		check_tmpfs(s, tmpfs);
		umount(tmpfs);
	} else if (is_fs("/dev/shm", TMPFS_MAGIC)) {
		check_tmpfs(s, "/dev/shm");
	} else {
		printf("tmpfs part skipped: cannot mount tmpfs and /dev/shm is not tmpfs\n");
	}
	if (mount_scratch("ramfs", ramfs, sizeof(ramfs)) == 0) {
		check_ramfs(s, ramfs);
		umount(ramfs);
	} else {
		printf("ramfs part skipped: mounting ramfs needs root and a permitted mount(2)\n");
	}
	test_cleanup_dir();
	if (test_checks == 0) {
		printf("direct_probe_names_filesystem: skipped, no tmpfs or ramfs to test on\n");
		return 77;
	}
	ret = test_report("direct_probe_names_filesystem");
	return ret;
}
