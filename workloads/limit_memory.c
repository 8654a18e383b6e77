// SPDX-License-Identifier: MIT
/*
 * limit_memory.c - the memory rows of the limit workload (limit.c's header
 * says what they measure and why their buffers are made so): memcpy and
 * memcpy-movsb, one thread copying between hot buffers, and memcpy-mt, one
 * thread per CPU each on its own slice, released together by a spinning
 * flag; the buffers, huge pages where the kernel gives them, the source
 * made once in the parent.
 */
#include "limit_internal.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define LIMIT_BUFFER_MIN (64ull << 20)
#define LIMIT_BUFFER_MAX (256ull << 20)
#define LIMIT_CACHE_MULT 4
#define HUGE_PAGE (2ull << 20)
#define LIMIT_SRC_BYTE 0x5a
#define LIMIT_DST_BYTE 0xa5

/* The memory rows' source, made by prepare() in the parent (limit.c's header). */
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

void limit_huge_buf_unmap(struct huge_buf *b)
{
	if (b->map != MAP_FAILED)
		munmap(b->map, b->map_len);
	b->map = MAP_FAILED;
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

/* The largest buffer a memory row uses: see limit.c's header comment. */
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
size_t limit_memory_buffer_alloc(uint64_t size)
{
	size_t len = memory_buffer_len(size);
	uint64_t min = memory_buffer_min();

	return len > min ? len : (size_t)min;
}

/*
 * In the parent, before any run: the source of every memory row, grown to
 * the largest pass planned and written once. Children only read it.
 */
int limit_hot_source_reserve(size_t len, char *why, size_t n)
{
	struct huge_buf b;

	if (hot_source.map != MAP_FAILED && hot_source.len >= len)
		return 0;
	if (huge_buf_map(&b, len)) {
		snprintf(why, n, "cannot map the %zu-byte source of the memory rows", len);
		return -ENOMEM;
	}
	memset(b.buf, LIMIT_SRC_BYTE, b.len);
	limit_huge_buf_unmap(&hot_source);
	hot_source = b;
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
void limit_spin_until(atomic_uint *v, unsigned want)
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

void limit_memcpy_passes(const struct limit_state *st, size_t off, size_t len)
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
bool limit_worker_released(struct limit_state *st)
{
	atomic_fetch_add_explicit(&st->ready, 1, memory_order_release);
	limit_spin_until(&st->go, 1);
	return !atomic_load(&st->stop);
}

/* A worker: says it is ready, spins until released, copies its slice (setup
 * wrote and faulted the buffers; touching the slice again would bring a
 * small one back into this CPU's caches). */
static void *memcpy_worker(void *arg)
{
	struct memcpy_slice *sl = arg;
	struct limit_state *st = sl->st;

	if (limit_worker_released(st))
		limit_memcpy_passes(st, sl->off, sl->len);
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
	limit_spin_until(&st->ready, st->started);
	return 0;
}

/* Timed: release the workers, copy slice 0, wait for the slowest. */
int limit_memcpy_mt_run(struct limit_state *st)
{
	atomic_store_explicit(&st->go, 1, memory_order_release);
	limit_memcpy_passes(st, st->slices[0].off, st->slices[0].len);
	limit_spin_until(&st->finished, st->started);
	return 0;
}

/* Workers never released (a failed setup) are released with stop set. */
void limit_memcpy_mt_teardown(struct limit_state *st)
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
int limit_memory_setup(struct run_ctx *ctx, struct limit_state *st)
{
	st->len = memory_buffer_len(st->total);
	st->alloc = limit_memory_buffer_alloc(st->total);
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
