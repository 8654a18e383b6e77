// SPDX-License-Identifier: MIT
/*
 * reflink.c - share the source's extents with the destination (FICLONE).
 *
 * On filesystems with copy-on-write extents (btrfs, XFS with reflink=1,
 * bcachefs, OCFS2, some NFS and SMB servers) a copy can be made without
 * moving any data: the destination's block map points at the source's
 * blocks, and they are copied only when one side is later written. This is
 * coreutils cp --reflink (the default since coreutils 9.0 tries it first).
 * It is not a copy of bytes, so it is flagged STRATEGY_SHARES_EXTENTS and the
 * harness reports it apart from the strategies that move data.
 *
 * Choices:
 *   - a whole file (both offsets 0 and len equal to the source's size) is
 *     cloned with ioctl(FICLONE), which replaces the destination's contents;
 *   - anything else uses ioctl(FICLONERANGE). Filesystems share whole blocks
 *     only, so both offsets must be multiples of the block size (f_bsize of
 *     the destination's filesystem) and so must len, unless the range ends
 *     at the source's end; otherwise the copy returns -EINVAL at once;
 *   - one ioctl covers any length (the filesystem loops internally); EINTR
 *     is retried, the clone being idempotent;
 *   - the probe clones a small scratch file in the target directory and
 *     names the filesystem when it refuses, e.g. "filesystem ext4 does not
 *     support FICLONE (EOPNOTSUPP)".
 *
 * Expected syscalls per call: one newfstatat, one fstatfs (ranges only) and
 * one ioctl.
 */
#include "strategy.h"
#include "lib/fileio.h"
#include "lib/fsinfo.h"

#include <errno.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

static int reflink_ioctl(int fd, unsigned long request, void *arg)
{
	while (ioctl(fd, request, arg))
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* FICLONERANGE after the alignment checks the filesystems would make. */
static int reflink_clone_range(const struct copy_job *job, uint64_t src_size)
{
	struct file_clone_range range = {
		.src_fd = job->src_fd,
		.src_offset = job->src_off,
		.src_length = job->len,
		.dest_offset = job->dst_off,
	};
	struct statfs sf;
	uint64_t bs;

	if (fstatfs(job->dst_fd, &sf))
		return -errno;
	bs = sf.f_bsize > 0 ? (uint64_t)sf.f_bsize : 4096;
	if (job->src_off % bs || job->dst_off % bs)
		return -EINVAL;
	if (job->len % bs && job->src_off + job->len != src_size)
		return -EINVAL;
	return reflink_ioctl(job->dst_fd, FICLONERANGE, &range);
}

static int reflink_copy(const struct copy_job *job)
{
	struct stat st;

	if (job->len == 0)
		return 0;
	if (fstat(job->src_fd, &st))
		return -errno;
	if ((uint64_t)st.st_size < job->src_off ||
	    (uint64_t)st.st_size - job->src_off < job->len)
		return -ENODATA;
	if (job->src_off == 0 && job->dst_off == 0 && job->len == (uint64_t)st.st_size)
		return reflink_ioctl(job->dst_fd, FICLONE, (void *)(intptr_t)job->src_fd);
	return reflink_clone_range(job, (uint64_t)st.st_size);
}

/* Clones src_fd into a second scratch file; 0 or -errno. */
static int reflink_probe_pair(const char *dir, int src_fd)
{
	int dst_fd, ret;

	dst_fd = probe_scratch_fd(dir, NULL, 0, NULL, 0);
	if (dst_fd < 0)
		return dst_fd;
	ret = reflink_ioctl(dst_fd, FICLONE, (void *)(intptr_t)src_fd);
	close(dst_fd);
	return ret;
}

static int reflink_probe(const char *dir, char *why, size_t n)
{
	static const char block[4096];
	char fs[64];
	int fd, ret;

	fd = probe_scratch_fd(dir, block, sizeof(block), why, n);
	if (fd < 0)
		return fd;
	ret = reflink_probe_pair(dir, fd);
	close(fd);
	if (ret == 0)
		return 0;

	fs_type_name(dir, fs, sizeof(fs));
	if (ret == -EOPNOTSUPP || ret == -ENOTTY || ret == -EINVAL || ret == -EXDEV)
		snprintf(why, n, "filesystem %s does not support FICLONE (%s)", fs, strerrorname_np(-ret));
	else
		snprintf(why, n, "FICLONE failed on filesystem %s: %s", fs, strerror(-ret));
	return ret;
}

const struct copy_strategy strategy_reflink = {
	.name = "reflink",
	.description = "share the source's extents with ioctl FICLONE/FICLONERANGE (cp --reflink)",
	.syscalls = "newfstatat,fstatfs,ioctl",
	.flags = STRATEGY_SHARES_EXTENTS | STRATEGY_RANGE,
	.probe = reflink_probe,
	.copy = reflink_copy,
};
