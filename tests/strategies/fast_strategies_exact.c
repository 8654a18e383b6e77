// SPDX-License-Identifier: MIT
/*
 * fast_strategies_exact.c - splice, io_uring, parallel and direct copy
 * byte-exact: whole files and ranges at odd offsets, every size edge, a
 * range of buffer sizes, queue depths and thread counts; ranges beyond
 * 4 GiB; a source shorter than len gives -ENODATA. Strategies whose probe
 * refuses this directory are skipped with the reason printed.
 */
#include "lib/fileio.h"
#include "strategies/strategy.h"
#include "support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RANGE_SRC_OFF	4097u
#define RANGE_DST_OFF	123u
#define RANGE_TAIL	4096u	/* 0xAA bytes after the range in dst */
#define FILL		0xAA

static const uint64_t sizes[] = {
	0, 1, 4095, 4096, 4097, (1u << 20) + 13, (5u << 20) + 3,
};
static const size_t buffers[] = { 4096, 64 * 1024, 1 << 20 };
static const unsigned depths[] = { 1, 4, 32 };
static const unsigned threads[] = { 1, 2, 3 };

static char src_path[512], dst_path[512];

/* Deterministic pseudo-random bytes: byte i of the pattern at any offset. */
static void pattern_fill(unsigned char *p, uint64_t len, uint64_t start)
{
	for (uint64_t i = 0; i < len; i++) {
		uint64_t x = (start + i) * 0x9E3779B97F4A7C15ull;

		x ^= x >> 29;
		x *= 0xBF58476D1CE4E5B9ull;
		p[i] = (unsigned char)(x >> 56);
	}
}

static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return -errno;
	if (len && full_pwrite(fd, buf, len, 0)) {
		close(fd);
		return -EIO;
	}
	close(fd);
	return 0;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY);
	off_t end;
	unsigned char *buf;

	if (fd < 0)
		return NULL;
	end = lseek(fd, 0, SEEK_END);
	buf = malloc(end > 0 ? (size_t)end : 1);
	if (buf && full_pread(fd, buf, (size_t)end, 0) != (ssize_t)end) {
		free(buf);
		buf = NULL;
	}
	*len = (size_t)end;
	close(fd);
	return buf;
}

/* Runs one copy the way the harness does: fds, paths, offsets. */
static int run_copy(const struct copy_strategy *s, struct copy_job job,
		    int dst_flags)
{
	int ret;

	job.src_fd = open(src_path, O_RDONLY);
	job.dst_fd = open(dst_path, O_WRONLY | O_CREAT | dst_flags, 0644);
	if (job.src_fd < 0 || job.dst_fd < 0)
		return -errno;
	ret = s->copy(&job);
	/* The descriptors' file offsets are left alone. */
	CHECK_EQ_U64(lseek(job.src_fd, 0, SEEK_CUR), 0);
	CHECK_EQ_U64(lseek(job.dst_fd, 0, SEEK_CUR), 0);
	close(job.src_fd);
	close(job.dst_fd);
	return ret;
}

static bool bytes_all(const unsigned char *p, size_t len, unsigned char v)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void check_whole(const struct copy_strategy *s, struct copy_job job,
			const unsigned char *pat, uint64_t size)
{
	unsigned char *out;
	size_t got;

	job.src_off = 0;
	job.dst_off = 0;
	job.len = size;
	CHECK(write_file(src_path, pat + RANGE_SRC_OFF, size) == 0);
	CHECK_EQ_U64(run_copy(s, job, O_TRUNC), 0);
	out = read_file(dst_path, &got);
	CHECK(out != NULL);
	if (!out)
		return;
	CHECK_EQ_U64(got, size);
	if (got == size && size && memcmp(out, pat + RANGE_SRC_OFF, size)) {
		fprintf(stderr, "%s: whole copy of %llu bytes differs (buffer %zu, depth %u, threads %u)\n",
			s->name, (unsigned long long)size, job.buffer_size,
			job.queue_depth, job.threads);
		CHECK(0);
	}
	free(out);
}

