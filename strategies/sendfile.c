// SPDX-License-Identifier: MIT
/*
 * sendfile.c - sendfile(2) from the source file to the destination file.
 *
 * The kernel moves the bytes from the source's page cache to the destination
 * without a user-space buffer. It is what Java's FileChannel.transferTo
 * uses on Linux (the zero-copy split of the seed article, commons-io's
 * FileChannel copy), at least in JDKs that do not try copy_file_range first.
 * coreutils cp, Go's os.File.ReadFrom and Rust's std::io::copy prefer
 * copy_file_range for file-to-file copies; Go and Rust use sendfile when the
 * destination is a socket.
 *
 * Choices:
 *   - the source offset is passed explicitly, so the source descriptor's
 *     offset is untouched. sendfile writes at the destination's current file
 *     offset, so dst_fd is positioned at dst_off with lseek() first and is
 *     left just after the copied range: the technique needs that offset;
 *   - at most 0x7ffff000 bytes per call (the kernel's own per-call cap);
 *     short transfers loop, EINTR is retried;
 *   - a 0 return before len bytes moved means the source ended early:
 *     -ENODATA.
 *
 * Expected syscalls per call: one lseek, then ceil(len / 0x7ffff000)
 * sendfile (more when the kernel returns short counts).
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <sys/sendfile.h>
#include <unistd.h>

#define SENDFILE_MAX_CHUNK 0x7ffff000ull

/* One call: up to want bytes from done bytes into the source range, to
 * the destination's file offset (which sendfile advances). */
static ssize_t sendfile_round(const void *arg, uint64_t done, size_t want)
{
	const struct copy_job *job = arg;
	off_t src_off = (off_t)(job->src_off + done);

	return sendfile(job->dst_fd, job->src_fd, &src_off, want);
}

static int sendfile_copy(const struct copy_job *job)
{
	if (job->len == 0)
		return 0;
	if (lseek(job->dst_fd, (off_t)job->dst_off, SEEK_SET) < 0)
		return -errno;
	return move_in_rounds(job->len, SENDFILE_MAX_CHUNK, sendfile_round, job);
}

const struct copy_strategy strategy_sendfile = {
	.name = "sendfile",
	.description = "sendfile(2) file to file with an explicit source offset",
	.syscalls = "lseek,sendfile",
	.flags = STRATEGY_RANGE | STRATEGY_TREE_DEFAULT,
	.copy = sendfile_copy,
};
