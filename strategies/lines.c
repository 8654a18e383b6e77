// SPDX-License-Identifier: MIT
/*
 * lines.c - the deliberately naive baseline: read a line, write a line.
 *
 * The naive splitter of the seed article reads the input with
 * BufferedReader.readLine() and writes each line back with
 * BufferedWriter.write(line) + newLine(). This is the same loop in C:
 * getline(3) on one FILE stream, fwrite(3) of the line on another. It shows
 * what per-line handling costs (a scan for '\n' on every byte, a call per
 * line, a copy into the line buffer) next to the block-moving strategies.
 *
 * Choices, all in the spirit of "naive, no tuning":
 *   - default stdio buffers (no setvbuf): glibc sizes them from st_blksize,
 *     4 KiB on most filesystems, as Java's reader and writer use 8 KiB
 *     defaults the seed did not change;
 *   - the line is written with fwrite() of the length getline() returned,
 *     line terminator included. fputs() would be the textbook pair of
 *     getline(), but it stops at the first NUL byte and binary data has
 *     NULs; writing the returned length is the faithful equivalent of the
 *     seed's write(line) + newLine() (which also writes every byte of the
 *     line and its terminator), without its CRLF-to-LF normalisation;
 *   - the streams are fdopen()'d on dup()'d descriptors and positioned with
 *     fseeko(). A dup shares the file offset with the original, so this
 *     strategy moves the offsets of src_fd and dst_fd: stdio has no
 *     positioned I/O;
 *   - it stops after len bytes: the last line is cut where it crosses the end
 *     of the range. A read that failed with EINTR is retried (glibc keeps the
 *     stream consistent); a failed write is final (glibc drops the unwritten
 *     part of the stream buffer, so it cannot be resumed).
 *
 * Expected syscalls per call: dup, fcntl(F_GETFL), newfstatat (buffer size)
 * and lseek per stream, then read and write in st_blksize blocks, and one
 * close per stream.
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* One line (or what is left of it) into *line. Length, 0 at EOF, -errno. */
static ssize_t lines_read_line(FILE *in, char **line, size_t *cap)
{
	for (;;) {
		ssize_t n;

		errno = 0;
		n = getline(line, cap, in);
		if (n > 0)
			return n;	/* a read error after it shows up next call */
		if (!ferror(in))
			return 0;
		if (errno != EINTR)
			return -(errno ? errno : EIO);
		clearerr(in);
	}
}

static int lines_pump(FILE *in, FILE *out, uint64_t len)
{
	uint64_t done = 0;
	size_t cap = 0;
	char *line = NULL;
	int ret = 0;

	while (done < len) {
		ssize_t n = lines_read_line(in, &line, &cap);
		size_t want;

		if (n <= 0) {
			ret = n < 0 ? (int)n : -ENODATA;	/* short source */
			break;
		}
		want = len - done < (uint64_t)n ? (size_t)(len - done) : (size_t)n;
		errno = 0;
		if (fwrite(line, 1, want, out) != want) {
			ret = -(errno ? errno : EIO);
			break;
		}
		done += want;
	}
	free(line);
	return ret;
}

static int lines_copy(const struct copy_job *job)
{
	FILE *in, *out;
	int ret;

	if (job->len == 0)
		return 0;
	in = stream_at(job->src_fd, "r", job->src_off, NULL, 0);
	if (!in)
		return -errno;
	out = stream_at(job->dst_fd, "w", job->dst_off, NULL, 0);
	if (!out) {
		ret = -errno;
		goto out_close_in;
	}
	ret = stream_close(out, lines_pump(in, out, job->len));
out_close_in:
	fclose(in);
	return ret;
}

const struct copy_strategy strategy_lines = {
	.name = "lines",
	.description = "naive baseline: getline(3) and fwrite(3) of each line through default stdio buffers",
	.syscalls = "dup,fcntl,newfstatat,lseek,read,write,close",
	.flags = STRATEGY_NAIVE | STRATEGY_RANGE,
	.copy = lines_copy,
};
