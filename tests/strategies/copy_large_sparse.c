// SPDX-License-Identifier: MIT
/*
 * copy_large_sparse.c - every strategy that can take it copies a file larger
 * than 4 GiB exactly: offsets and lengths past 2 GiB and 4 GiB are where
 * 32-bit counters, int return values and per-call limits go wrong.
 *
 * The source is cheap to make: ftruncate to 4 GiB + 1 MiB + 13 bytes, then a
 * few small data islands around 0, 2 GiB, 4 GiB and the end. Each copy still
 * writes 4 GiB, so the test is labelled `large`. Strategies that hold the
 * whole file in memory or copy line by line are skipped with the reason, and
 * so are the names listed in COPYBENCH_SKIP (comma separated). Elapsed times
 * are printed for information only.
 */
#include "lib/fileio.h"
#include "support/copyutil.h"
#include "support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define LARGE_SIZE ((4ull << 30) + (1ull << 20) + 13)
#define LARGE_MIN_FREE (10ull << 30)
#define ISLAND_LEN 4096u

/* Offsets of the data islands: near 0, around 2 GiB and 4 GiB, the end. */
static const uint64_t island_offsets[] = {
	0,
	(2ull << 30) - ISLAND_LEN - 1,
	(2ull << 30) - 100,
	(2ull << 30) + 4096,
	(4ull << 30) - 100,
	(4ull << 30) + 12345,
	LARGE_SIZE - ISLAND_LEN,
};

static int make_source(const char *path)
{
	char buf[ISLAND_LEN];
	uint64_t x = 0x243f6a8885a308d3ull;
	int fd, ret = 0;

	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)LARGE_SIZE)) {
		ret = -errno;
		goto out_close;
	}
	for (size_t i = 0; i < sizeof(island_offsets) / sizeof(island_offsets[0]); i++) {
		for (size_t j = 0; j < sizeof(buf); j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[j] = (char)(x >> 24);
		}
		ret = full_pwrite(fd, buf, sizeof(buf), island_offsets[i]);
		if (ret)
			goto out_close;
	}
out_close:
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* 1 when name is an element of the comma list in COPYBENCH_SKIP. */
static int skipped_by_env(const char *name)
{
	const char *list = getenv("COPYBENCH_SKIP");
	size_t len = strlen(name);

	while (list && *list) {
		size_t item = strcspn(list, ",");

		if (item == len && strncmp(list, name, len) == 0)
			return 1;
		list += item;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* Why s should not take this test, or NULL when it should. */
static const char *skip_reason(const struct copy_strategy *s, char *why, size_t n)
{
	if (s->flags & STRATEGY_WHOLE_FILE)
		return "holds the whole file in memory, over the RAM budget at 4 GiB";
	if (s->flags & STRATEGY_NAIVE)
		return "a naive baseline, would take minutes at 4 GiB";
	if (skipped_by_env(s->name))
		return "listed in COPYBENCH_SKIP";
	if (strategy_probe(s, test_tmpdir(), why, n))
		return why;
	return NULL;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int hash_source(const char *src, uint64_t *hash)
{
	int fd = open(src, O_RDONLY);
	int ret;

	if (fd < 0)
		return -errno;
	ret = hash_fd_range(fd, 0, LARGE_SIZE, hash);
	close(fd);
	return ret;
}

static int run_all(const char *src, uint64_t hash)
{
	char dst[PATH_MAX], why[256], probe_why[256];
	unsigned ran = 0;

	for (size_t i = 0; i < strategy_count; i++) {
		const struct copy_strategy *s = strategy_table[i];
		const char *skip;
		double t0;
		int ret;

		if (s->flags & STRATEGY_TEST_ONLY)
			continue;
		skip = skip_reason(s, probe_why, sizeof(probe_why));
		if (skip) {
			printf("skip %s: %s\n", s->name, skip);
			continue;
		}
		snprintf(dst, sizeof(dst), "%s/dst-%s.dat", test_tmpdir(), s->name);
		t0 = now_seconds();
		ret = copyutil_copy_verify(s, src, dst, LARGE_SIZE, hash,
					   why, sizeof(why));
		if (ret)
			fprintf(stderr, "FAIL %s: %s\n", s->name, why);
		else
			printf("%s: exact, %.1f s including verification\n",
			       s->name, now_seconds() - t0);
		CHECK(ret == 0);
		unlink(dst);
		ran++;
	}
	return (int)ran;
}

int main(void)
{
	char src[PATH_MAX];
	struct statvfs vfs;
	uint64_t hash = 0;
	int rc;

	if (statvfs(test_tmpdir(), &vfs) == 0 &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < LARGE_MIN_FREE) {
		printf("skip: less than 10 GiB free in %s\n", test_tmpdir());
		test_cleanup_dir();
		return 77;
	}
	snprintf(src, sizeof(src), "%s/src-large.dat", test_tmpdir());
	rc = make_source(src);
	if (rc) {
		fprintf(stderr, "cannot make the sparse source: %s\n", strerror(-rc));
		test_cleanup_dir();
		return 1;
	}
	CHECK(hash_source(src, &hash) == 0);
	if (run_all(src, hash) == 0) {
		printf("skip: no strategy takes a 4 GiB copy here\n");
		test_cleanup_dir();
		return 77;
	}
	rc = test_report("copy_large_sparse");
	test_cleanup_dir();
	return rc;
}
