// SPDX-License-Identifier: MIT
/*
 * fsinfo.c - what a path lives on and how a file is laid out: the filesystem
 * mounted over a path (mountinfo, else statfs), whether a file shares
 * extents with another (FIEMAP), and mkdir -p with undo.
 */
#include "fsinfo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
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

/* mountinfo writes space, tab, newline and backslash as \ooo: undo it. */
static void mountinfo_unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/*
 * One line of /proc/self/mountinfo into m when its mount point covers real
 * more closely than *best:
 *   id parent maj:min root mountpoint opts [optional...] - fstype source superopts
 */
static void mountinfo_line(char *line, const char *real, size_t *best, struct fs_mount *m)
{
	char mp[PATH_MAX], opts[256], *sep;
	char type[64], source[256], super[256];
	size_t len, mp_len;

	if (sscanf(line, "%*s %*s %*s %*s %4095s %255s", mp, opts) != 2)
		return;
	sep = strstr(line, " - ");
	if (!sep || sscanf(sep + 3, "%63s %255s %255s", type, source, super) != 3)
		return;
	mountinfo_unescape(mp);
	len = mount_prefix_len(mp, real);
	if (!len || len < *best)
		return;
	mp_len = strlen(mp);
	if (mp_len >= sizeof(m->mount_point))	/* not one to name cut short */
		return;
	*best = len;
	memcpy(m->mount_point, mp, mp_len + 1);
	mountinfo_unescape(source);
	snprintf(m->type, sizeof(m->type), "%s", type);
	snprintf(m->source, sizeof(m->source), "%s", source);
	snprintf(m->options, sizeof(m->options), "%s", opts);
	snprintf(m->super_options, sizeof(m->super_options), "%s", super);
	m->from_mountinfo = true;
}

static void mountinfo_lookup(const char *real, struct fs_mount *m)
{
	char line[4096];
	size_t best = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		mountinfo_line(line, real, &best, m);
	fclose(f);
}

static const struct {
	unsigned long magic;
	const char *name;
} fs_magics[] = {
	{ EXT4_SUPER_MAGIC, "ext4" },	/* ext2 and ext3 too: one magic */
	{ XFS_SUPER_MAGIC, "xfs" },
	{ BTRFS_SUPER_MAGIC, "btrfs" },
	{ TMPFS_MAGIC, "tmpfs" },
	{ RAMFS_MAGIC, "ramfs" },
	{ OVERLAYFS_SUPER_MAGIC, "overlay" },
	{ F2FS_SUPER_MAGIC, "f2fs" },
	{ NFS_SUPER_MAGIC, "nfs" },
	{ FUSE_SUPER_MAGIC, "fuse" },
	{ V9FS_MAGIC, "9p" },
	{ CIFS_SUPER_MAGIC, "cifs" },
	{ SMB2_SUPER_MAGIC, "smb3" },
	{ MSDOS_SUPER_MAGIC, "vfat" },
	{ EXFAT_SUPER_MAGIC, "exfat" },
	{ SQUASHFS_MAGIC, "squashfs" },
	{ 0x2fc12fc1ul, "zfs" },
	{ 0xca451a4eul, "bcachefs" },
};

const char *fs_magic_name(unsigned long f_type)
{
	for (size_t i = 0; i < sizeof(fs_magics) / sizeof(fs_magics[0]); i++)
		if (fs_magics[i].magic == (f_type & 0xfffffffful))
			return fs_magics[i].name;
	return NULL;
}

/* statvfs(3)'s mount flags as mount options. */
static void statvfs_options(unsigned long flags, char *out, size_t n)
{
	static const struct { unsigned long flag; const char *name; } names[] = {
		{ ST_NOSUID, "nosuid" }, { ST_NODEV, "nodev" }, { ST_NOEXEC, "noexec" },
		{ ST_SYNCHRONOUS, "sync" }, { ST_MANDLOCK, "mand" }, { ST_NOATIME, "noatime" },
		{ ST_NODIRATIME, "nodiratime" }, { ST_RELATIME, "relatime" },
	};
	size_t len = (size_t)snprintf(out, n, "%s", flags & ST_RDONLY ? "ro" : "rw");

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && len < n; i++)
		if (flags & names[i].flag)
			len += (size_t)snprintf(out + len, n - len, ",%s", names[i].name);
}

