/* SPDX-License-Identifier: MIT */
/* fsinfo.h - filesystems, extents and directories. */
#ifndef COPYBENCH_FSINFO_H
#define COPYBENCH_FSINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The filesystem a path lives on, and how it is mounted. */
struct fs_mount {
	char type[64];		/* "ext4", "tmpfs", "btrfs"; "unknown" */
	char source[256];	/* the device or source ("/dev/vda1"); "" unknown */
	char mount_point[512];	/* "" when only statfs(2) could tell */
	char options[256];	/* per-mount options ("rw,relatime") */
	char super_options[256];	/* the filesystem's own ("rw,errors=remount-ro") */
	char dev[24];		/* st_dev of the path, "major:minor" */
	/* false: no line of /proc/self/mountinfo covers the path (a chroot or
	 * a container, where mounts outside the root are not listed), so type
	 * came from statfs(2)'s f_type, options from statvfs(3)'s f_flag and
	 * the source from /sys/dev/block. */
	bool from_mountinfo;
	/* What makes a figure depend on the filesystem's history: for ext4,
	 * whether it has a journal (1, 0; -1 unknown or not ext4: without
	 * one, a file created where many were freed in the last minutes is
	 * slow to allocate); mounted with `discard` (freed blocks trimmed). */
	int journal;
	bool discard;
};

/*
 * Fills m for path: the mountinfo line whose mount point is the longest
 * prefix of path's real path, else statfs(2). 0 or -errno (m says
 * "unknown" then).
 */
int fs_mount_info(const char *path, struct fs_mount *m);
/*
 * Does the ext4 on device dev ("major:minor") have a journal? 1 when
 * jbd2_dir (/proc/fs/jbd2) has an entry for the device, 0 when it has
 * none, -1 when the directory cannot be read.
 */
int fs_ext4_journal(const char *jbd2_dir, const char *dev);
/*
 * How many inode numbers one flex group of the ext4 under path spans
 * (inodes per group times groups per flex group): the files of a folder
 * are allocated in its flex group. From the superblock when the device can
 * be read, else from /proc/fs/ext4 (assuming mke2fs's 16 groups a flex
 * group). 0 or -errno (*per_flex 0).
 */
int fs_ext4_inodes_per_flex(const char *path, uint64_t *per_flex);
/* fs_mount_info's type alone: "ext4", "tmpfs", "btrfs"; "unknown". */
int fs_type_name(const char *path, char *out, size_t n);
/* The name of a statfs(2) f_type ("xfs"; ext2/3/4 share one: "ext4"), or
 * NULL for one not in the table. */
const char *fs_magic_name(unsigned long f_type);
/*
 * Does the file at path share any extent with another file (FIEMAP's
 * FIEMAP_EXTENT_SHARED: a reflink or a copy_file_range that cloned instead
 * of copying)? 0 with *shared set, or -errno (-EOPNOTSUPP: no FIEMAP).
 */
int fs_file_shares_extents(const char *path, bool *shared);
/* The same for an open file. */
int fs_fd_shares_extents(int fd, bool *shared);
/* Can a file on a filesystem of this statfs(2) f_type share extents at all?
 * false for ext2/3/4, tmpfs and ramfs; true for any other, known or not. */
bool fs_may_share_extents(unsigned long f_type);
/*
 * mkdir -p. The first directory it had to create goes into made[] ("" when
 * the whole path existed), so that an early failure can take them away with
 * fs_unmake_dirs(). 0 or -errno.
 */
int fs_make_dirs(const char *path, char *made, size_t n);
/* Removes the directories fs_make_dirs created, deepest first, if still empty. */
void fs_unmake_dirs(const char *path, const char *made);

#endif