static void check_range(const struct copy_strategy *s, struct copy_job job,
			const unsigned char *pat, uint64_t size)
{
	size_t dlen = RANGE_DST_OFF + size + RANGE_TAIL, got;
	unsigned char *fill = malloc(dlen), *out;

	CHECK(fill != NULL);
	if (!fill)
		return;
	memset(fill, FILL, dlen);
	CHECK(write_file(src_path, pat, RANGE_SRC_OFF + size) == 0);
	CHECK(write_file(dst_path, fill, dlen) == 0);
	job.src_off = RANGE_SRC_OFF;
	job.dst_off = RANGE_DST_OFF;
	job.len = size;
	CHECK_EQ_U64(run_copy(s, job, 0), 0);
	out = read_file(dst_path, &got);
	CHECK(out != NULL);
	if (out) {
		CHECK_EQ_U64(got, dlen);
		if (got == dlen) {
			CHECK(bytes_all(out, RANGE_DST_OFF, FILL));
			CHECK(memcmp(out + RANGE_DST_OFF, pat + RANGE_SRC_OFF, size) == 0);
			CHECK(bytes_all(out + RANGE_DST_OFF + size, RANGE_TAIL, FILL));
		}
		free(out);
	}
	free(fill);
}

/* The parameter grid of one strategy: buffer x (depth | threads). */
static void check_strategy(const struct copy_strategy *s,
			   const unsigned char *pat)
{
	bool uring = strcmp(s->name, "io_uring") == 0;
	bool par = strcmp(s->name, "parallel") == 0;
	size_t nvar = uring || par ? 3 : 1;

	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++)
		for (size_t b = 0; b < sizeof(buffers) / sizeof(buffers[0]); b++)
			for (size_t v = 0; v < nvar; v++) {
				struct copy_job job = { .buffer_size = buffers[b] };

				if (uring)
					job.queue_depth = depths[v];
				if (par)
					job.threads = threads[v];
				check_whole(s, job, pat, sizes[z]);
				check_range(s, job, pat, sizes[z]);
			}
}

/* A range that starts beyond 4 GiB in both (sparse) files. */
static void check_large_offsets(const struct copy_strategy *s,
				uint64_t src_off, uint64_t dst_off)
{
	uint64_t len = (1u << 20) + 13;
	unsigned char *pat = malloc(len), *out = malloc(len);
	struct copy_job job = {
		.src_off = src_off, .dst_off = dst_off, .len = len,
		.buffer_size = 64 * 1024, .queue_depth = 4, .threads = 2,
	};
	int fd;

	CHECK(pat && out);
	if (!pat || !out)
		goto out_free;
	pattern_fill(pat, len, src_off);
	fd = open(src_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && full_pwrite(fd, pat, len, src_off) == 0);
	close(fd);
	CHECK_EQ_U64(run_copy(s, job, O_TRUNC), 0);
	fd = open(dst_path, O_RDONLY);
	CHECK_EQ_U64(full_pread(fd, out, len, dst_off), len);
	CHECK_EQ_U64(lseek(fd, 0, SEEK_END), dst_off + len);
	CHECK(memcmp(out, pat, len) == 0);
	close(fd);
out_free:
	free(pat);
	free(out);
}

/* A source shorter than len must give -ENODATA, not a silent short copy. */
static void check_short_source(const struct copy_strategy *s,
			       const unsigned char *pat)
{
	struct copy_job job = { .len = 3 * 4096, .buffer_size = 4096,
				.queue_depth = 4, .threads = 2 };

	CHECK(write_file(src_path, pat, 1000) == 0);
	CHECK_EQ_U64(run_copy(s, job, O_TRUNC), -ENODATA);
}

int main(void)
{
	static const char *const names[] = { "splice", "io_uring", "parallel", "direct" };
	const char *dir = test_tmpdir();
	size_t max = RANGE_SRC_OFF + (5u << 20) + 3;
	unsigned char *pat = malloc(max);
	int ran = 0, ret;

	if (!pat)
		return 1;
	pattern_fill(pat, max, 0);
	snprintf(src_path, sizeof(src_path), "%s/src", dir);
	snprintf(dst_path, sizeof(dst_path), "%s/dst", dir);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct copy_strategy *s = strategy_find(names[i]);
		char why[256];

		CHECK(s != NULL);
		if (!s)
			continue;
		if (strategy_probe(s, dir, why, sizeof(why))) {
			printf("%s: skipped, unavailable here: %s\n", s->name, why);
			continue;
		}
		check_strategy(s, pat);
		check_large_offsets(s, (5ull << 30) + 4097, (4ull << 30) + 123);
		check_large_offsets(s, 5ull << 30, 4ull << 30);
		check_short_source(s, pat);
		ran++;
	}
	free(pat);
	test_cleanup_dir();
	if (!ran) {
		printf("fast_strategies_exact: skipped, no strategy available\n");
		return 77;
	}
	ret = test_report("fast_strategies_exact");
	return ret;
}
