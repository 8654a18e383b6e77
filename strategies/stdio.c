// SPDX-License-Identifier: MIT
/*
 * stdio.c - fread(3)/fwrite(3) through fully buffered FILE streams.
 *
 * The C library's own buffered copy, the equivalent of Java's
 * BufferedInputStream/BufferedOutputStream pair and of the stream loop in
 * commons-io's IOUtils.copy: the program moves blocks between its buffer and
 * the streams, the streams move blocks between their buffers and the kernel.
 *
 * Choices:
 *   - the streams are made with fdopen() on dup()'d descriptors, so fclose()
 *     does not close the harness's descriptors. A dup shares the file offset
 *     with the original, so this strategy does move the offsets of src_fd and
 *     dst_fd: stdio has no positioned I/O, fseeko() is its technique;
 *   - both streams get a stream buffer of job->buffer_size via setvbuf() with
 *     _IOFBF. The buffer is ours: glibc ignores the size argument when the
 *     buffer pointer is NULL and would fall back to st_blksize (4 KiB);
 *   - the program's own buffer for fread/fwrite is the same size. glibc reads
 *     and writes requests at least as large as the stream buffer directly, so
 *     in practice each fread is one read(2) and each fwrite one write(2);
 *   - all three buffers are page-aligned, as readwrite's is. Where malloc
 *     puts a block of this size depends on what the process freed before: a
 *     fresh process maps it 16 bytes past a page boundary, the harness's
 *     child may carve it from the heap it inherited. The kernel's copies to
 *     and from a buffer 16 bytes off a 32-byte boundary are measurably
 *     slower (docs/clock.md), so malloc would time the allocator's history;
 *   - a short fread with EINTR clears the error and carries on; a failed
 *     fwrite is final (see stdio_write_all).
 *
 * Expected syscalls per call: dup and fcntl(F_GETFL) for each stream,
 * one lseek per stream, about ceil(len / buffer) read and as many write,
 * one close per stream; malloc's own calls for the buffers (brk, or
 * mmap/munmap at glibc's mmap threshold) are libc's, not listed.
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * Reads up to want bytes; fewer only at end of file. Bytes or -errno.
 * A read that failed with EINTR consumed nothing, so it is safe to retry.
 */
static ssize_t stdio_read_some(FILE *f, char *buf, size_t want)
{
	size_t got = 0;

	while (got < want) {
		errno = 0;
		got += fread(buf + got, 1, want - got, f);
		if (got == want || !ferror(f))
			break;
		if (errno != EINTR)
			return -(errno ? errno : EIO);
		clearerr(f);
	}
	return (ssize_t)got;
}

/*
 * A failed flush is final: glibc drops the unwritten part of the stream
 * buffer when write(2) fails, so even EINTR cannot be resumed here (writes
 * to regular files are not interrupted by signals the process handles).
 */
static int stdio_write_all(FILE *f, const char *buf, size_t len)
{
	errno = 0;
	if (fwrite(buf, 1, len, f) != len)
		return -(errno ? errno : EIO);
	return 0;
}

/* The copy loop proper, on positioned streams. */
static int stdio_pump(FILE *in, FILE *out, char *buf, size_t bufsz, uint64_t len)
{
	uint64_t done = 0;

	while (done < len) {
		size_t want = len - done < bufsz ? (size_t)(len - done) : bufsz;
		ssize_t got = stdio_read_some(in, buf, want);
		int ret;

		if (got < 0)
			return (int)got;
		if (got == 0)		/* source shorter than promised */
			return -ENODATA;
		ret = stdio_write_all(out, buf, (size_t)got);
		if (ret)
			return ret;
		done += (uint64_t)got;
	}
	return 0;
}

static int stdio_copy(const struct copy_job *job)
{
	size_t bufsz = job->buffer_size ? job->buffer_size : STRATEGY_DEFAULT_BUFFER;
	char *inbuf, *outbuf, *buf;
	FILE *in, *out;
	int ret = -ENOMEM;

	if (job->len == 0)
		return 0;
	inbuf = page_buf_alloc(bufsz);
	outbuf = page_buf_alloc(bufsz);
	buf = page_buf_alloc(bufsz);
	if (!inbuf || !outbuf || !buf)
		goto out_free_bufs;

	in = stream_at(job->src_fd, "r", job->src_off, inbuf, bufsz);
	if (!in) {
		ret = -errno;
		goto out_free_bufs;
	}
	out = stream_at(job->dst_fd, "w", job->dst_off, outbuf, bufsz);
	if (!out) {
		ret = -errno;
		goto out_close_in;
	}
	/* fclose flushes: a failed final write shows up there */
	ret = stream_close(out, stdio_pump(in, out, buf, bufsz, job->len));
out_close_in:
	fclose(in);
out_free_bufs:
	page_buf_free(buf, bufsz);
	page_buf_free(outbuf, bufsz);
	page_buf_free(inbuf, bufsz);
	return ret;
}

const struct copy_strategy strategy_stdio = {
	.name = "stdio",
	.description = "fread(3)/fwrite(3) through fully buffered FILE streams of the buffer size",
	.syscalls = "dup,fcntl,lseek,read,write,close",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE,
	.copy = stdio_copy,
};
