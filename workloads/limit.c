// SPDX-License-Identifier: MIT
/*
 * limit.c - the machine's limits, measured in the same run as the copies
 * so every figure can be read as a share of what the hardware allows:
 *   memcpy       one thread copies between two hot (pre-faulted) buffers:
 *                the single-core memory bandwidth, the bound of a copy made
 *                by one CPU through the page cache;
 *   memcpy-movsb the same with the CPU's own string copy (x86-64 `rep
 *                movsb`), the instruction the kernel copies pages with on
 *                CPUs that make it fast (ERMS): a kernel-side copy can beat
 *                the C library's memcpy, which takes non-temporal stores for
 *                large blocks. The faster of the two is the single-CPU bound
 *                (on other architectures this row is unavailable);
 *   memcpy-mt    the same as memcpy with one thread per CPU, each on its own slice:
 *                the bound of copies that run on several CPUs (threads of
 *                their own, the kernel's io_uring workers, the transform's
 *                two processes). The threads are started before the clock
 *                (setup has written and faulted the buffers); the timed region only releases them (they spin
 *                on a flag) and waits for the last one, because starting
 *                threads inside the clock made this row slower than one
 *                thread at small sizes (docs/strategies.md). On machines
 *                whose cores share one memory channel it stays close to
 *                the single-thread row: that is the bound, not a flaw of
 *                the row;
 *   device-read  a cold sequential buffered read(2) of the source into one
 *                reused 1 MiB buffer, with POSIX_FADV_SEQUENTIAL: the
 *                kernel's readahead, exactly what a cold buffered copy gets
 *                to read with, and nothing else in the clock;
 *   device-direct  a cold sequential O_DIRECT read of the source in 1 MiB
 *                requests: what the device gives without the page
 *                cache, the bound of the `direct` strategy;
 *   device-read-mt  device-read with several requests in flight: as many
 *                threads as the most concurrent strategy keeps requests in
 *                flight (parallel's threads, io_uring's queue depth, as this
 *                invocation runs them: the harness counts them and records
 *                the number in the case's `threads`), each reading its own
 *                page-aligned slice of the source through a descriptor of
 *                its own (its own readahead) in 1 MiB pread(2)s. The two rows
 *                above keep one request in flight; a copy that keeps several
 *                can read faster than they do.
 * The device rows are planned per dataset and size (a sparse file reads
 * holes), the memory rows per size; the report divides a cold page-cache
 * copy by the fastest of device-read, device-read-mt and device-direct,
 * and names it.
 *
 * The memory rows copy between buffers of at most four times the last-level
 * cache (LIMIT_CACHE_MULT; between LIMIT_BUFFER_MIN and LIMIT_BUFFER_MAX,
 * the latter when the cache size is not known), as many passes as the size
 * needs, so that a 4 GiB row does not hold 8 GiB and a 200 MiB row does not
 * spend its child's life faulting in 400 MiB before the clock: the passes
 * stay well above the cache, so the bandwidth is the same. Below that, the
 * buffers are still four times the cache long (64 MiB when its size is not
 * known) and written whole before the clock, which copies from their start:
 * the bytes it moves were written first and pushed out of the caches by the
 * rest, so a 1 MiB row measures memory, as a page-cache copy of 1 MiB reads
 * it, not the CPU's caches.
 *
 * Where the buffers live (the harness must not time the host's page faults,
 * nor pay them for every run): the source of the memory rows is made once
 * per invocation, in the parent, by prepare() — the largest buffer any
 * planned row needs, backed by transparent huge pages where the kernel
 * gives them (MADV_HUGEPAGE), written once. Every run's child inherits it
 * (fork copies its page tables: no fault) and only reads it. The
 * destination is the child's own, since it writes it (a write to memory
 * shared with the parent would copy it page by page): huge pages too, so
 * one fault per 2 MiB instead of one per 4 KiB. On a virtual machine whose
 * host charges tens of microseconds for the first touch of a 4 KiB page
 * (docs/noise.md), faulting two 200 MiB buffers per run cost seconds of
 * every limit run's child; the bandwidth measured is the same, the buffers
 * stay above the cache either way. Both are read or written in full before
 * the clock, as before.
 *
 * Verification: a memory row checks that the copy happened (the last byte
 * moved); a device row that it read exactly the dataset's size. Neither
 * hashes inside the clock. The child leaves an empty marker file when its
 * check passed (the parent cannot see its memory).
 */
