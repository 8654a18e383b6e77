// SPDX-License-Identifier: MIT
/*
 * splice.c - source file -> pipe -> destination file with splice(2).
 *
 * splice(2) moves data between a file and a pipe inside the kernel: the pipe
 * holds references to page-cache pages, so the bytes are not copied into user
 * space. Two splices per round: file -> pipe (explicit source offset through
 * a loff_t pointer) and pipe -> file (explicit destination offset), so the
 * descriptors' file offsets stay untouched and the same code serves whole
 * copies and the split workload's ranges.
 *
 * Follows the pump-and-drain shape of Go's internal/poll Splice (behind
 * net's socket copies and os.File.ReadFrom from sockets): splice at most a
 * pipe's worth in, drain all of it out, repeat, with 1 MiB per call and the
 * pipe enlarged to match.
 *
 * Tuning:
 *   - Pipe capacity: F_SETPIPE_SZ to min(job->buffer_size,
 *     /proc/sys/fs/pipe-max-size); 1 MiB when no buffer size is given
 *     (.default_buffer, which the harness passes then; Go
 *     enlarges its pipes to 1 MiB: the default 64 KiB pipe costs 16x the
 *     splice calls). The kernel rounds up to a power of two pages; the size
 *     actually granted (F_GETPIPE_SZ) bounds each round. A failed resize
 *     (EPERM over the limit without CAP_SYS_RESOURCE, or per-user pipe
 *     quota) is not an error: the default capacity is used.
 *   - SPLICE_F_MOVE | SPLICE_F_MORE on both halves: MOVE asks to move pages
 *     rather than copy them (a hint current kernels ignore, harmless), MORE
 *     says more data follows. Go passes SPLICE_F_NONBLOCK instead because
 *     its ends are sockets driven by its poller; regular files never block
 *     on a pipe that is drained every round, so blocking calls are used.
 *   - The pipe is drained completely every round, so the next file -> pipe
 *     splice always finds an empty pipe and never blocks.
 *   - Both ends use the kernel's 64-bit loff_t, so offsets beyond 4 GiB
 *     work; each call moves at most one pipe's worth.
 *
 * End of source before len bytes: splice returns 0 -> -ENODATA.
 *
 * Expected syscalls per call: pipe2, fcntl x2 (F_SETPIPE_SZ, F_GETPIPE_SZ),
 * one read of /proc/sys/fs/pipe-max-size (openat, newfstatat for stdio's
 * buffer, read, close), then about 2 * ceil(len / pipe size) splices, and
 * close x2.
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SPLICE_DEFAULT_PIPE	(1u << 20)	/* Go's pipe size */
#define SPLICE_FLAGS		(SPLICE_F_MOVE | SPLICE_F_MORE)

/* The largest pipe an unprivileged process may ask for; 1 MiB if unknown. */
static size_t splice_pipe_max(void)
{
	unsigned long max = SPLICE_DEFAULT_PIPE;
	FILE *f = fopen("/proc/sys/fs/pipe-max-size", "re");

	if (f) {
		if (fscanf(f, "%lu", &max) != 1)
			max = SPLICE_DEFAULT_PIPE;
		fclose(f);
	}
	return max;
}

/* Makes a pipe of about `want` bytes; returns the capacity it really has. */
static int splice_open_pipe(int pfd[2], size_t want, size_t *cap)
{
	size_t max = splice_pipe_max();
	int got;

	if (pipe2(pfd, O_CLOEXEC) < 0)
		return -errno;
	if (want > max)
		want = max;
	if (want > (size_t)0x40000000)
		want = 0x40000000;
	fcntl(pfd[1], F_SETPIPE_SZ, (int)want);	/* failure: keep the default */
	got = fcntl(pfd[1], F_GETPIPE_SZ);
	*cap = got > 0 ? (size_t)got : 65536;
	return 0;
}

/* Moves exactly `len` bytes that sit in the pipe to dst_fd at *off. */
static int splice_drain(int pipe_rd, int dst_fd, loff_t *off, size_t len)
{
	while (len > 0) {
		ssize_t n = splice(pipe_rd, NULL, dst_fd, off, len, SPLICE_FLAGS);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		len -= (size_t)n;
	}
	return 0;
}

static int splice_copy(const struct copy_job *job)
{
	size_t want = job->buffer_size ? job->buffer_size : SPLICE_DEFAULT_PIPE;
	loff_t in_off = (loff_t)job->src_off;
	loff_t out_off = (loff_t)job->dst_off;
	uint64_t left = job->len;
	size_t cap = 0;
	int pfd[2];
	int ret;

	if (job->len == 0)
		return 0;
	ret = splice_open_pipe(pfd, want, &cap);
	if (ret)
		return ret;
	if (job->facts)
		job->facts->pipe_bytes = cap;

	while (left > 0) {
		size_t chunk = left < cap ? (size_t)left : cap;
		ssize_t n = splice(job->src_fd, &in_off, pfd[1], NULL, chunk,
				   SPLICE_FLAGS);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out_close_pipe;
		}
		if (n == 0) {		/* source shorter than promised */
			ret = -ENODATA;
			goto out_close_pipe;
		}
		ret = splice_drain(pfd[0], job->dst_fd, &out_off, (size_t)n);
		if (ret)
			goto out_close_pipe;
		left -= (uint64_t)n;
	}

out_close_pipe:
	close(pfd[0]);
	close(pfd[1]);
	return ret;
}

/* Can splice(2) read a file in dir into a pipe here? */
static int splice_probe(const char *dir, char *why, size_t n)
{
	loff_t off = 0;
	int pfd[2];
	int fd, ret = 0;

	fd = probe_scratch_fd(dir, "x", 1, why, n);
	if (fd < 0)
		return fd;
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		ret = -errno;
		snprintf(why, n, "probe setup failed: %s", strerror(-ret));
		goto out_close_file;
	}
	if (splice(fd, &off, pfd[1], NULL, 1, 0) != 1) {
		ret = errno ? -errno : -EIO;
		snprintf(why, n, "splice from a file to a pipe fails: %s",
			 strerror(-ret));
	}
	close(pfd[0]);
	close(pfd[1]);
out_close_file:
	close(fd);
	return ret;
}

const struct copy_strategy strategy_splice = {
	.name = "splice",
	.description = "splice(2) source -> pipe (up to 1 MiB, F_SETPIPE_SZ) -> destination, explicit offsets",
	.syscalls = "pipe2,fcntl,splice,openat,newfstatat,read,close",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE,
	.default_buffer = SPLICE_DEFAULT_PIPE,
	.probe = splice_probe,
	.copy = splice_copy,
};
