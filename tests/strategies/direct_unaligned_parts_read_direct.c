// SPDX-License-Identifier: MIT
/*
 * direct_unaligned_parts_read_direct.c - what the direct strategy does with
 * a split part, whose source offset follows a newline: it must read the
 * source with O_DIRECT (the page cache stays empty over the part) and copy
 * its bytes exactly, at offsets 1, 4095, 4097 and 1 MiB + 17, for lengths
 * with and without a tail. A part that fell back to buffered reads would
 * fill the page cache (mincore). Skips where O_DIRECT is refused or the
 * source cannot be evicted (tmpfs).
 */
#include "strategies/strategy.h"
#include "support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SRC_SIZE (3u << 20)

extern const struct copy_strategy strategy_direct;

static unsigned char *src_bytes;

/* Pages of [off, off + len) of fd in the page cache. */
static size_t resident_pages(int fd, uint64_t off, uint64_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t first = off / (uint64_t)page * (uint64_t)page;
	size_t n = (size_t)((off + len - first + (uint64_t)page - 1) / (uint64_t)page), count = 0;
	unsigned char *vec = calloc(n, 1);
	void *map = mmap(NULL, n * (size_t)page, PROT_READ, MAP_SHARED, fd, (off_t)first);

	if (map != MAP_FAILED && vec && mincore(map, n * (size_t)page, vec) == 0)
		for (size_t i = 0; i < n; i++)
			count += vec[i] & 1;
	if (map != MAP_FAILED)
		munmap(map, n * (size_t)page);
	free(vec);
	return count;
}

static int evict(int fd)
{
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return resident_pages(fd, 0, SRC_SIZE) == 0 ? 0 : -1;
}

static void one_part(const char *dir, int src, uint64_t off, uint64_t len)
{
	char dst_path[600];
	unsigned char *got = malloc(len);
	struct copy_job job = { .src_fd = src, .src_off = off, .len = len };
	int dst;

	snprintf(dst_path, sizeof(dst_path), "%s/part", dir);
	dst = open(dst_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(dst >= 0 && got);
	job.dst_fd = dst;
	CHECK(evict(src) == 0);
	CHECK_EQ_U64((uint64_t)strategy_direct.copy(&job), 0);
	/* the tail (< 4 KiB, buffered) and the one block before the part may
	 * be cached; nothing more of the part */
	CHECK(resident_pages(src, off, len) <= 2);
	CHECK(pread(dst, got, len, 0) == (ssize_t)len);
	CHECK(memcmp(got, src_bytes + off, len) == 0);
	if (resident_pages(src, off, len) > 2)
		fprintf(stderr, "offset %llu: %zu pages of the part cached: read buffered\n",
			(unsigned long long)off, resident_pages(src, off, len));
	close(dst);
	unlink(dst_path);
	free(got);
}

int main(void)
{
	const char *dir = test_tmpdir();
	char src_path[600], why[200];
	uint64_t x = 42;
	int src;

	if (strategy_direct.probe(dir, why, sizeof(why))) {
		printf("SKIP: %s\n", why);
		test_cleanup_dir();
		return 77;
	}
	src_bytes = malloc(SRC_SIZE);
	for (size_t i = 0; i < SRC_SIZE; i++)
		src_bytes[i] = (unsigned char)(test_uniform(&x) * 127 + 128);
	snprintf(src_path, sizeof(src_path), "%s/src", dir);
	src = open(src_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(src >= 0 && write(src, src_bytes, SRC_SIZE) == SRC_SIZE);
	if (evict(src)) {
		printf("SKIP: the source stays in the page cache here (tmpfs?)\n");
		test_cleanup_dir();
		return 77;
	}
	one_part(dir, src, 1, 1u << 20);
	one_part(dir, src, 4095, (1u << 20) + 100);
	one_part(dir, src, 4097, 123456);
	one_part(dir, src, (1u << 20) + 17, (2u << 20) - 17);
	close(src);
	free(src_bytes);
	test_cleanup_dir();
	return test_report("direct_unaligned_parts_read_direct");
}
