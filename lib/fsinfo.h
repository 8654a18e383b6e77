/* SPDX-License-Identifier: MIT */
/* fsinfo.h - filesystems, extents and directories. */
#ifndef COPYBENCH_FSINFO_H
#define COPYBENCH_FSINFO_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The type of the filesystem mounted over path, as /proc/self/mountinfo
 * names it ("ext4", "tmpfs", "btrfs"); "unknown" when it cannot tell.
 * 0 or -errno.
 */
int fs_type_name(const char *path, char *out, size_t n);
/*
 * Does the file at path share any extent with another file (FIEMAP's
 * FIEMAP_EXTENT_SHARED: a reflink or a copy_file_range that cloned instead
 * of copying)? 0 with *shared set, or -errno (-EOPNOTSUPP: no FIEMAP).
 */
int file_shares_extents(const char *path, bool *shared);
/*
 * mkdir -p. The first directory it had to create goes into made[] ("" when
 * the whole path existed), so that an early failure can take them away with
 * unmake_dirs(). 0 or -errno.
 */
int make_dirs(const char *path, char *made, size_t n);
/* Removes the directories make_dirs created, deepest first, if still empty. */
void unmake_dirs(const char *path, const char *made);

#endif
