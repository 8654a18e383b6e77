// SPDX-License-Identifier: MIT
/*
 * mmap.c - map the source, write(2) from the mapping.
 *
 * The source is read through page faults instead of read(2): the kernel maps
 * its page-cache pages into the process and pwrite() copies straight out of
 * them, so the user-space buffer and one of the two copies of a read/write
 * loop disappear. It is the technique of Java's FileChannel.map followed by
 * a channel write, and of many hand-written copiers; coreutils cp, Go's
 * io.Copy and Rust's std::io::copy do not use it.
 *
 * Choices:
 *   - the source is mapped in windows of at most MMAP_WINDOW bytes, so a
 *     range of any size needs only a bounded amount of address space; each
 *     window starts at a page-aligned file offset (mmap requires it) and the
 *     bytes before src_off in the first page are skipped;
 *   - MADV_SEQUENTIAL on each window: aggressive readahead, and pages behind
 *     the reader may be dropped early;
 *   - pwrite() with an explicit offset, so the descriptors' offsets stay put;
 *   - one fstat() up front refuses a range that runs past the source's end
 *     with -ENODATA (touching a mapping beyond end of file raises SIGBUS).
 *     A file that shrinks during the copy still raises SIGBUS: the harness
 *     deals with that.
 *
 * Expected syscalls per call: one newfstatat, then per window one mmap, one
 * madvise, one pwrite64 (more if short) and one munmap.
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MMAP_WINDOW (64ull << 20)

static uint64_t mmap_page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (uint64_t)page : 4096;
}

/* -ENODATA when the source ends before src_off + len. */
static int mmap_check_source(int fd, uint64_t off, uint64_t len)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if ((uint64_t)st.st_size < off || (uint64_t)st.st_size - off < len)
		return -ENODATA;
	return 0;
}

/* Maps [off, off + len) of the source and writes it to dst at dst_off. */
static int mmap_copy_window(int src_fd, uint64_t off, size_t len, int dst_fd,
			    uint64_t dst_off, uint64_t page)
{
	uint64_t base = off & ~(page - 1);
	size_t skip = (size_t)(off - base);
	size_t maplen = skip + len;
	char *map;
	int ret;

	map = mmap(NULL, maplen, PROT_READ, MAP_SHARED, src_fd, (off_t)base);
	if (map == MAP_FAILED)
		return -errno;
	madvise(map, maplen, MADV_SEQUENTIAL);
	ret = full_pwrite(dst_fd, map + skip, len, dst_off);
	munmap(map, maplen);
	return ret;
}

static int mmap_copy(const struct copy_job *job)
{
	uint64_t page = mmap_page_size();
	uint64_t done = 0;
	int ret;

	if (job->len == 0)
		return 0;
	ret = mmap_check_source(job->src_fd, job->src_off, job->len);
	if (ret)
		return ret;

	while (done < job->len) {
		uint64_t off = job->src_off + done;
		uint64_t room = MMAP_WINDOW - (off & (page - 1));
		uint64_t left = job->len - done;
		size_t chunk = (size_t)(left < room ? left : room);

		ret = mmap_copy_window(job->src_fd, off, chunk, job->dst_fd,
				       job->dst_off + done, page);
		if (ret)
			return ret;
		done += chunk;
	}
	return 0;
}

const struct copy_strategy strategy_mmap = {
	.name = "mmap",
	.description = "mmap(2) the source in 64 MiB windows and pwrite(2) from the mapping",
	.syscalls = "newfstatat,mmap,madvise,pwrite64,munmap",
	.flags = STRATEGY_RANGE,
	.copy = mmap_copy,
};
