// SPDX-License-Identifier: MIT
/*
 * limit.c - the machine's limits, measured in the same run as the copies
 * so every figure can be read as a share of what the hardware allows:
 *   memcpy       one thread copies between two hot (pre-faulted) buffers of
 *                the source's size: the single-core memory bandwidth bound
 *                of any copy through user space;
 *   memcpy-mt    the same with one thread per CPU, each on its own slice.
 *                The threads are started, and each has written its own
 *                slices (faulted and in its caches), before the clock; the
 *                timed region only releases them (they spin on a flag) and
 *                waits for the last one. (Inside the clock, thread creation,
 *                the first touch of each stack and a slice that sits in
 *                another core's cache cost more than small slices save:
 *                docs/strategies.md.) On machines whose cores share one memory
 *                channel it stays close to the single-thread row: that is
 *                the bound, not a flaw of the row;
 *   device-read  a cold sequential O_DIRECT read of the source with 1 MiB
 *                requests: what the storage delivers, the bound of a
 *                cold-cache copy (disk filesystems only).
 * The memory rows move no file, so their verify() has nothing to check; the
 * device read checks the bytes it read against the dataset's hash.
 */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#define DEVICE_READ_BLOCK (1u << 20)

static const struct workload_variant limit_variants[] = {
	{ "memcpy", "one thread, memcpy between hot buffers", 0, LIMIT_MEMCPY },
	{ "memcpy-mt", "one thread per CPU, memcpy between hot buffers", 0, LIMIT_MEMCPY_MT },
	{ "device-read", "cold sequential O_DIRECT read of the source", VARIANT_COLD_ONLY, LIMIT_DEVICE },
	{ 0 },
};

#define MEMCPY_MAX_THREADS 256
#define LIMIT_SRC_BYTE 0x5a
#define LIMIT_DST_BYTE 0xa5

struct limit_state;

struct memcpy_slice {
	char *dst;
	const char *src;
	size_t len;
	struct limit_state *st;
};

struct limit_state {
	char *src, *dst;
	size_t len;
	uint64_t hash;		/* device-read: XXH3 of what was read */
	/* memcpy-mt: workers spin on `go`; slice 0 is the caller's */
	struct memcpy_slice slices[MEMCPY_MAX_THREADS];
	pthread_t tids[MEMCPY_MAX_THREADS];
	unsigned nthreads;	/* slices, the caller's included */
	unsigned started;	/* worker threads created */
	atomic_uint ready;	/* workers spinning on go */
	atomic_uint go;		/* 1: copy (or stop) now */
	atomic_uint finished;	/* workers done */
	atomic_bool stop;
};

static bool is_device_read(const struct case_spec *c)
{
	return strcmp(c->variant, "device-read") == 0;
}

static int limit_prepare(struct case_spec *c, char *why, size_t n)
{
	int fd;

	c->expect_hash = c->ds->hash;
	c->expect_size = c->ds->size;
	if (!is_device_read(c))
		return 0;
	fd = open(c->ds->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, n, "O_DIRECT reads are not supported here (%s)", strerror(errno));
		return -errno;
	}
	close(fd);
	return 0;
}

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Spins until *v reaches want; yields now and then so that a worker sharing
 * a CPU with the thread it waits for cannot starve it. */
static void spin_until(atomic_uint *v, unsigned want)
{
	for (unsigned i = 1; atomic_load_explicit(v, memory_order_acquire) < want; i++) {
		cpu_relax();
		if (i % 4096 == 0)
			sched_yield();
	}
}

/* A worker: warms its slices in its own caches (same bytes as setup wrote),
 * says it is ready, spins until released, copies its slice. */
static void *memcpy_worker(void *arg)
{
	struct memcpy_slice *sl = arg;
	struct limit_state *st = sl->st;

	memset((char *)sl->src, LIMIT_SRC_BYTE, sl->len);
	memset(sl->dst, LIMIT_DST_BYTE, sl->len);
	atomic_fetch_add_explicit(&st->ready, 1, memory_order_release);
	spin_until(&st->go, 1);
	if (!atomic_load(&st->stop))
		memcpy(sl->dst, sl->src, sl->len);
	atomic_fetch_add_explicit(&st->finished, 1, memory_order_release);
	return NULL;
}

static unsigned memcpy_nthreads(size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = ncpu > 0 && ncpu <= MEMCPY_MAX_THREADS ? (unsigned)ncpu : 1;

	/* at least a page per slice */
	while (n > 1 && len / n < 4096)
		n--;
	return n;
}

/*
 * Cuts the buffers into page-aligned slices and starts one thread for each
 * slice but the first; returns when every thread runs and spins on `go`, so
 * thread creation and the first touch of their stacks stay out of the clock.
 * Spinning, not a futex barrier: waking a sleeping thread costs tens of
 * microseconds, a visible share of an 8 MiB copy.
 */