#include "workload.h"
#include "fileio.h"

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

#define DEVICE_READ_BLOCK (1u << 20)
#define LIMIT_BUFFER_MIN (64ull << 20)
#define LIMIT_BUFFER_MAX (256ull << 20)
#define LIMIT_CACHE_MULT 4
#define MEMCPY_MAX_THREADS 256
#define HUGE_PAGE (2ull << 20)
#define LIMIT_SRC_BYTE 0x5a
#define LIMIT_DST_BYTE 0xa5

enum limit_row { ROW_MEMCPY, ROW_MOVSB, ROW_MEMCPY_MT, ROW_DEVICE, ROW_DEVICE_DIRECT, ROW_DEVICE_MT };

static const struct workload_variant limit_variants[] = {
	[ROW_MEMCPY] = { "memcpy", "one thread, memcpy between hot buffers", VARIANT_REFERENCE,
			 LIMIT_MEMCPY },
	[ROW_MOVSB] = { "memcpy-movsb", "one thread, rep movsb between hot buffers (the kernel's own copy)",
			0, LIMIT_MEMCPY },
	[ROW_MEMCPY_MT] = { "memcpy-mt", "one thread per CPU, memcpy between hot buffers",
			    VARIANT_MULTI_CPU, LIMIT_MEMCPY_MT },
	[ROW_DEVICE] = { "device-read", "cold sequential read(2) of the source with readahead",
			 VARIANT_COLD_ONLY, LIMIT_DEVICE },
	[ROW_DEVICE_DIRECT] = { "device-direct", "cold sequential O_DIRECT read of the source, 1 MiB requests",
				VARIANT_COLD_ONLY, LIMIT_DEVICE_DIRECT },
	[ROW_DEVICE_MT] = { "device-read-mt",
			    "cold pread(2)s of the source by as many threads as the most concurrent strategy keeps requests in flight, each its own slice",
			    VARIANT_COLD_ONLY | VARIANT_CONCURRENT, LIMIT_DEVICE },
	{ 0 },
};

/* A mapping aligned to HUGE_PAGE inside a larger one, so that the kernel
 * can back it with huge pages. */
struct huge_buf {
	char *map;		/* what mmap returned, MAP_FAILED if none */
	size_t map_len;
	char *buf;		/* aligned, len bytes */
	size_t len;
};

struct limit_state;

struct memcpy_slice {
	size_t off, len;	/* of the buffer */
	struct limit_state *st;
};

/* device-read-mt: one thread's slice of the source, its descriptor and buffer. */
struct device_stream {
	uint64_t off, len;	/* of the file; the last stream reads on to its end */
	bool last;
	int fd;
	char *buf;		/* DEVICE_READ_BLOCK, faulted before the clock */
	uint64_t moved;
	int err;
	pthread_t tid;
	struct limit_state *st;
};

struct limit_state {
	enum limit_row row;
	char *src, *dst;
	struct huge_buf own_src;	/* when the parent's source is missing */
	struct huge_buf dst_buf;
	size_t len;		/* a pass: what the clock copies, from the start */
	size_t alloc;		/* buffer length: at least memory_buffer_min() */
	uint64_t total;		/* bytes to move: the case's size */
	uint64_t moved;		/* device rows: bytes read */
	/* memcpy-mt: workers spin on `go`; slice 0 is the caller's */
	struct memcpy_slice slices[MEMCPY_MAX_THREADS];
	pthread_t tids[MEMCPY_MAX_THREADS];
	unsigned nthreads;	/* slices, the caller's included */
	unsigned started;	/* worker threads created */
	atomic_uint ready;	/* workers spinning on go */
	atomic_uint go;		/* 1: copy (or stop) now */
	atomic_uint finished;	/* workers done */
	atomic_bool stop;
	/* device-read-mt: stream 0 is the caller's; the others' threads are
	 * joined inside the clock (joined), or by teardown */
	struct device_stream *streams;
	unsigned nstreams;
	bool joined;
};

