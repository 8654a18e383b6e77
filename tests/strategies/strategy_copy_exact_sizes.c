// SPDX-License-Identifier: MIT
/*
 * strategy_copy_exact_sizes.c - every available strategy copies exactly.
 *
 * For each strategy in the table whose probe accepts the test directory:
 * copy files of awkward sizes (0, 1, around a page, a few MiB plus odd
 * bytes) whole, and, for range-capable strategies, as a range from src_off
 * 4097 to dst_off 123 into a destination pre-filled with 0xAA, checking the
 * bytes around the range are untouched. A short range far beyond 4 GiB in
 * sparse files checks the 64-bit offset paths. The data is a fixed
 * pseudo-random pattern with NUL bytes and newlines in it. Strategies the
 * probe refuses are listed with the reason and skipped.
 * Also: full-buffer refuses a range over COPYBENCH_RAM_BUDGET with -EFBIG.
 */
#include "lib/fileio.h"
#include "strategies/strategy.h"
#include "support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RANGE_SRC_OFF 4097u
#define RANGE_DST_OFF 123u
#define RANGE_TAIL 100u		/* 0xAA bytes after the range in the destination */
#define FAR_SRC_OFF ((5ull << 30) + 3)
#define FAR_DST_OFF ((4ull << 30) + 5)
#define FAR_LEN (64u * 1024u + 9)

static const uint64_t test_sizes[] = {
	0, 1, 4095, 4096, 4097, (1u << 20) + 13, (3u << 20) + 7,
};

/* xorshift bytes; every 97th is '\n' and every 89th is NUL for sure. */
static void fill_pattern(unsigned char *p, size_t n, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)(x >> 24);
		if (i % 97 == 96)
			p[i] = '\n';
		else if (i % 89 == 88)
			p[i] = '\0';
	}
}

/* Paths of the two files, for strategies that reopen them (direct). */
static char src_path[512], dst_path[512];

static int open_file(const char *name, int flags)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), name);
	snprintf(strcmp(name, "src") ? dst_path : src_path, sizeof(path), "%s", path);
	return open(path, flags | O_RDWR | O_CLOEXEC, 0644);
}

static int write_at(int fd, const void *buf, size_t len, uint64_t off)
{
	return full_pwrite(fd, buf, len, off);
}

/* True when the file holds exactly want[0..len) at off. */
static int file_matches(int fd, const unsigned char *want, size_t len, uint64_t off)
{
	unsigned char *got = malloc(len ? len : 1);
	int ok;

	if (!got)
		return 0;
	ok = full_pread(fd, got, len, off) == (ssize_t)len && memcmp(got, want, len) == 0;
	free(got);
	return ok;
}

static uint64_t file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? UINT64_MAX : (uint64_t)st.st_size;
}

/* The job from src to dst by s; its result, said on stderr when not 0. */
static int run_copy(const struct copy_strategy *s, struct copy_job *job, int src, int dst,
		    const char *what)
{
	int ret;

	job->src_fd = src;
	job->dst_fd = dst;
	ret = s->copy(job);
	if (ret)
		fprintf(stderr, "%s: %s copy of %llu bytes: %s\n", s->name, what,
			(unsigned long long)job->len, strerror(-ret));
	return ret;
}

static void check_whole(const struct copy_strategy *s, const unsigned char *data,
			uint64_t size)
{
	struct copy_job job = { .len = size, .buffer_size = 64 * 1024 };
	int src = open_file("src", O_CREAT | O_TRUNC);
	int dst = open_file("dst", O_CREAT | O_TRUNC);

	CHECK(src >= 0 && dst >= 0);
	CHECK(write_at(src, data, size, 0) == 0);
	CHECK(run_copy(s, &job, src, dst, "whole") == 0);
	CHECK_EQ_U64(file_size(dst), size);
	CHECK(file_matches(dst, data, size, 0));
	close(dst);
	close(src);
}

