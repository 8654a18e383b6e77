// SPDX-License-Identifier: MIT
/*
 * copy_file_range.c - copy_file_range(2) with explicit offsets.
 *
 * The kernel copies between two files without user space seeing the bytes;
 * a filesystem may do it faster still (NFS and SMB server-side copy, XFS and
 * btrfs may share extents). coreutils cp (9.0 and later), Go's
 * os.File.ReadFrom and Rust's std::io::copy all try this first for a
 * file-to-file copy and fall back to read/write when it is refused.
 *
 * Choices:
 *   - both offsets are passed explicitly, so neither descriptor's offset
 *     moves and ranges work as they are;
 *   - rounds of at most 1 GiB, as Go (maxCopyFileRangeRound) and Rust do: a
 *     bounded round keeps one call from holding the files for a long time;
 *     the kernel may return less, so short copies loop, EINTR is retried;
 *   - a 0 return before len bytes are copied means the source ended early:
 *     -ENODATA;
 *   - the probe copies a few bytes between two scratch files in the target
 *     directory and names the refusal: ENOSYS (kernel too old), EXDEV,
 *     EOPNOTSUPP or EINVAL (filesystem or file kind not supported).
 *
 * What the kernel does with it on ext4. ext4 has neither ->copy_file_range
 * nor ->remap_file_range, so the kernel falls back to splicing through the
 * task's internal pipe of 16 pages: 64 KiB per round, each round one ext4
 * buffered write (inode lock, journal handle, timestamps). The bytes are
 * copied once (page cache to page cache) instead of twice, but in twice as
 * many write rounds as a 128 KiB read/write loop, and nothing in user space
 * changes the round size (how it compares with cp: docs/strategies.md). On
 * btrfs, and XFS with reflink, the kernel clones extents instead: the
 * harness reports those rows as shared extents, not copy speeds.
 *
 * Expected syscalls per call: ceil(len / 1 GiB) copy_file_range (more when
 * the kernel returns short counts).
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define COPY_FILE_RANGE_MAX_ROUND (1ull << 30)

/* One round: up to want bytes, done bytes into the job's range. */
static ssize_t copy_file_range_round(const void *arg, uint64_t done, size_t want)
{
	const struct copy_job *job = arg;
	loff_t in = (loff_t)(job->src_off + done);
	loff_t out = (loff_t)(job->dst_off + done);

	return copy_file_range(job->src_fd, &in, job->dst_fd, &out, want, 0);
}

static int copy_file_range_copy(const struct copy_job *job)
{
	return move_in_rounds(job->len, COPY_FILE_RANGE_MAX_ROUND, copy_file_range_round, job);
}

/* Copies a few bytes from src_fd to a second scratch file; 0 or -errno. */
static int copy_file_range_probe_pair(const char *dir, int src_fd)
{
	loff_t in = 0, out = 0;
	int dst_fd, ret = 0;

	dst_fd = probe_scratch_fd(dir, NULL, 0, NULL, 0);
	if (dst_fd < 0)
		return dst_fd;
	if (copy_file_range(src_fd, &in, dst_fd, &out, 16, 0) != 16)
		ret = errno ? -errno : -EIO;
	close(dst_fd);
	return ret;
}

static int copy_file_range_probe(const char *dir, char *why, size_t n)
{
	static const char probe_bytes[16] = "copybench probe";
	int fd, ret;

	fd = probe_scratch_fd(dir, probe_bytes, sizeof(probe_bytes), why, n);
	if (fd < 0)
		return fd;
	errno = 0;
	ret = copy_file_range_probe_pair(dir, fd);
	close(fd);

	if (ret == -ENOSYS)
		snprintf(why, n, "kernel has no copy_file_range(2) (ENOSYS)");
	else if (ret == -EXDEV || ret == -EOPNOTSUPP || ret == -EINVAL)
		snprintf(why, n, "copy_file_range(2) refused in %s (%s)", dir, strerrorname_np(-ret));
	else if (ret)
		snprintf(why, n, "copy_file_range(2) probe failed in %s: %s", dir, strerror(-ret));
	return ret;
}

const struct copy_strategy strategy_copy_file_range = {
	.name = "copy_file_range",
	.description = "copy_file_range(2) with explicit offsets in rounds of at most 1 GiB",
	.syscalls = "copy_file_range",
	.flags = STRATEGY_RANGE | STRATEGY_TREE_DEFAULT,
	.probe = copy_file_range_probe,
	.copy = copy_file_range_copy,
};