/* The memory rows' source, made by prepare() in the parent (see above). */
static struct huge_buf hot_source = { .map = MAP_FAILED };

static int huge_buf_map(struct huge_buf *b, size_t len)
{
	uintptr_t start;

	b->len = len ? len : 1;
	b->map_len = b->len + HUGE_PAGE;
	b->map = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->map == MAP_FAILED)
		return -ENOMEM;
	start = ((uintptr_t)b->map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	b->buf = (char *)start;
	/* no huge pages here (THP never, or no THP): 4 KiB pages, same bytes */
	(void)madvise(b->buf, b->len, MADV_HUGEPAGE);
	return 0;
}

static void huge_buf_unmap(struct huge_buf *b)
{
	if (b->map != MAP_FAILED)
		munmap(b->map, b->map_len);
	b->map = MAP_FAILED;
}

static enum limit_row limit_row_of(const struct case_spec *c)
{
	return (enum limit_row)(workload_variant_find(c->wl, c->variant) - limit_variants);
}

static bool is_device_row(enum limit_row row)
{
	return row == ROW_DEVICE || row == ROW_DEVICE_DIRECT || row == ROW_DEVICE_MT;
}

/*
 * The last-level cache as the kernel describes it to this machine (sysfs,
 * what lscpu shows): in a virtual machine sysconf's figure can be the host
 * package's. 0 when unknown.
 */
static uint64_t last_level_cache(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "re");
	unsigned long long v = 0;
	char unit = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%llu%c", &v, &unit) < 1)
		v = 0;
	fclose(f);
	return unit == 'K' ? v << 10 : unit == 'M' ? v << 20 : v;
}

/* The largest buffer a memory row uses: see the header comment. */
static uint64_t memory_buffer_max(void)
{
	uint64_t llc = last_level_cache();
	uint64_t want = llc ? LIMIT_CACHE_MULT * llc : LIMIT_BUFFER_MAX;

	if (want < LIMIT_BUFFER_MIN)
		return LIMIT_BUFFER_MIN;
	return want < LIMIT_BUFFER_MAX ? want : LIMIT_BUFFER_MAX;
}

/* A pass of a memory row: the case's size, at most memory_buffer_max(). */
static size_t memory_buffer_len(uint64_t size)
{
	uint64_t max = memory_buffer_max();

	return size < max ? (size_t)size : (size_t)max;
}

/* The least buffer a memory row writes: four times the last-level cache,
 * LIMIT_BUFFER_MIN when that is not known (a 1 MiB row does not write
 * 2 x 256 MiB before its clock). */
static uint64_t memory_buffer_min(void)
{
	uint64_t llc = last_level_cache(), want = LIMIT_CACHE_MULT * llc;

	if (want < LIMIT_BUFFER_MIN)
		return LIMIT_BUFFER_MIN;
	return want < LIMIT_BUFFER_MAX ? want : LIMIT_BUFFER_MAX;
}

/* A memory row's buffers: its pass, and never shorter than memory_buffer_min(). */
static size_t memory_buffer_alloc(uint64_t size)
{
	size_t len = memory_buffer_len(size);
	uint64_t min = memory_buffer_min();

	return len > min ? len : (size_t)min;
}

/*
 * In the parent, before any run: the source of every memory row, grown to
 * the largest pass planned and written once. Children only read it.
 */
static int hot_source_reserve(size_t len, char *why, size_t n)
{
	struct huge_buf b;

	if (hot_source.map != MAP_FAILED && hot_source.len >= len)
		return 0;
	if (huge_buf_map(&b, len)) {
		snprintf(why, n, "cannot map the %zu-byte source of the memory rows", len);
		return -ENOMEM;
	}
	memset(b.buf, LIMIT_SRC_BYTE, b.len);
	huge_buf_unmap(&hot_source);
	hot_source = b;
	return 0;
}

