// SPDX-License-Identifier: MIT
/*
 * mmap_memcpy.c - map source and destination, memcpy between the mappings.
 *
 * No read(2) or write(2) at all: both files are mapped and the CPU copies
 * page-cache page to page-cache page. The cost moves into page faults (one
 * per page on each side unless the kernel maps around the fault) and into
 * writeback of the dirtied destination pages. Java's two MappedByteBuffers
 * with put(), and C copiers that memcpy between mappings, work this way; no
 * mainstream copy tool (coreutils cp, Go's io.Copy, Rust's std::io::copy)
 * does.
 *
 * Choices:
 *   - the destination is grown with ftruncate() to dst_off + len when it is
 *     smaller (a mapping cannot extend a file); the new part is a hole that
 *     the copy fills. A larger destination is never shrunk;
 *   - windows of at most MMAP_MEMCPY_WINDOW bytes on both sides; each side's
 *     window starts at its own page-aligned offset, and a window ends where
 *     either side would pass the window size;
 *   - the source mapping is PROT_READ with MADV_SEQUENTIAL, the destination
 *     PROT_WRITE and MAP_SHARED so the stores reach the file. mmap needs a
 *     descriptor open for reading even for a write-only mapping: dst_fd must
 *     be opened O_RDWR, otherwise the copy fails with -EACCES;
 *   - no msync(): like write(2), the data is in the page cache when the copy
 *     returns and reaches the disk with writeback (or the harness's fsync);
 *   - a range that runs past the source's end is refused with -ENODATA
 *     before anything is mapped (touching it would raise SIGBUS).
 *
 * Expected syscalls per call: two newfstatat, at most one ftruncate, then
 * per window two mmap, one madvise and two munmap.
 */
#include "strategy.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MMAP_MEMCPY_WINDOW (64ull << 20)

/* One side of a window: the mapping and where the range starts in it. */
struct mmap_memcpy_side {
	char *base;
	size_t maplen;
	size_t skip;
};

static int mmap_memcpy_map(struct mmap_memcpy_side *m, int fd, int prot,
			   uint64_t off, size_t len, uint64_t page)
{
	uint64_t base = off & ~(page - 1);

	m->skip = (size_t)(off - base);
	m->maplen = m->skip + len;
	m->base = mmap(NULL, m->maplen, prot, MAP_SHARED, fd, (off_t)base);
	if (m->base == MAP_FAILED)
		return -errno;
	return 0;
}

/* Checks the source is long enough and grows the destination if needed. */
static int mmap_memcpy_prepare(const struct copy_job *job)
{
	uint64_t dst_end = job->dst_off + job->len;
	struct stat st;

	if (fstat(job->src_fd, &st))
		return -errno;
	if ((uint64_t)st.st_size < job->src_off ||
	    (uint64_t)st.st_size - job->src_off < job->len)
		return -ENODATA;
	if (fstat(job->dst_fd, &st))
		return -errno;
	if ((uint64_t)st.st_size >= dst_end)
		return 0;
	while (ftruncate(job->dst_fd, (off_t)dst_end))
		if (errno != EINTR)
			return -errno;
	return 0;
}

static int mmap_memcpy_window(const struct copy_job *job, uint64_t done,
			      size_t len, uint64_t page)
{
	struct mmap_memcpy_side src, dst;
	int ret;

	ret = mmap_memcpy_map(&src, job->src_fd, PROT_READ,
			      job->src_off + done, len, page);
	if (ret)
		return ret;
	ret = mmap_memcpy_map(&dst, job->dst_fd, PROT_WRITE,
			      job->dst_off + done, len, page);
	if (ret)
		goto out_unmap_src;
	madvise(src.base, src.maplen, MADV_SEQUENTIAL);
	memcpy(dst.base + dst.skip, src.base + src.skip, len);

	munmap(dst.base, dst.maplen);
out_unmap_src:
	munmap(src.base, src.maplen);
	return ret;
}

static int mmap_memcpy_copy(const struct copy_job *job)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	uint64_t page = pagesz > 0 ? (uint64_t)pagesz : 4096;
	uint64_t done = 0;
	int ret;

	if (job->len == 0)
		return 0;
	ret = mmap_memcpy_prepare(job);
	if (ret)
		return ret;

	while (done < job->len) {
		uint64_t sskip = (job->src_off + done) & (page - 1);
		uint64_t dskip = (job->dst_off + done) & (page - 1);
		uint64_t room = MMAP_MEMCPY_WINDOW - (sskip > dskip ? sskip : dskip);
		uint64_t left = job->len - done;
		size_t chunk = (size_t)(left < room ? left : room);

		ret = mmap_memcpy_window(job, done, chunk, page);
		if (ret)
			return ret;
		done += chunk;
	}
	return 0;
}

const struct copy_strategy strategy_mmap_memcpy = {
	.name = "mmap-memcpy",
	.description = "mmap(2) source and destination in 64 MiB windows and memcpy between them",
	.syscalls = "newfstatat,ftruncate,mmap,madvise,munmap",
	.flags = STRATEGY_RANGE,
	.copy = mmap_memcpy_copy,
};