static void check_range(const struct copy_strategy *s, const unsigned char *data,
			uint64_t size, const unsigned char *fill)
{
	struct copy_job job = {
		.src_off = RANGE_SRC_OFF, .dst_off = RANGE_DST_OFF, .len = size,
		.buffer_size = 64 * 1024,
	};
	uint64_t dst_size = RANGE_DST_OFF + size + RANGE_TAIL;
	int src = open_file("src", O_CREAT | O_TRUNC);
	int dst = open_file("dst", O_CREAT | O_TRUNC);

	CHECK(src >= 0 && dst >= 0);
	CHECK(write_at(src, data, RANGE_SRC_OFF + size, 0) == 0);
	CHECK(write_at(dst, fill, dst_size, 0) == 0);
	if ((s->flags & STRATEGY_SHARES_EXTENTS) && size) {
		job.src_fd = src;
		job.dst_fd = dst;
		/* extents are shared in whole blocks: odd offsets are refused */
		CHECK(s->copy(&job) == -EINVAL);
		goto out_close;
	}
	CHECK(run_copy(s, &job, src, dst, "range") == 0);
	CHECK_EQ_U64(file_size(dst), dst_size);
	CHECK(file_matches(dst, fill, RANGE_DST_OFF, 0));
	CHECK(file_matches(dst, data + RANGE_SRC_OFF, size, RANGE_DST_OFF));
	CHECK(file_matches(dst, fill, RANGE_TAIL, RANGE_DST_OFF + size));
out_close:
	close(dst);
	close(src);
}

/* A short range at offsets past 4 GiB, in sparse files. */
static void check_far_range(const struct copy_strategy *s, const unsigned char *data)
{
	struct copy_job job = {
		.src_off = FAR_SRC_OFF, .dst_off = FAR_DST_OFF, .len = FAR_LEN,
		.buffer_size = 64 * 1024,
	};
	int src = open_file("src", O_CREAT | O_TRUNC);
	int dst = open_file("dst", O_CREAT | O_TRUNC);

	CHECK(src >= 0 && dst >= 0);
	CHECK(write_at(src, data, FAR_LEN, FAR_SRC_OFF) == 0);
	CHECK(run_copy(s, &job, src, dst, "beyond-4-GiB range") == 0);
	CHECK_EQ_U64(file_size(dst), FAR_DST_OFF + FAR_LEN);
	CHECK(file_matches(dst, data, FAR_LEN, FAR_DST_OFF));
	close(dst);
	close(src);
}

static void check_strategy(const struct copy_strategy *s, const unsigned char *data,
			   const unsigned char *fill)
{
	char why[256];

	if (strategy_probe(s, test_tmpdir(), why, sizeof(why))) {
		printf("skip %s: %s\n", s->name, why);
		return;
	}
	printf("test %s\n", s->name);
	for (size_t i = 0; i < sizeof(test_sizes) / sizeof(test_sizes[0]); i++) {
		check_whole(s, data, test_sizes[i]);
		if (s->flags & STRATEGY_RANGE)
			check_range(s, data, test_sizes[i], fill);
	}
	if ((s->flags & STRATEGY_RANGE) && !(s->flags & STRATEGY_SHARES_EXTENTS))
		check_far_range(s, data);
}

/* full-buffer refuses a range larger than its RAM budget, and copies none. */
static void check_full_buffer_budget(const unsigned char *data)
{
	const struct copy_strategy *s = strategy_find("full-buffer");
	struct copy_job job = { .len = 4097 };
	int src = open_file("src", O_CREAT | O_TRUNC);
	int dst = open_file("dst", O_CREAT | O_TRUNC);

	CHECK(s != NULL);
	CHECK(src >= 0 && dst >= 0);
	if (!s || src < 0 || dst < 0)
		goto out_close;
	CHECK(write_at(src, data, 4097, 0) == 0);
	job.src_fd = src;
	job.dst_fd = dst;
	setenv("COPYBENCH_RAM_BUDGET", "4096", 1);
	CHECK(s->copy(&job) == -EFBIG);
	CHECK_EQ_U64(file_size(dst), 0);
	job.len = 4096;
	CHECK(s->copy(&job) == 0);
	CHECK(file_matches(dst, data, 4096, 0));
	unsetenv("COPYBENCH_RAM_BUDGET");
out_close:
	if (dst >= 0)
		close(dst);
	if (src >= 0)
		close(src);
}

int main(void)
{
	size_t max = RANGE_SRC_OFF + (3u << 20) + 7 + RANGE_DST_OFF + RANGE_TAIL;
	unsigned char *data = malloc(max), *fill = malloc(max);
	int rc;

	if (!data || !fill) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	fill_pattern(data, max, 1);
	memset(fill, 0xAA, max);
	for (size_t i = 0; i < strategy_count; i++)
		if (!(strategy_table[i]->flags & STRATEGY_TEST_ONLY))
			check_strategy(strategy_table[i], data, fill);
	check_full_buffer_budget(data);

	rc = test_report("strategy_copy_exact_sizes");
	test_cleanup_dir();
	free(fill);
	free(data);
	return rc;
}
