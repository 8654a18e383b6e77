// SPDX-License-Identifier: MIT
/*
 * direct.c - O_DIRECT: bypass the page cache on both ends.
 *
 * The strategy sets O_DIRECT on the descriptors the harness opened (fcntl
 * F_SETFL; Linux allows turning it on and off on an open file), moves the
 * bytes with pread/pwrite through one aligned buffer, so reads come from the
 * device by DMA into user memory and writes go from user memory to the
 * device without filling the page cache, and turns O_DIRECT off again
 * before it returns. It opens nothing itself, like every other strategy. This is what dd iflag=direct oflag=direct and fio's
 * direct=1 psync engine do; coreutils cp never uses O_DIRECT.
 *
 * Tuning and rules:
 *   - Alignment comes from statx(STATX_DIOALIGN) (Linux 6.1+) on both files:
 *     the larger stx_dio_mem_align for the buffer address and the larger
 *     stx_dio_offset_align for offsets and lengths. When the kernel or the
 *     file system does not report it, 4096 is assumed for both (safe on
 *     every common block size and logical sector size).
 *   - Buffer: 1 MiB by default (.default_buffer, so the harness passes it
 *     when no --buffer is given; large requests amortise the per-request
 *     device latency that the page cache no longer hides, see
 *     docs/strategies.md), or job->buffer_size rounded up to the offset
 *     alignment.
 *   - Unaligned tail: the largest multiple of the offset alignment is moved
 *     with O_DIRECT; the remaining tail (< alignment) is read and written
 *     with ordinary buffered pread/pwrite once O_DIRECT is off again. No padding
 *     is written, so no ftruncate is needed and the destination never grows
 *     past dst_off + len.
 *   - Unaligned source offsets (the split workload's parts start after a
 *     newline): the source is read with O_DIRECT from the aligned offset
 *     before src_off (one more block per request) and the buffer shifted by
 *     the difference (memmove) before the O_DIRECT write, so every part is
 *     direct I/O on both ends. Only an unaligned dst_off (no workload makes
 *     one) falls back to the ordinary buffered loop for the whole call.
 *   - A short O_DIRECT read means end of file: a source shorter than len
 *     gives -ENODATA.
 *
 * The probe opens a scratch file with O_DIRECT in the target directory;
 * file systems without direct I/O refuse with EINVAL (ramfs; tmpfs before
 * Linux 6.6) and the reason names the file system (from mountinfo).
 *
 * Expected syscalls per call: statx x2, fcntl x6 (read, set and restore the
 * flags of both descriptors), ceil(len / buffer) pread64 and pwrite64 (+1
 * each for a tail).
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIRECT_DEFAULT_BUFFER	(1u << 20)
#define DIRECT_DEFAULT_ALIGN	4096u

struct direct_align {
	size_t mem;	/* buffer address alignment */
	uint64_t off;	/* file offset and length alignment */
};

/* Widens *al with what the kernel reports for fd (if it reports it). */
static void direct_query_align(int fd, struct direct_align *al)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) < 0)
		return;
	if (!(stx.stx_mask & STATX_DIOALIGN))
		return;
	if (stx.stx_dio_mem_align > al->mem)
		al->mem = stx.stx_dio_mem_align;
	if (stx.stx_dio_offset_align > al->off)
		al->off = stx.stx_dio_offset_align;
}

static void direct_alignment(int src, int dst, struct direct_align *al)
{
	al->mem = 0;
	al->off = 0;
	direct_query_align(src, al);
	direct_query_align(dst, al);
	if (al->mem == 0)
		al->mem = DIRECT_DEFAULT_ALIGN;
	if (al->off == 0)
		al->off = DIRECT_DEFAULT_ALIGN;
}

/* Ordinary buffered pread/pwrite of [from, to) of the job's range. */
static int direct_buffered(const struct copy_job *job, uint64_t from,
			   uint64_t to)
{
	struct copy_job sub = *job;
	size_t bufsz = job->buffer_size ? job->buffer_size : DIRECT_DEFAULT_BUFFER;
	char *buf;
	int ret = 0;

	sub.src_off += from;
	sub.dst_off += from;
	sub.len = to - from;
	if (bufsz > sub.len)
		bufsz = (size_t)sub.len;
	buf = page_buf_alloc(bufsz);
	if (!buf)
		return -ENOMEM;
	for (uint64_t done = 0; done < sub.len && !ret;) {
		size_t want = sub.len - done < bufsz ? (size_t)(sub.len - done) : bufsz;
		ssize_t got = full_pread(sub.src_fd, buf, want, sub.src_off + done);

		if (got <= 0) {
			ret = got < 0 ? (int)got : -ENODATA;
			break;
		}
		ret = full_pwrite(sub.dst_fd, buf, (size_t)got, sub.dst_off + done);
		done += (uint64_t)got;
	}
	page_buf_free(buf, bufsz);
	return ret;
}

