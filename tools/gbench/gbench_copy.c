// SPDX-License-Identifier: MIT
/*
 * gbench_copy.c - registers copybench's copy strategies with Google Benchmark
 * through gbench.h: every available strategy x a few sizes x (for buffered
 * strategies) the 8K / 64K / 4M buffers x warm and cold cache.
 *
 * Per iteration, outside the clock: the source is brought into the cache
 * state with cache_set() and a fresh destination is created. Inside the
 * clock: the strategy's copy() alone, as in the copy workload. Source files
 * are written on first use, so listing the benchmarks writes nothing big.
 */
#include "gbench.h"

#include "cache.h"
#include "strategy.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const uint64_t gcopy_sizes[] = { 1ull << 20, 16ull << 20, 64ull << 20 };
static const size_t gcopy_buffers[] = { 8u << 10, 64u << 10, 4u << 20 };
static const enum cache_mode gcopy_caches[] = { CACHE_WARM, CACHE_COLD };

#define GCOPY_NSIZES (sizeof(gcopy_sizes) / sizeof(gcopy_sizes[0]))
#define GCOPY_NBUFFERS (sizeof(gcopy_buffers) / sizeof(gcopy_buffers[0]))
#define GCOPY_NCACHES (sizeof(gcopy_caches) / sizeof(gcopy_caches[0]))
#define GCOPY_CHUNK (1u << 20)

struct gcopy_case {
	const struct copy_strategy *strategy;
	uint64_t size;
	size_t buffer;		/* 0 for strategies that take none */
	enum cache_mode cache;
	int src_fd;
	int dst_fd;
	char src[PATH_MAX];
	char dst[PATH_MAX];
};

static char gcopy_dir[PATH_MAX - 64];	/* room for "/src-64M" */
static struct gcopy_case *gcopy_cases;
static size_t gcopy_ncases;

/* "64M", "8K" */
static void gcopy_size_name(uint64_t b, char *out, size_t n)
{
	if (b % (1u << 20) == 0)
		snprintf(out, n, "%lluM", (unsigned long long)(b >> 20));
	else
		snprintf(out, n, "%lluK", (unsigned long long)(b >> 10));
}

/* Writes size incompressible bytes to path unless it already has them. */
static int gcopy_ensure_source(const char *path, uint64_t size)
{
	uint64_t x = 0x9e3779b97f4a7c15ull ^ size, done = 0;
	struct stat st;
	uint64_t *buf;
	int fd, err = 0;

	if (stat(path, &st) == 0 && (uint64_t)st.st_size == size)
		return 0;
	buf = malloc(GCOPY_CHUNK);
	if (!buf)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		goto out_free_buf;
	}
	while (!err && done < size) {
		size_t len = size - done < GCOPY_CHUNK ? (size_t)(size - done) : GCOPY_CHUNK;

		for (size_t i = 0; i < GCOPY_CHUNK / sizeof(*buf); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		err = full_pwrite(fd, buf, len, done);
		done += len;
	}
	if (close(fd) && !err)
		err = -errno;
	if (err)
		unlink(path);
out_free_buf:
	free(buf);
	return err;
}

