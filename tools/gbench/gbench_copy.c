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
#include "dataset.h"
#include "strategy.h"
#include "syscount.h"
#include "units.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* Writes the random dataset of size bytes to path unless it is there. */
static int gcopy_ensure_source(const char *path, uint64_t size)
{
	struct stat st;
	uint64_t hash;

	if (stat(path, &st) == 0 && (uint64_t)st.st_size == size)
		return 0;
	return dataset_generate(DATASET_RANDOM, size, 1, path, &hash);
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
	c->dst_fd = open(c->dst, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
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

/*
 * One more copy, untimed, in a child whose system calls are counted exactly
 * as bench counts them (perf counters or ptrace): the "syscalls" counter.
 */
static int gcopy_count_syscalls(void *arg, uint64_t *count)
{
	struct gcopy_case *c = arg;
	struct syscount_session *s;
	struct syscount got = { 0 }, traced = { 0 };
	char why[160], msg[256];
	int fds[2], status = 0, err = -ECHILD;
	pid_t pid;

	if (syscount_session_new(&s, SYSCOUNT_AUTO, why, sizeof(why)) || !s)
		return -ENOTSUP;
	if (pipe(fds))
		goto out_free_session;
	pid = syscount_fork(s);
	if (pid == 0) {
		close(fds[0]);
		if (gcopy_setup(c, msg, sizeof(msg)))
			_exit(1);
		syscount_begin(s);
		err = gcopy_run(c, msg, sizeof(msg));
		syscount_end(s, &got);
		gcopy_teardown(c);
		_exit(write(fds[1], &got, sizeof(got)) == (ssize_t)sizeof(got) && !err ? 0 : 1);
	}
	close(fds[1]);
	if (pid > 0 && syscount_wait(s, pid, &status, NULL, &traced) == 0 &&
	    read(fds[0], &got, sizeof(got)) == (ssize_t)sizeof(got) &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		if (strcmp(syscount_session_method(s), "ptrace") == 0)
			got = traced;
		err = got.valid ? 0 : -ENOTSUP;
		*count = got.total;
	}
	close(fds[0]);
out_free_session:
	syscount_session_free(s);
	return err;
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
		.count_syscalls = gcopy_count_syscalls,
	};

	format_size(c->size, size, sizeof(size));
	if (c->buffer)
		format_size(c->buffer, buf, sizeof(buf));
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
		format_size(gcopy_sizes[i], size, sizeof(size));
		snprintf(path, sizeof(path), "%s/src-%s", gcopy_dir, size);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/dst", gcopy_dir);
	unlink(path);
	rmdir(gcopy_dir);
	free(gcopy_cases);
	gcopy_cases = NULL;
}
