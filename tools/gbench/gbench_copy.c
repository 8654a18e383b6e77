// SPDX-License-Identifier: MIT
/*
 * gbench_copy.c - registers copybench's copy strategies with Google Benchmark
 * through gbench.h: every available strategy x a few sizes x warm and cold
 * cache, with the knobs bench uses when given none (the strategy's default
 * buffer, bench's queue depth and thread count), named
 * copy/<strategy>/size:<size>/<cache>. Buffered strategies also get the
 * buffer sweep, a dimension of its own in the name:
 * copy/<strategy>/size:<size>/buffer:<buffer>/<cache>.
 *
 * Per iteration, outside the clock: the source is brought into the cache
 * state with cache_set() (a state it cannot reach makes the case unavailable:
 * tmpfs cannot evict) and a fresh destination is created. Inside the clock:
 * the strategy's copy() alone, as in the copy workload. Outside again: the
 * destination's XXH3 is checked against the source's, as bench verifies
 * every run. Source files are written on first use, so listing the
 * benchmarks writes nothing big.
 */
#include "gbench.h"

#include "datasets/dataset.h"
#include "host/cache.h"
#include "lib/units.h"
#include "options/options.h"
#include "strategies/strategy.h"
#include "syscount/syscount.h"
#include "workloads/workload.h"

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
/* The buffer sweep of buffered strategies, beside their default buffer. */
static const size_t gcopy_sweep[] = { 8u << 10, 64u << 10, 4u << 20 };
static const enum cache_mode gcopy_caches[] = { CACHE_WARM, CACHE_COLD };

#define GCOPY_NSIZES (sizeof(gcopy_sizes) / sizeof(gcopy_sizes[0]))
#define GCOPY_NSWEEP (sizeof(gcopy_sweep) / sizeof(gcopy_sweep[0]))
#define GCOPY_NCACHES (sizeof(gcopy_caches) / sizeof(gcopy_caches[0]))

/* One source file per size, shared by the cases of that size. */
struct gcopy_source {
	uint64_t size;
	uint64_t hash;		/* XXH3-64 of the content, once written */
	bool written;
	char path[PATH_MAX];
};

struct gcopy_case {
	const struct copy_strategy *strategy;
	struct gcopy_source *src;
	size_t buffer;		/* 0 for strategies that take none */
	unsigned queue_depth;	/* as bench passes them: 0 is the strategy's own */
	unsigned threads;
	enum cache_mode cache;
	bool counted;		/* syscalls counted once per case */
	int count_err;
	uint64_t syscalls;
	int src_fd;
	int dst_fd;
	char dst[PATH_MAX];
};

static char gcopy_dir[PATH_MAX - 64];	/* room for "/src-64M" */
static gbench_register_fn gcopy_reg;	/* bench_gbench.cc's registration */
static struct gcopy_source gcopy_sources[GCOPY_NSIZES];
static struct gcopy_case *gcopy_cases;
static size_t gcopy_ncases;

/* Writes the random dataset of src->size bytes and keeps its hash. */
static int gcopy_ensure_source(struct gcopy_source *src)
{
	int err;

	if (src->written)
		return 0;
	err = dataset_generate(DATASET_RANDOM, src->size, 1, src->path, &src->hash);
	src->written = !err;
	return err;
}

/* An error as gbench.h reports a failure: -EAGAIN there means unavailable. */
static int gcopy_failure(int err)
{
	return err == -EAGAIN ? -EIO : err;
}

/* A cache state the source cannot reach: the case is unavailable here. */
static int gcopy_unavailable(const struct gcopy_case *c, double pct, char *msg, size_t n)
{
	if (c->cache == CACHE_COLD)
		snprintf(msg, n, "unavailable: cannot evict the source from the page cache (%.0f%% resident after POSIX_FADV_DONTNEED, as on tmpfs)",
			 pct);
	else
		snprintf(msg, n, "unavailable: cannot keep the source in the page cache (%.0f%% resident after reading it)",
			 pct);
	return -EAGAIN;
}

static int gcopy_setup(void *arg, char *msg, size_t n)
{
	struct gcopy_case *c = arg;
	double pct;
	int err;

	err = gcopy_ensure_source(c->src);
	if (!err)
		err = cache_set(c->src->path, c->cache, false, &pct);
	if (err) {
		snprintf(msg, n, "preparing %s: %s", c->src->path, strerror(-err));
		return gcopy_failure(err);
	}
	if (!cache_state_ok(c->cache, pct))
		return gcopy_unavailable(c, pct, msg, n);
	c->src_fd = open(c->src->path, O_RDONLY | O_CLOEXEC);
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
		.len = c->src->size,
		.buffer_size = c->buffer,
		.queue_depth = c->queue_depth,
		.threads = c->threads,
	};
	int err = c->strategy->copy(&job);

	if (err)
		snprintf(msg, n, "%s: %s", c->strategy->name, strerror(-err));
	return gcopy_failure(err);
}

/* Verifies the copy byte for byte (unless it failed) and removes it. */
static int gcopy_teardown(void *arg, bool run_failed, char *msg, size_t n)
{
	struct gcopy_case *c = arg;
	char why[256];
	int err = 0;

	close(c->dst_fd);
	close(c->src_fd);
	if (!run_failed) {
		err = workload_verify_file_hash(c->dst, c->src->size, c->src->hash, why, sizeof(why));
		if (err)
			snprintf(msg, n, "verification failed: %s", why);
	}
	unlink(c->dst);
	return gcopy_failure(err);
}

/*
 * One more copy, untimed, in a child whose system calls are counted exactly
 * as bench counts them (perf counters or ptrace). Timed iterations are never
 * counted: counting slows every call down.
 */