static int gcopy_setup(void *arg, char *msg, size_t n)
{
	struct gcopy_case *c = arg;
	double pct;
	int err;

	err = gcopy_ensure_source(c->src, c->size);
	if (!err)
		err = cache_set(c->src, c->cache, false, &pct);
	if (err) {
		snprintf(msg, n, "preparing %s: %s", c->src, strerror(-err));
		return err;
	}
	c->src_fd = open(c->src, O_RDONLY | O_CLOEXEC);
	if (c->src_fd < 0)
		goto out_error;
	unlink(c->dst);
	c->dst_fd = open(c->dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (c->dst_fd >= 0)
		return 0;
	close(c->src_fd);
out_error:
	err = -errno;
	snprintf(msg, n, "opening the files: %s", strerror(errno));
	return err;
}

static int gcopy_run(void *arg, char *msg, size_t n)
{
	struct gcopy_case *c = arg;
	struct copy_job job = {
		.src_fd = c->src_fd,
		.dst_fd = c->dst_fd,
		.len = c->size,
		.buffer_size = c->buffer,
		.queue_depth = 32,
		.threads = 2,
		.src_path = c->src,
		.dst_path = c->dst,
	};
	int err = c->strategy->copy(&job);

	if (err)
		snprintf(msg, n, "%s: %s", c->strategy->name, strerror(-err));
	return err;
}

static void gcopy_teardown(void *arg)
{
	struct gcopy_case *c = arg;

	close(c->dst_fd);
	close(c->src_fd);
	unlink(c->dst);
}

static int gcopy_register(struct gcopy_case *c)
{
	char name[256], size[32], buf[32] = "";
	struct gbench_case g = {
		.name = name,
		.bytes = c->size,
		.arg = c,
		.setup = gcopy_setup,
		.run = gcopy_run,
		.teardown = gcopy_teardown,
		/*
		 * SYSCOUNT: when harness/syscount.h is implemented, count one
		 * untimed copy here (syscount_fork/begin/end/wait around
		 * gcopy_setup + gcopy_run + gcopy_teardown) and report the
		 * total through this callback as the "syscalls" counter.
		 */
		.count_syscalls = NULL,
	};

	gcopy_size_name(c->size, size, sizeof(size));
	if (c->buffer)
		gcopy_size_name(c->buffer, buf, sizeof(buf));
	snprintf(name, sizeof(name), "copy/%s/size:%s%s%s/%s", c->strategy->name, size,
		 c->buffer ? "/buffer:" : "", buf, cache_mode_name(c->cache));
	snprintf(c->src, sizeof(c->src), "%s/src-%s", gcopy_dir, size);
	snprintf(c->dst, sizeof(c->dst), "%s/dst", gcopy_dir);
	return gbench_register(&g);
}

/* Adds the cases of one strategy: sizes x buffers x caches. */
static int gcopy_add_strategy(const struct copy_strategy *s)
{
	size_t nbuf = s->flags & STRATEGY_BUFFERED ? GCOPY_NBUFFERS : 1;

	for (size_t i = 0; i < GCOPY_NSIZES; i++)
		for (size_t b = 0; b < nbuf; b++)
			for (size_t k = 0; k < GCOPY_NCACHES; k++) {
				struct gcopy_case *c = &gcopy_cases[gcopy_ncases++];
				int err;

				c->strategy = s;
				c->size = gcopy_sizes[i];
				c->buffer = s->flags & STRATEGY_BUFFERED ? gcopy_buffers[b] : 0;
				c->cache = gcopy_caches[k];
				err = gcopy_register(c);
				if (err)
					return err;
			}
	return 0;
}

int gbench_copy_register_all(const char *dir)
{
	size_t max = strategy_count * GCOPY_NSIZES * GCOPY_NBUFFERS * GCOPY_NCACHES;
	char why[256];
	int err = 0;

	if (snprintf(gcopy_dir, sizeof(gcopy_dir), "%s/bench_gbench-XXXXXX", dir) >=
	    (int)sizeof(gcopy_dir) || !mkdtemp(gcopy_dir)) {
		gcopy_dir[0] = '\0';
		return errno ? -errno : -ENAMETOOLONG;
	}
	gcopy_cases = calloc(max ? max : 1, sizeof(*gcopy_cases));
	if (!gcopy_cases)
		return -ENOMEM;
	for (size_t i = 0; i < strategy_count && !err; i++) {
		const struct copy_strategy *s = strategy_table[i];

		if (s->flags & STRATEGY_TEST_ONLY)
			continue;
		if (strategy_probe(s, gcopy_dir, why, sizeof(why))) {
			fprintf(stderr, "bench_gbench: %s unavailable: %s\n", s->name, why);
			continue;
		}
		err = gcopy_add_strategy(s);
	}
	return err;
}

void gbench_copy_cleanup(void)
{
	char path[PATH_MAX], size[32];

	if (!gcopy_dir[0])
		return;
	for (size_t i = 0; i < GCOPY_NSIZES; i++) {
		gcopy_size_name(gcopy_sizes[i], size, sizeof(size));
		snprintf(path, sizeof(path), "%s/src-%s", gcopy_dir, size);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/dst", gcopy_dir);
	unlink(path);
	rmdir(gcopy_dir);
	free(gcopy_cases);
	gcopy_cases = NULL;
}