static int limit_prepare(struct case_spec *c, char *why, size_t n)
{
	int fd;

	c->expect_hash = c->ds->hash;
	c->expect_size = c->ds->size;
#if !defined(__x86_64__)
	if (limit_row_of(c) == ROW_MOVSB) {
		snprintf(why, n, "rep movsb is an x86-64 instruction");
		return -EOPNOTSUPP;
	}
#endif
	if (!is_device_row(limit_row_of(c)))
		return hot_source_reserve(memory_buffer_alloc(c->size), why, n);
	if (limit_row_of(c) != ROW_DEVICE_DIRECT)
		return 0;
	fd = open(c->ds->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, n, "O_DIRECT reads are not supported here (%s)", strerror(errno));
		return -errno;
	}
	close(fd);
	return 0;
}

/* ---- memory rows ---------------------------------------------------------- */

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

/* Copies the part of [off, off + len) of the buffers that each pass covers:
 * passes of st->len bytes until st->total bytes have moved. */
/* x86-64's string copy, as the kernel's copy_user does it on ERMS CPUs. */
static void copy_movsb(char *dst, const char *src, size_t n)
{
#if defined(__x86_64__)
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
#else
	memcpy(dst, src, n);	/* never planned: the row is unavailable */
#endif
}

static void memcpy_passes(const struct limit_state *st, size_t off, size_t len)
{
	for (uint64_t done = 0; done < st->total; done += st->len) {
		uint64_t pass = st->total - done < st->len ? st->total - done : st->len;
		size_t end = off + len < pass ? off + len : (size_t)pass;

		if (end <= off)
			continue;
		if (st->row == ROW_MOVSB)
			copy_movsb(st->dst + off, st->src + off, end - off);
		else
			memcpy(st->dst + off, st->src + off, end - off);
	}
}

/* Reads n bytes: the child's first touch of the parent's source, and the
 * bytes in this CPU's caches, as a memset of them would leave them. */
static void read_through(const char *p, size_t n)
{
	volatile uint64_t sink = 0;
	uint64_t sum = 0;

	for (size_t i = 0; i + sizeof(uint64_t) <= n; i += sizeof(uint64_t)) {
		uint64_t v;

		memcpy(&v, p + i, sizeof(v));
		sum += v;
	}
	sink = sum;
	(void)sink;
}

/* A worker thread's start: says it is ready, spins until released; false
 * when it was released to stop instead of to work. */
static bool worker_released(struct limit_state *st)
{
	atomic_fetch_add_explicit(&st->ready, 1, memory_order_release);
	spin_until(&st->go, 1);
	return !atomic_load(&st->stop);
}

/* A worker: says it is ready, spins until released, copies its slice (setup
 * wrote and faulted the buffers; touching the slice again would bring a
 * small one back into this CPU's caches). */