/* "/dev/<DEVNAME>" of a block device number, from sysfs; "" if none. */
static void block_device_name(unsigned maj, unsigned min, char *out, size_t n)
{
	char path[64], line[256];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", maj, min);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "DEVNAME=", 8) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, n, "/dev/%s", line + 8);
			break;
		}
	fclose(f);
}

/* What statfs(2) and stat(2) tell without mountinfo. */
static void statfs_lookup(const char *real, const struct stat *st, struct fs_mount *m)
{
	struct statfs sfs;
	struct statvfs vfs;
	const char *name;

	if (statfs(real, &sfs) == 0) {
		name = fs_magic_name((unsigned long)sfs.f_type);
		if (name)
			snprintf(m->type, sizeof(m->type), "%s", name);
		else
			snprintf(m->type, sizeof(m->type), "0x%lx", (unsigned long)sfs.f_type);
	}
	if (statvfs(real, &vfs) == 0)
		statvfs_options(vfs.f_flag, m->options, sizeof(m->options));
	block_device_name(major(st->st_dev), minor(st->st_dev), m->source, sizeof(m->source));
}

/* jbd2 names a journal "<device>-<journal inode>" ("vda1-8"). */
int fs_ext4_journal(const char *jbd2_dir, const char *dev)
{
	char path[NAME_MAX + 8];
	const char *name = path + 5;
	unsigned maj, min;
	size_t len;
	DIR *d;
	struct dirent *e;
	int found = 0;

	if (sscanf(dev, "%u:%u", &maj, &min) != 2)
		return -1;
	block_device_name(maj, min, path, sizeof(path));
	if (!path[0])
		return -1;
	d = opendir(jbd2_dir);
	if (!d)
		return -1;
	len = strlen(name);
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, name, len) && e->d_name[len] == '-')
			found = 1;
	closedir(d);
	return found;
}

/* Little-endian fields of the ext4 superblock (1024 bytes at offset 1024). */
#define EXT4_SB_OFFSET 1024
#define EXT4_SB_INODES_PER_GROUP 0x28
#define EXT4_SB_MAGIC 0x38
#define EXT4_SB_FEATURE_INCOMPAT 0x60
#define EXT4_SB_LOG_GROUPS_PER_FLEX 0x174
#define EXT4_SB_MAGIC_VALUE 0xEF53
#define EXT4_INCOMPAT_FLEX_BG 0x200
#define EXT4_DEFAULT_FLEX 16	/* mke2fs's default groups per flex group */