static int gcopy_count_once(struct gcopy_case *c, uint64_t *count)
{
	struct syscount_session *s;
	struct syscount got = { 0 }, traced = { 0 };
	char why[160], msg[512];
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
		if (!err)
			err = gcopy_teardown(c, false, msg, sizeof(msg));
		else
			gcopy_teardown(c, true, NULL, 0);
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

/* The "syscalls" counter: Google Benchmark runs a case's loop several times
 * (to pick an iteration count, per repetition); the copy is counted once. */
static int gcopy_count_syscalls(void *arg, uint64_t *count)
{
	struct gcopy_case *c = arg;

	if (!c->counted) {
		c->count_err = gcopy_count_once(c, &c->syscalls);
		c->counted = true;
	}
	*count = c->syscalls;
	return c->count_err;
}

static int gcopy_register(struct gcopy_case *c, bool sweep)
{
	char name[256], knobs[128], size[32], buf[32] = "";
	struct gbench_case g = {
		.name = name,
		.knobs = knobs,
		.bytes = c->src->size,
		.arg = c,
		.setup = gcopy_setup,
		.run = gcopy_run,
		.teardown = gcopy_teardown,
		.count_syscalls = gcopy_count_syscalls,
	};

	format_size(c->src->size, size, sizeof(size));
	if (sweep)
		format_size(c->buffer, buf, sizeof(buf));
	snprintf(name, sizeof(name), "copy/%s/size:%s%s%s/%s", c->strategy->name, size,
		 sweep ? "/buffer:" : "", buf, cache_mode_name(c->cache));
	snprintf(knobs, sizeof(knobs), "buffer=%zu queue_depth=%u threads=%u",
		 c->buffer, c->queue_depth, c->threads);
	snprintf(c->dst, sizeof(c->dst), "%s/dst", gcopy_dir);
	return gcopy_reg(&g);
}

/*
 * Adds the cases of one strategy: sizes x buffers x caches, where the buffers
 * are the one bench uses by default (none for unbuffered strategies) and then
 * the sweep. Queue depth and threads are bench's.
 */
static int gcopy_add_strategy(const struct copy_strategy *s, const struct bench_opts *o)
{
	bool buffered = s->flags & STRATEGY_BUFFERED;
	size_t nbuf = buffered ? 1 + GCOPY_NSWEEP : 1;

	for (size_t i = 0; i < GCOPY_NSIZES; i++)
		for (size_t b = 0; b < nbuf; b++)
			for (size_t k = 0; k < GCOPY_NCACHES; k++) {
				struct gcopy_case *c = &gcopy_cases[gcopy_ncases++];
				int err;

				c->strategy = s;
				c->src = &gcopy_sources[i];
				c->buffer = !buffered ? 0 : b ? gcopy_sweep[b - 1]
							      : strategy_default_buffer(s);
				c->queue_depth = o->queue_depth;
				c->threads = o->threads;
				c->cache = gcopy_caches[k];
				err = gcopy_register(c, b > 0);
				if (err)
					return err;
			}
	return 0;
}

/* bench's knobs when it is given none: its own parser on an empty command
 * line, so that the two cannot drift apart. */
static int gcopy_bench_defaults(struct bench_opts *o)
{
	char name[] = "bench";
	char *argv[] = { name, NULL };

	return options_parse(1, argv, o) ? -EINVAL : 0;
}

/* Names the source file of every size in the new directory. */
static void gcopy_name_sources(void)
{
	char size[32];

	for (size_t i = 0; i < GCOPY_NSIZES; i++) {
		struct gcopy_source *src = &gcopy_sources[i];

		format_size(gcopy_sizes[i], size, sizeof(size));
		src->size = gcopy_sizes[i];
		snprintf(src->path, sizeof(src->path), "%s/src-%s", gcopy_dir, size);
	}
}

int gbench_copy_register_all(const char *dir, bool test_only, gbench_register_fn reg)
{
	size_t max = strategy_count * GCOPY_NSIZES * (1 + GCOPY_NSWEEP) * GCOPY_NCACHES;
	struct bench_opts o;
	char why[256];
	int err = 0;

	if (snprintf(gcopy_dir, sizeof(gcopy_dir), "%s/bench_gbench-XXXXXX", dir) >=
	    (int)sizeof(gcopy_dir) || !mkdtemp(gcopy_dir)) {
		gcopy_dir[0] = '\0';
		return errno ? -errno : -ENAMETOOLONG;
	}
	gcopy_reg = reg;
	gcopy_name_sources();
	err = gcopy_bench_defaults(&o);
	if (err)
		return err;
	gcopy_cases = calloc(max ? max : 1, sizeof(*gcopy_cases));
	if (!gcopy_cases)
		return -ENOMEM;
	for (size_t i = 0; i < strategy_count && !err; i++) {
		const struct copy_strategy *s = strategy_table[i];

		if ((s->flags & STRATEGY_TEST_ONLY) && !test_only)
			continue;
		if (strategy_probe(s, gcopy_dir, why, sizeof(why))) {
			fprintf(stderr, "bench_gbench: %s unavailable: %s\n", s->name, why);
			continue;
		}
		err = gcopy_add_strategy(s, &o);
	}
	return err;
}

void gbench_copy_cleanup(void)
{
	char path[PATH_MAX];

	if (!gcopy_dir[0])
		return;
	for (size_t i = 0; i < GCOPY_NSIZES; i++)
		unlink(gcopy_sources[i].path);
	snprintf(path, sizeof(path), "%s/dst", gcopy_dir);
	unlink(path);
	rmdir(gcopy_dir);
	free(gcopy_cases);
	gcopy_cases = NULL;
}