/*
 * A buffer of fresh pages (page_buf_alloc), so aligned to the page size; a
 * device asking for more memory alignment than a page is refused, none known.
 */
static char *direct_alloc_buffer(size_t len, size_t mem_align)
{
	long page = sysconf(_SC_PAGESIZE);

	if (page > 0 && mem_align > (size_t)page) {
		errno = EINVAL;
		return NULL;
	}
	return page_buf_alloc(len);
}

/* Reads want bytes with O_DIRECT; a short count means end of file. */
static ssize_t direct_read(int fd, char *buf, size_t want, uint64_t off,
			   uint64_t align)
{
	size_t done = 0;

	while (done < want) {
		ssize_t n = pread(fd, buf + done, want - done, (off_t)(off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		done += (size_t)n;
		if (n == 0 || (uint64_t)n % align)
			break;	/* end of file */
	}
	return (ssize_t)done;
}

/*
 * Moves [0, body) of the job; its descriptors are in O_DIRECT mode. A
 * source offset `lead` bytes past an aligned one (a split part starts after
 * a newline) is read from that aligned offset, and the buffer is shifted by
 * lead before the write: one more block read per request and a memmove,
 * but the row is direct I/O on both ends.
 */
static int direct_body(const struct copy_job *job, const struct direct_align *al,
		       uint64_t body)
{
	size_t bufsz = job->buffer_size ? job->buffer_size : DIRECT_DEFAULT_BUFFER;
	size_t lead = (size_t)(job->src_off % al->off);
	size_t buflen;
	uint64_t done = 0;
	char *buf;
	int ret = 0;

	bufsz = (size_t)((bufsz + al->off - 1) / al->off * al->off);
	if (bufsz > body)
		bufsz = (size_t)body;
	buflen = bufsz + (lead ? al->off : 0);
	buf = direct_alloc_buffer(buflen, al->mem);
	if (!buf)
		return -errno;
	while (done < body) {
		size_t want = body - done < bufsz ? (size_t)(body - done) : bufsz;
		size_t span = (size_t)((lead + want + al->off - 1) / al->off * al->off);
		ssize_t got = direct_read(job->src_fd, buf, span, job->src_off - lead + done,
					  al->off);

		if (got < 0) {
			ret = (int)got;
			break;
		}
		if ((size_t)got < lead + want) {
			ret = -ENODATA;	/* source shorter than promised */
			break;
		}
		if (lead)
			memmove(buf, buf + lead, want);
		ret = full_pwrite(job->dst_fd, buf, want, job->dst_off + done);
		if (ret)
			break;
		done += want;
	}
	page_buf_free(buf, buflen);
	return ret;
}

/* Turns O_DIRECT on (or back off) on fd; *old keeps the flags to restore. */
static int direct_set(int fd, bool on, int *old)
{
	if (on) {
		*old = fcntl(fd, F_GETFL);
		if (*old < 0)
			return -errno;
	}
	if (fcntl(fd, F_SETFL, on ? *old | O_DIRECT : *old) < 0)
		return -errno;
	return 0;
}

/* [0, body) of the job with O_DIRECT on both descriptors. */
static int direct_body_on(const struct copy_job *job, const struct direct_align *al,
			  uint64_t body)
{
	int sflags, dflags, ret;

	ret = direct_set(job->src_fd, true, &sflags);
	if (ret)
		return ret;
	ret = direct_set(job->dst_fd, true, &dflags);
	if (ret)
		goto out_restore_src;
	ret = direct_body(job, al, body);
	direct_set(job->dst_fd, false, &dflags);
out_restore_src:
	direct_set(job->src_fd, false, &sflags);
	return ret;
}

static int direct_copy(const struct copy_job *job)
{
	struct direct_align al;
	uint64_t body;
	int ret;

	if (job->len == 0)
		return 0;
	direct_alignment(job->src_fd, job->dst_fd, &al);
	if (job->dst_off % al.off)
		return direct_buffered(job, 0, job->len);
	body = job->len / al.off * al.off;
	ret = body ? direct_body_on(job, &al, body) : 0;
	if (!ret && body < job->len)
		ret = direct_buffered(job, body, job->len);
	return ret;
}

/* Does the file system under dir accept O_DIRECT opens? */
static int direct_probe(const char *dir, char *why, size_t n)
{
	return probe_direct_io(dir, why, n);
}

const struct copy_strategy strategy_direct = {
	.name = "direct",
	.description = "O_DIRECT pread(2)/pwrite(2), 1 MiB buffer aligned per statx(STATX_DIOALIGN)",
	.syscalls = "statx,fcntl,pread64,pwrite64",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE | STRATEGY_DEVICE_IO,
	.default_buffer = DIRECT_DEFAULT_BUFFER,
	.probe = direct_probe,
	.copy = direct_copy,
};