static void *memcpy_worker(void *arg)
{
	struct memcpy_slice *sl = arg;
	struct limit_state *st = sl->st;

	if (worker_released(st))
		memcpy_passes(st, sl->off, sl->len);
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
 * microseconds, a visible share of a small copy.
 */
static int memcpy_mt_setup(struct limit_state *st)
{
	unsigned n = memcpy_nthreads(st->len);
	size_t per = (st->len / n + 4095) & ~(size_t)4095, off = 0;

	for (unsigned i = 0; i < n; i++, off += per) {
		size_t left = off < st->len ? st->len - off : 0;

		st->slices[i] = (struct memcpy_slice){ off, left < per ? left : per, st };
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
	atomic_store_explicit(&st->go, 1, memory_order_release);
	memcpy_passes(st, st->slices[0].off, st->slices[0].len);
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

/*
 * The buffers, touched in full before the clock: the source is the
 * parent's (prepare(); a child of a run whose prepare() was skipped maps
 * its own), the destination the child's own, on huge pages where possible.
 */
static int memory_setup(struct run_ctx *ctx, struct limit_state *st)
{
	st->len = memory_buffer_len(st->total);
	st->alloc = memory_buffer_alloc(st->total);
	if (hot_source.map != MAP_FAILED && hot_source.len >= st->alloc) {
		st->src = hot_source.buf;
	} else {
		if (huge_buf_map(&st->own_src, st->alloc))
			return -ENOMEM;
		st->src = st->own_src.buf;
		memset(st->src, LIMIT_SRC_BYTE, st->alloc);
	}
	if (huge_buf_map(&st->dst_buf, st->alloc))
		return -ENOMEM;
	st->dst = st->dst_buf.buf;
	/* all of both, slice 0 of memcpy-mt included: nothing faulted in the clock */
	read_through(st->src, st->alloc);
	memset(st->dst, LIMIT_DST_BYTE, st->alloc);
	(void)ctx;
	return st->row == ROW_MEMCPY_MT ? memcpy_mt_setup(st) : 0;
}

/* ---- device rows ---------------------------------------------------------- */

/* A descriptor of the source for one stream of reads, and its buffer,
 * faulted in here, not by the first read(2) inside the clock. */
static int device_open(const char *path, enum limit_row row, int *fd, char **buf)
{
	int flags = O_RDONLY | O_CLOEXEC | (row == ROW_DEVICE_DIRECT ? O_DIRECT : 0);

	*fd = open(path, flags);
	if (*fd < 0)
		return -errno;
	if (row != ROW_DEVICE_DIRECT)
		posix_fadvise(*fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	*buf = page_buf_alloc(DEVICE_READ_BLOCK);
	if (!*buf)
		return -ENOMEM;
	memset(*buf, 0, DEVICE_READ_BLOCK);
	return 0;
}

static int device_setup(struct run_ctx *ctx, struct limit_state *st)
{
	return device_open(ctx->src, st->row, &ctx->src_fd, &st->src);
}

/* Timed: the whole source, DEVICE_READ_BLOCK at a time, nothing else. */
static int device_read(struct run_ctx *ctx, struct limit_state *st)
{
	for (;;) {
		ssize_t n = read(ctx->src_fd, st->src, DEVICE_READ_BLOCK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		st->moved += (uint64_t)n;
	}
}

/* One stream's slice, DEVICE_READ_BLOCK at a time; the last stream reads
 * on to the end of the file, so a source longer than its size shows. */
static int device_stream_read(struct device_stream *s)
{
	uint64_t pos = s->off, end = s->off + s->len;

	for (;;) {
		size_t want = DEVICE_READ_BLOCK;
		ssize_t n;

		if (!s->last && pos >= end)
			return 0;
		if (!s->last && end - pos < want)
			want = (size_t)(end - pos);
		n = pread(s->fd, s->buf, want, (off_t)pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;	/* a short source: moved says so */
		pos += (uint64_t)n;
		s->moved += (uint64_t)n;
	}
}

/* A stream's thread: says it is ready, spins until released, reads. */
static void *device_worker(void *arg)
{
	struct device_stream *s = arg;
	struct limit_state *st = s->st;

	if (worker_released(st))
		s->err = device_stream_read(s);
	return NULL;
}

/*
 * device-read-mt: c->threads streams (the harness's count of the requests
 * the most concurrent strategy keeps in flight), each reading a page-aligned
 * slice of the source through a descriptor of its own (its own readahead,
 * POSIX_FADV_SEQUENTIAL) into its own buffer; the threads are started and
 * spinning before the clock, as memcpy-mt's are.
 */
static int device_mt_setup(struct run_ctx *ctx, struct limit_state *st)
{
	unsigned n = ctx->c->threads ? ctx->c->threads : 1;
	uint64_t per = ((st->total + n - 1) / n + 4095) & ~(uint64_t)4095, off = 0;

	if (n > VARIANT_MAX_STREAMS)
		n = VARIANT_MAX_STREAMS;
	st->streams = calloc(n, sizeof(*st->streams));
	if (!st->streams)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++)
		st->streams[i].fd = -1;
	st->nstreams = n;
	for (unsigned i = 0; i < n; i++, off += per) {
		struct device_stream *s = &st->streams[i];
		uint64_t at = off < st->total ? off : st->total;
		int err;

		s->off = at;
		s->len = st->total - at < per ? st->total - at : per;
		s->last = i == n - 1;
		s->st = st;
		err = device_open(ctx->src, st->row, &s->fd, &s->buf);
		if (err)
			return err;	/* teardown closes what was opened */
	}
	for (unsigned i = 1; i < n; i++) {
		if (pthread_create(&st->streams[i].tid, NULL, device_worker, &st->streams[i]))
			return -EAGAIN;	/* teardown stops those started */
		st->started++;
	}
	spin_until(&st->ready, st->started);
	return 0;
}

/* Joins the stream threads started (a worker never released is released
 * with stop set first). */
static void device_mt_join(struct limit_state *st)
{
	if (st->joined)
		return;
	if (!atomic_load(&st->go)) {
		atomic_store(&st->stop, true);
		atomic_store_explicit(&st->go, 1, memory_order_release);
	}
	for (unsigned i = 1; i <= st->started; i++)
		pthread_join(st->streams[i].tid, NULL);
	st->joined = true;
}

/* Timed: release the streams, read slice 0, join the others (they sleep in
 * their reads: spinning here would take a CPU from them). */
static int device_mt_run(struct limit_state *st)
{
	int err;

	atomic_store_explicit(&st->go, 1, memory_order_release);
	err = device_stream_read(&st->streams[0]);
	device_mt_join(st);
	for (unsigned i = 0; i < st->nstreams; i++) {
		st->moved += st->streams[i].moved;
		if (!err)
			err = st->streams[i].err;
	}
	return err;
}

static void device_mt_teardown(struct limit_state *st)
{
	if (!st->streams)
		return;
	device_mt_join(st);
	for (unsigned i = 0; i < st->nstreams; i++) {
		page_buf_free(st->streams[i].buf, DEVICE_READ_BLOCK);
		if (st->streams[i].fd >= 0)
			close(st->streams[i].fd);
	}
	free(st->streams);
}

/* ---- the workload ---------------------------------------------------------- */

static int limit_setup(struct run_ctx *ctx)
{
	struct limit_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	ctx->state = st;
	st->row = limit_row_of(ctx->c);
	st->total = ctx->c->size;
	st->own_src.map = st->dst_buf.map = MAP_FAILED;
	if (st->row == ROW_DEVICE_MT)
		return device_mt_setup(ctx, st);
	if (is_device_row(st->row))
		return device_setup(ctx, st);
	return memory_setup(ctx, st);
}

static int limit_run(struct run_ctx *ctx)
{
	struct limit_state *st = ctx->state;

	switch (st->row) {
	case ROW_MEMCPY:
	case ROW_MOVSB:
		memcpy_passes(st, 0, st->len);
		return 0;
	case ROW_MEMCPY_MT:
		return memcpy_mt_run(st);
	case ROW_DEVICE_MT:
		return device_mt_run(st);
	default:
		return device_read(ctx, st);
	}
}

/* The parent cannot see the child's memory: an empty file says "checked". */
static void leave_marker(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd >= 0)
		close(fd);
}

static void limit_teardown(struct run_ctx *ctx)
{
	struct limit_state *st = ctx->state;

	if (!st)
		return;
	if (is_device_row(st->row)) {
		device_mt_teardown(st);
		if (st->moved == ctx->c->expect_size)
			leave_marker(ctx->dst);
		page_buf_free(st->src, DEVICE_READ_BLOCK);
		if (ctx->src_fd >= 0)
			close(ctx->src_fd);
	} else {
		memcpy_mt_teardown(st);
		/* a memcpy whose result was never read could be optimised away */
		if (st->len && st->dst && st->dst[st->len - 1] == st->src[st->len - 1])
			leave_marker(ctx->dst);
		huge_buf_unmap(&st->own_src);
		huge_buf_unmap(&st->dst_buf);
	}
	free(st);
}

static int limit_verify(const struct case_spec *c, const char *dst, char *why, size_t n)
{
	if (c->size == 0 || access(dst, F_OK) == 0)
		return 0;
	snprintf(why, n, is_device_row(limit_row_of(c)) ? "the read did not return the dataset's size"
							: "the copied buffer differs from its source");
	return -EBADMSG;
}

const struct workload workload_limit = {
	.name = "limit",
	.description = "machine limits: hot memcpy (1 thread, all CPUs) and cold device reads (readahead, concurrent, O_DIRECT)",
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
