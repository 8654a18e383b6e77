// SPDX-License-Identifier: MIT
/*
 * testfs.c - making, mounting and removing the filesystems of `bench --fs`
 * (see testfs.h). The steps of one filesystem, each undone by
 * testfs_remove_all: a sparse file (O_EXCL, in bench's own folder), mkfs on
 * it (run with posix_spawn, its output kept for the reason of a failure), a
 * free loop device configured over it with LOOP_CONFIGURE (autoclear: the
 * device goes when the filesystem is unmounted), the mount.
 *
 * ext4 is made without lazy initialisation: its inode tables and journal
 * would otherwise be written by a kernel thread in the background, during
 * the timed runs; and with 4 KiB blocks, as on any full-size disk: mke2fs
 * gives a filesystem under 512 MiB (the size a 200M plan asks for) 1 KiB
 * blocks, four block mappings per page, and a warm copy on it ran at half
 * the speed of the same copy on the machine's own ext4 (docs/fleet.md).
 *
 * What each made filesystem is, beside its rows (the fs_options column): the
 * mkfs options, the image's size, the loop device and whether it reads its
 * backing file with direct I/O, the block size the filesystem reports, and
 * its mount options as the kernel shows them.
 */
#include "testfs.h"
#include "host/interrupt.h"
#include "lib/fsinfo.h"
#include "lib/units.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MKFS_ARGS_MAX 8
#define UNMOUNT_TRIES 50	/* 100 ms apart, then a lazy unmount */
#define LOOP_GONE_TRIES 50	/* 100 ms apart */

struct testfs_maker {
	const char *type;
	const char *mkfs;		/* NULL: tmpfs, nothing to make */
	const char *args[MKFS_ARGS_MAX];	/* before the file; NULL-ended */
	const char *shown;		/* the options that matter, for results */
	const char *package;		/* Debian's package of mkfs */
};

static const struct testfs_maker makers[] = {
	{ "ext4", "mkfs.ext4", { "-q", "-F", "-b", "4096", "-E", "lazy_itable_init=0,lazy_journal_init=0" },
	  "mkfs.ext4 -b 4096, no lazy init", "e2fsprogs" },
	{ "xfs", "mkfs.xfs", { "-q", "-f", "-m", "reflink=1" }, "mkfs.xfs -m reflink=1", "xfsprogs" },
	{ "btrfs", "mkfs.btrfs", { "-q", "-f" }, "mkfs.btrfs defaults", "btrfs-progs" },
	{ "tmpfs", NULL, { NULL }, "tmpfs", NULL },
};
#define NMAKERS (sizeof(makers) / sizeof(makers[0]))

/* ------------------------------------------------------------ parsing -- */

static const struct testfs_maker *maker_find(const char *type)
{
	for (size_t i = 0; i < NMAKERS; i++)
		if (strcmp(makers[i].type, type) == 0)
			return &makers[i];
	return NULL;
}

static int parse_one(const char *name, struct testfs *fs)
{
	struct stat st;

	memset(fs, 0, sizeof(*fs));
	fs->name = name;
	if (!strchr(name, '/')) {
		fs->maker = maker_find(name);
		if (fs->maker)
			return 0;
		fprintf(stderr, "bench: --fs '%s': expected ext4, xfs, btrfs, tmpfs or the path of a mounted filesystem\n",
			name);
		return 2;
	}
	if (stat(name, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "bench: --fs '%s': not a directory\n", name);
		return 2;
	}
	snprintf(fs->dir, sizeof(fs->dir), "%s", name);
	return 0;
}

int testfs_parse(const struct str_list *names, struct testfs_set *set)
{
	memset(set, 0, sizeof(*set));
	for (size_t i = 0; i < names->n; i++) {
		int ret = parse_one(names->v[i], &set->fs[i]);

		if (ret)
			return ret;
		for (size_t j = 0; j < i; j++) {
			if (strcmp(names->v[j], names->v[i]) == 0) {
				fprintf(stderr, "bench: --fs '%s': named twice\n", names->v[i]);
				return 2;
			}
		}
		set->n++;
	}
	return 0;
}

bool testfs_any_to_make(const struct testfs_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->fs[i].maker)
			return true;
	return false;
}

size_t testfs_count_images(const struct testfs_set *set)
{
	size_t n = 0;

	for (size_t i = 0; i < set->n; i++)
		n += set->fs[i].maker && set->fs[i].maker->mkfs;
	return n;
}