static int memcpy_mt_setup(struct limit_state *st)
{
	unsigned n = memcpy_nthreads(st->len);
	size_t per = (st->len / n + 4095) & ~(size_t)4095, off = 0;

	for (unsigned i = 0; i < n; i++, off += per) {
		size_t left = off < st->len ? st->len - off : 0;

		st->slices[i] = (struct memcpy_slice){
			st->dst + off, st->src + off, left < per ? left : per, st,
		};
	}
	st->nthreads = n;
	for (unsigned i = 1; i < n; i++) {
		if (pthread_create(&st->tids[i], NULL, memcpy_worker, &st->slices[i]))
			return -EAGAIN;	/* teardown stops those started */
		st->started++;
	}
	spin_until(&st->ready, st->started);
	return 0;
}

/* Timed: release the workers, copy slice 0, wait for the slowest. */
static int memcpy_mt_run(struct limit_state *st)
{
	if (st->nthreads == 1) {
		memcpy(st->dst, st->src, st->len);
		return 0;
	}
	atomic_store_explicit(&st->go, 1, memory_order_release);
	memcpy(st->slices[0].dst, st->slices[0].src, st->slices[0].len);
	spin_until(&st->finished, st->started);
	return 0;
}

/* Workers never released (a failed setup) are released with stop set. */
static void memcpy_mt_teardown(struct limit_state *st)
{
	if (!atomic_load(&st->go)) {
		atomic_store(&st->stop, true);
		atomic_store_explicit(&st->go, 1, memory_order_release);
	}
	for (unsigned i = 1; i <= st->started; i++)
		pthread_join(st->tids[i], NULL);
}

/* Hot buffers: allocated and written before the clock starts. */
static int limit_setup(struct run_ctx *ctx)
{
	struct limit_state *st = calloc(1, sizeof(*st));
	size_t len = (size_t)ctx->c->size;

	if (!st)
		return -ENOMEM;
	ctx->state = st;
	st->len = len;
	if (is_device_read(ctx->c)) {
		ctx->src_fd = open(ctx->src, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (ctx->src_fd < 0)
			return -errno;
		st->src = aligned_alloc(4096, DEVICE_READ_BLOCK);
		return st->src ? 0 : -ENOMEM;
	}
	st->src = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	st->dst = mmap(NULL, len ? len : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (st->src == MAP_FAILED || st->dst == MAP_FAILED)
		return -ENOMEM;
	memset(st->src, LIMIT_SRC_BYTE, len);
	memset(st->dst, LIMIT_DST_BYTE, len);
	if (strcmp(ctx->c->variant, "memcpy-mt") == 0)
		return memcpy_mt_setup(st);
	return 0;
}

static int device_read(struct run_ctx *ctx, struct limit_state *st)
{
	XXH3_state_t *h = XXH3_createState();
	uint64_t off = 0;
	int err = 0;

	if (!h)
		return -ENOMEM;
	XXH3_64bits_reset(h);
	while (off < st->len) {
		ssize_t n = pread(ctx->src_fd, st->src, DEVICE_READ_BLOCK, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -ENODATA;
			break;
		}
		XXH3_64bits_update(h, st->src, (size_t)n);
		off += (uint64_t)n;
	}
	st->hash = XXH3_64bits_digest(h);
	XXH3_freeState(h);
	return err;
}

static int limit_run(struct run_ctx *ctx)
{
	struct limit_state *st = ctx->state;

	if (is_device_read(ctx->c))
		return device_read(ctx, st);
	if (strcmp(ctx->c->variant, "memcpy") == 0) {
		memcpy(st->dst, st->src, st->len);
		return 0;
	}
	return memcpy_mt_run(st);
}

static void limit_teardown(struct run_ctx *ctx)
{
	struct limit_state *st = ctx->state;

	if (!st)
		return;
	if (is_device_read(ctx->c)) {
		free(st->src);
		if (ctx->src_fd >= 0)
			close(ctx->src_fd);
		/* the parent cannot see our memory: leave a marker it checks */
		if (st->hash == ctx->c->expect_hash) {
			int fd = open(ctx->dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

			if (fd >= 0)
				close(fd);
		}
	} else {
		memcpy_mt_teardown(st);
		/* a memcpy whose result was never read could be optimised away */
		if (st->len && st->dst[st->len - 1] == st->src[st->len - 1]) {
			int fd = open(ctx->dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

			if (fd >= 0)
				close(fd);
		}
		if (st->src != MAP_FAILED)
			munmap(st->src, st->len ? st->len : 1);
		if (st->dst != MAP_FAILED)
			munmap(st->dst, st->len ? st->len : 1);
	}
	free(st);
}

/* The child leaves an empty marker file when its check passed. */
static int limit_verify(const struct case_spec *c, const char *dst, char *why, size_t n)
{
	if (c->size == 0 || access(dst, F_OK) == 0)
		return 0;
	snprintf(why, n, is_device_read(c) ? "the bytes read differ from the dataset"
					   : "the copied buffer differs from its source");
	return -EBADMSG;
}

const struct workload workload_limit = {
	.name = "limit",
	.description = "machine limits: hot memcpy (1 thread, all CPUs) and a cold O_DIRECT device read",
	.flags = WORKLOAD_LIMITS | WORKLOAD_UNCOUNTED,
	.default_dataset = DATASET_RANDOM,
	.own_variants = limit_variants,
	.prepare = limit_prepare,
	.setup = limit_setup,
	.run = limit_run,
	.teardown = limit_teardown,
	.verify = limit_verify,
	.remove_output = remove_output_file,
};