static uint32_t le32_at(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* From the superblock on the device (root can read it). 0 or -errno. */
static int ext4_flex_from_device(const char *devpath, uint64_t *per_flex)
{
	unsigned char sb[1024];
	uint32_t ipg, incompat;
	int fd = open(devpath, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return -errno;
	got = pread(fd, sb, sizeof(sb), EXT4_SB_OFFSET);
	close(fd);
	if (got != (ssize_t)sizeof(sb))
		return -EIO;
	if ((sb[EXT4_SB_MAGIC] | sb[EXT4_SB_MAGIC + 1] << 8) != EXT4_SB_MAGIC_VALUE)
		return -EINVAL;
	ipg = le32_at(sb + EXT4_SB_INODES_PER_GROUP);
	incompat = le32_at(sb + EXT4_SB_FEATURE_INCOMPAT);
	if (!ipg)
		return -EINVAL;
	*per_flex = (uint64_t)ipg << ((incompat & EXT4_INCOMPAT_FLEX_BG) ?
				       (sb[EXT4_SB_LOG_GROUPS_PER_FLEX] & 31) : 0);
	return 0;
}

/* Without the device: the group count from mb_groups (readable by all),
 * the inode count from statvfs, and mke2fs's default flex size. */
static int ext4_flex_from_proc(const char *devpath, const char *path, uint64_t *per_flex)
{
	const char *name = strrchr(devpath, '/');
	char proc[PATH_MAX + 32], line[256];
	struct statvfs sv;
	uint64_t groups = 0;
	FILE *f;

	snprintf(proc, sizeof(proc), "/proc/fs/ext4/%s/mb_groups", name ? name + 1 : devpath);
	f = fopen(proc, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		groups += line[0] == '#' && line[1] >= '0' && line[1] <= '9';
	fclose(f);
	if (!groups || statvfs(path, &sv) || !sv.f_files)
		return -EINVAL;
	*per_flex = (uint64_t)sv.f_files / groups * EXT4_DEFAULT_FLEX;
	return 0;
}

int fs_ext4_inodes_per_flex(const char *path, uint64_t *per_flex)
{
	char devpath[PATH_MAX];
	struct stat st;

	*per_flex = 0;
	if (stat(path, &st))
		return -errno;
	block_device_name(major(st.st_dev), minor(st.st_dev), devpath, sizeof(devpath));
	if (!devpath[0])
		return -ENODEV;
	if (!ext4_flex_from_device(devpath, per_flex))
		return 0;
	return ext4_flex_from_proc(devpath, path, per_flex);
}

/* Is word one of the comma-separated options? */
static bool has_option(const char *options, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = options; (p = strstr(p, word)); p += len)
		if ((p == options || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

int fs_mount_info(const char *path, struct fs_mount *m)
{
	char real[PATH_MAX];
	struct stat st;

	memset(m, 0, sizeof(*m));
	snprintf(m->type, sizeof(m->type), "unknown");
	if (!realpath(path, real) || stat(real, &st))
		return -errno;
	snprintf(m->dev, sizeof(m->dev), "%u:%u", major(st.st_dev), minor(st.st_dev));
	mountinfo_lookup(real, m);
	if (!m->from_mountinfo)
		statfs_lookup(real, &st, m);
	m->journal = strcmp(m->type, "ext4") ? -1 : fs_ext4_journal("/proc/fs/jbd2", m->dev);
	m->discard = has_option(m->options, "discard") || has_option(m->super_options, "discard");
	return 0;
}

int fs_type_name(const char *path, char *out, size_t n)
{
	struct fs_mount m;
	int err = fs_mount_info(path, &m);

	snprintf(out, n, "%s", m.type);
	return err;
}

#define FIEMAP_BATCH 64

/* Walks the extent map of fd, FIEMAP_BATCH extents per call, until one is
 * shared or the last one is seen. No FIEMAP_FLAG_SYNC: delayed-allocation
 * extents are reported as such (never shared), and forcing them to disk
 * would put the output's writeback into the next run's measurement. */
int fs_fd_shares_extents(int fd, bool *shared)
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

bool fs_may_share_extents(unsigned long f_type)
{
	/* ext2/3/4 have no reflink; tmpfs and ramfs no extents at all */
	return f_type != EXT4_SUPER_MAGIC && f_type != TMPFS_MAGIC && f_type != RAMFS_MAGIC;
}

int fs_file_shares_extents(const char *path, bool *shared)
{
	int fd, err;

	*shared = false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fs_fd_shares_extents(fd, shared);
	close(fd);
	return err;
}

/*
 * mkdir -p. The first directory it had to create goes into made[] ("" when
 * the whole path existed), so that an early failure can take them away.
 */
int fs_make_dirs(const char *path, char *made, size_t n)
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

/* Removes the directories fs_make_dirs created, deepest first, if still empty. */
void fs_unmake_dirs(const char *path, const char *made)
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