/* -------------------------------------------------------------- mkfs -- */

/* Whether prog is an executable file in one of PATH's folders. */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char dir[PATH_MAX], file[PATH_MAX + 64];

	while (path && *path) {
		size_t len = strcspn(path, ":");

		snprintf(dir, sizeof(dir), "%.*s", (int)len, path);
		snprintf(file, sizeof(file), "%s/%s", dir[0] ? dir : ".", prog);
		if (access(file, X_OK) == 0)
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

/* The last non-empty line of text, into out. */
static void last_line(char *text, char *out, size_t n)
{
	char *end = text + strlen(text), *start;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	start = strrchr(text, '\n');
	snprintf(out, n, "%s", start ? start + 1 : text);
}

/* Starts argv with its stdout and stderr into the pipe's write end fd. */
static int spawn_into(char *const *argv, int fd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	int err;

	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGPIPE);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setsigdefault(&attr, &dfl);
	err = posix_spawnp(pid, argv[0], &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return -err;
}

/* Runs the maker's mkfs on the image; why says how it failed. 0 or -1. */
static int run_mkfs(struct testfs *fs)
{
	const struct testfs_maker *m = fs->maker;
	char *argv[MKFS_ARGS_MAX + 3], out[2048] = "", line[200];
	size_t argc = 0, len = 0;
	int p[2], status, err;
	ssize_t got;
	pid_t pid;

	argv[argc++] = (char *)m->mkfs;
	for (size_t i = 0; i < MKFS_ARGS_MAX && m->args[i]; i++)
		argv[argc++] = (char *)m->args[i];
	argv[argc++] = fs->image;
	argv[argc] = NULL;
	if (pipe2(p, O_CLOEXEC))
		goto out_errno;
	err = spawn_into(argv, p[1], &pid);
	close(p[1]);
	if (err) {
		close(p[0]);
		errno = -err;
		goto out_errno;
	}
	while ((got = read(p[0], out + len, sizeof(out) - 1 - len)) != 0) {
		if (got > 0)
			len += (size_t)got;
		else if (errno != EINTR || len == sizeof(out) - 1)
			break;
		if (len == sizeof(out) - 1)
			len = 0;	/* keep reading; only the end matters */
	}
	out[len] = '\0';
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	last_line(out, line, sizeof(line));
	snprintf(fs->why, sizeof(fs->why), "%s failed (%s %d)%s%s", m->mkfs,
		 WIFEXITED(status) ? "exit" : "signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		 line[0] ? ": " : "", line);
	return -1;
out_errno:
	snprintf(fs->why, sizeof(fs->why), "cannot run %s: %s", m->mkfs, strerror(errno));
	return -1;
}

/* The sparse backing file, made by bench (O_EXCL). 0 or -1 with why. */
static int make_image(struct testfs *fs, const char *root, uint64_t size)
{
	int fd;

	if ((size_t)snprintf(fs->image, sizeof(fs->image), "%s/%s.img", root,
			     fs->maker->type) >= sizeof(fs->image)) {
		snprintf(fs->why, sizeof(fs->why), "--dir is too long a path");
		fs->image[0] = '\0';
		return -1;
	}
	fd = open(fs->image, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(fs->why, sizeof(fs->why), "cannot make %.200s: %s", fs->image, strerror(errno));
		fs->image[0] = '\0';
		return -1;
	}
	if (ftruncate(fd, (off_t)size)) {
		snprintf(fs->why, sizeof(fs->why), "cannot size %.200s: %s", fs->image, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* --------------------------------------------------------------- loop -- */

/*
 * Attaches the image to a free loop device (direct I/O when the kernel
 * takes it; autoclear). Returns the device's open fd, which must stay open
 * until the mount holds the device; -1 with why.
 */
static int attach_loop(struct testfs *fs, bool *direct)
{
	struct loop_config cfg;
	int ctl, img, dev = -1, tries = 0;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	img = open(fs->image, O_RDWR | O_CLOEXEC);
	if (ctl < 0 || img < 0) {
		snprintf(fs->why, sizeof(fs->why), "no loop device: %.200s: %s",
			 ctl < 0 ? "/dev/loop-control" : fs->image, strerror(errno));
		goto out_close;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned)img;
	cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR | LO_FLAGS_DIRECT_IO;
	snprintf((char *)cfg.info.lo_file_name, sizeof(cfg.info.lo_file_name), "%.*s",
		 (int)sizeof(cfg.info.lo_file_name) - 1, fs->image);
	while (tries++ < 16) {
		char path[64];
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0)
			break;
		snprintf(fs->loop, sizeof(fs->loop), "loop%d", n);
		snprintf(path, sizeof(path), "/dev/%s", fs->loop);
		dev = open(path, O_RDWR | O_CLOEXEC);
		if (dev >= 0 && ioctl(dev, LOOP_CONFIGURE, &cfg) == 0)
			break;
		if (dev >= 0 && errno == EINVAL && (cfg.info.lo_flags & LO_FLAGS_DIRECT_IO)) {
			cfg.info.lo_flags &= ~(unsigned)LO_FLAGS_DIRECT_IO;
			tries--;
		} else if (errno != EBUSY && errno != ENOENT && errno != ENXIO) {
			tries = 16;
		}
		if (dev >= 0)
			close(dev);
		dev = -1;
	}
	if (dev < 0) {
		snprintf(fs->why, sizeof(fs->why), "no loop device: %s", strerror(errno));
		fs->loop[0] = '\0';
	}
	*direct = cfg.info.lo_flags & LO_FLAGS_DIRECT_IO;
out_close:
	if (img >= 0)
		close(img);
	if (ctl >= 0)
		close(ctl);
	return dev;
}

/* Until the loop device has let its backing file go (autoclear). */
static void wait_loop_gone(struct testfs *fs)
{
	char path[96];
	struct timespec pause = { 0, 100 * 1000 * 1000 };

	if (!fs->loop[0])
		return;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", fs->loop);
	for (int i = 0; i < LOOP_GONE_TRIES && access(path, F_OK) == 0; i++)
		nanosleep(&pause, NULL);
	if (access(path, F_OK) == 0)
		fprintf(stderr, "bench: /dev/%s still holds %s; detach it with losetup -d /dev/%s\n",
			fs->loop, fs->image, fs->loop);
	fs->loop[0] = '\0';
}

/* -------------------------------------------------------------- mount -- */

static void mount_failed(struct testfs *fs, int err)
{
	if (err == ENODEV)
		snprintf(fs->why, sizeof(fs->why), "this kernel has no %s filesystem (mount: %s)",
			 fs->maker->type, strerror(err));
	else
		snprintf(fs->why, sizeof(fs->why), "cannot mount %s: %s", fs->maker->type, strerror(err));
}

/*
 * Whether the loop device reads its backing file with direct I/O, as sysfs
 * says (the kernel can turn it off after LOOP_CONFIGURE); what
 * LOOP_CONFIGURE took when sysfs cannot tell.
 */
static bool loop_direct_io(const char *loop, bool configured)
{
	char path[96], v[8] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/dio", loop);
	f = fopen(path, "re");
	if (!f)
		return configured;
	if (!fgets(v, sizeof(v), f))
		v[0] = '\0';
	fclose(f);
	return v[0] ? v[0] == '1' : configured;
}

/* fs->options: how it was made (what), its block size and mount options;
 * a filesystem named by its path was made by someone else. */
static void describe(struct testfs *fs, const char *what)
{
	struct fs_mount m;
	struct statfs sf;
	char block[48] = "";

	if (statfs(fs->dir, &sf) == 0)
		snprintf(block, sizeof(block), "; %ld-byte blocks", (long)sf.f_bsize);
	if (fs_mount_info(fs->dir, &m) || !m.from_mountinfo)
		m.options[0] = m.super_options[0] = '\0';
	snprintf(fs->options, sizeof(fs->options), "%s; %s%s%s%.60s%s%.80s",
		 fs->maker ? fs->maker->shown : "not made by bench", what, block,
		 m.options[0] ? "; mounted " : "", m.options,
		 m.super_options[0] ? ", its own options " : "", m.super_options);
}

static int mount_tmpfs(struct testfs *fs, uint64_t size)
{
	char data[64], sz[32];

	snprintf(data, sizeof(data), "size=%llu,mode=0755", (unsigned long long)size);
	if (mount("copybench", fs->dir, "tmpfs", 0, data)) {
		mount_failed(fs, errno);
		return -1;
	}
	fs->mounted = true;
	format_size(size, sz, sizeof(sz));
	snprintf(data, sizeof(data), "size=%s", sz);
	describe(fs, data);
	return 0;
}

static int mount_image(struct testfs *fs, const char *root, uint64_t size)
{
	char dev[64], sz[32], loop[96];
	bool direct = false;
	int fd;

	if (make_image(fs, root, size) || run_mkfs(fs))
		return -1;
	fd = attach_loop(fs, &direct);
	if (fd < 0)
		return -1;
	snprintf(dev, sizeof(dev), "/dev/%s", fs->loop);
	if (mount(dev, fs->dir, fs->maker->type, 0, NULL)) {
		mount_failed(fs, errno);
		ioctl(fd, LOOP_CLR_FD, 0);
		close(fd);
		wait_loop_gone(fs);
		return -1;
	}
	fs->mounted = true;
	close(fd);	/* the mount holds the device now */
	format_size(size, sz, sizeof(sz));
	snprintf(loop, sizeof(loop), "%s sparse file on a loop device, %s", sz,
		 loop_direct_io(fs->loop, direct) ? "direct I/O" : "buffered (no direct I/O here)");
	describe(fs, loop);
	return 0;
}

/* Makes and mounts one filesystem at root/<type>. 0 or -1 with why. */
static int make_one(struct testfs *fs, const char *root, uint64_t size)
{
	if (fs->maker->mkfs && !in_path(fs->maker->mkfs)) {
		snprintf(fs->why, sizeof(fs->why), "%s not found in PATH (Debian: %s)",
			 fs->maker->mkfs, fs->maker->package);
		return -1;
	}
	if ((size_t)snprintf(fs->dir, sizeof(fs->dir), "%s/%s", root, fs->maker->type) >=
	    sizeof(fs->dir) || mkdir(fs->dir, 0755)) {
		snprintf(fs->why, sizeof(fs->why), "cannot make %.200s: %s", fs->dir, strerror(errno));
		fs->dir[0] = '\0';
		return -1;
	}
	return fs->maker->mkfs ? mount_image(fs, root, size) : mount_tmpfs(fs, size);
}

int testfs_make_all(struct testfs_set *set, const char *dir, uint64_t size)
{
	for (size_t i = 0; i < set->n; i++)
		if (!set->fs[i].maker)
			describe(&set->fs[i], "a mounted filesystem named by its path");
	if (!testfs_any_to_make(set))
		return 0;
	snprintf(set->root, sizeof(set->root), "%s/fs-%ld-XXXXXX", dir, (long)getpid());
	if (!mkdtemp(set->root)) {
		set->root[0] = '\0';
		return -errno;
	}
	for (size_t i = 0; i < set->n; i++) {
		struct testfs *fs = &set->fs[i];

		if (!fs->maker)
			continue;
		if (interrupt_signal) {
			snprintf(fs->why, sizeof(fs->why), "interrupted before it was made");
			continue;
		}
		make_one(fs, set->root, size);
	}
	return 0;
}

/* ------------------------------------------------------------ removal -- */

/* Unmounts fs: waits while it is busy, then detaches it lazily. */
static void unmount_one(struct testfs *fs)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	int err, i = 0;

	while ((err = umount2(fs->dir, 0) ? errno : 0) == EBUSY && i++ < UNMOUNT_TRIES)
		nanosleep(&pause, NULL);
	if (err == EBUSY)
		err = umount2(fs->dir, MNT_DETACH) ? errno : 0;
	if (err)
		fprintf(stderr, "bench: cannot unmount %s: %s; unmount it by hand\n", fs->dir,
			strerror(err));
	fs->mounted = false;
}

void testfs_remove_all(struct testfs_set *set)
{
	sigset_t old;

	interrupt_block(&old);
	for (size_t i = 0; i < set->n; i++) {
		struct testfs *fs = &set->fs[i];

		if (!fs->maker)
			continue;
		if (fs->mounted)
			unmount_one(fs);
		wait_loop_gone(fs);
		if (fs->dir[0] && rmdir(fs->dir) && errno != ENOENT)
			fprintf(stderr, "bench: cannot remove %s: %s\n", fs->dir, strerror(errno));
		if (fs->image[0] && unlink(fs->image) && errno != ENOENT)
			fprintf(stderr, "bench: cannot remove %s: %s\n", fs->image, strerror(errno));
		fs->dir[0] = fs->image[0] = '\0';
	}
	if (set->root[0] && rmdir(set->root))
		fprintf(stderr, "bench: cannot remove %s: %s\n", set->root, strerror(errno));
	set->root[0] = '\0';
	interrupt_restore(&old);
}
