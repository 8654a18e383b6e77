// SPDX-License-Identifier: MIT
/*
 * wl_limit.c - the machine's limits, measured in the same run as the copies
 * so every figure can be read as a share of what the hardware allows:
 *   memcpy       one thread copies between two hot (pre-faulted) buffers of
 *                the source's size: the single-core memory bandwidth bound
 *                of any copy through user space;
 *   memcpy-mt    the same with one thread per CPU, each on its own slice;
 *   device-read  a cold sequential O_DIRECT read of the source with 1 MiB
 *                requests: what the storage delivers, the bound of a
 *                cold-cache copy (disk filesystems only).
 * The memory rows move no file, so their verify() has nothing to check; the
 * device read checks the bytes it read against the dataset's hash.
 */
#include "plan.h"
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#define DEVICE_READ_BLOCK (1u << 20)

static const char *const limit_variants[] = { "memcpy", "memcpy-mt", "device-read", NULL };

struct limit_state {
	char *src, *dst;
	size_t len;
	uint64_t hash;		/* device-read: XXH3 of what was read */
};

struct memcpy_slice {
	char *dst;
	const char *src;
	size_t len;
};

static bool is_device_read(const struct bench_case *c)
{
	return strcmp(c->variant, "device-read") == 0;
}

static int limit_prepare(struct bench_case *c, char *why, size_t n)
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
	memset(st->src, 0x5a, len);
	memset(st->dst, 0xa5, len);
	return 0;
}

static void *memcpy_worker(void *arg)
{
	struct memcpy_slice *s = arg;

	memcpy(s->dst, s->src, s->len);
	return NULL;
}

static int memcpy_threads(struct limit_state *st, unsigned nthreads)
{
	struct memcpy_slice slices[256];
	pthread_t tids[256];
	size_t per = (st->len / nthreads + 4095) & ~(size_t)4095, off = 0;
	unsigned started = 0;

	for (unsigned i = 0; i < nthreads && off < st->len; i++, off += per) {
		slices[i] = (struct memcpy_slice){
			st->dst + off, st->src + off, st->len - off < per ? st->len - off : per,
		};
		if (pthread_create(&tids[i], NULL, memcpy_worker, &slices[i]))
			break;
		started++;
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	return started ? 0 : -EAGAIN;
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
	long ncpu;

	if (is_device_read(ctx->c))
		return device_read(ctx, st);
	if (strcmp(ctx->c->variant, "memcpy") == 0) {
		memcpy(st->dst, st->src, st->len);
		return 0;
	}
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	return memcpy_threads(st, ncpu > 0 && ncpu <= 256 ? (unsigned)ncpu : 1);
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
static int limit_verify(const struct bench_case *c, const char *dst, char *why, size_t n)
{
	if (c->size == 0 || access(dst, F_OK) == 0)
		return 0;
	snprintf(why, n, is_device_read(c) ? "the bytes read differ from the dataset"
					   : "the copied buffer differs from its source");
	return -EBADMSG;
}

static void limit_remove_output(const struct bench_case *c, const char *dst)
{
	(void)c;
	unlink(dst);
}

const struct workload workload_limit = {
	.name = "limit",
	.description = "machine limits: hot memcpy (1 thread, all CPUs) and a cold O_DIRECT device read",
	.default_dataset = DATASET_RANDOM,
	.own_variants = limit_variants,
	.uncounted = 1,
	.prepare = limit_prepare,
	.setup = limit_setup,
	.run = limit_run,
	.teardown = limit_teardown,
	.verify = limit_verify,
	.remove_output = limit_remove_output,
};
