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
 *
 * The memory rows are limit_memory.c, the device rows limit_device.c.
 */
#include "limit_internal.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

static enum limit_row limit_row_of(const struct case_spec *c)
{
	return (enum limit_row)(workload_variant_find(c->wl, c->variant) - limit_variants);
}

static bool is_device_row(enum limit_row row)
{
	return row == ROW_DEVICE || row == ROW_DEVICE_DIRECT || row == ROW_DEVICE_MT;
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
		return limit_hot_source_reserve(limit_memory_buffer_alloc(c->size), why, n);
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
		return limit_device_mt_setup(ctx, st);
	if (is_device_row(st->row))
		return limit_device_setup(ctx, st);
	return limit_memory_setup(ctx, st);
}

static int limit_run(struct run_ctx *ctx)
{
	struct limit_state *st = ctx->state;

	switch (st->row) {
	case ROW_MEMCPY:
	case ROW_MOVSB:
		limit_memcpy_passes(st, 0, st->len);
		return 0;
	case ROW_MEMCPY_MT:
		return limit_memcpy_mt_run(st);
	case ROW_DEVICE_MT:
		return limit_device_mt_run(st);
	default:
		return limit_device_read(ctx, st);
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
		limit_device_mt_teardown(st);
		if (st->moved == ctx->c->expect_size)
			leave_marker(ctx->dst);
		page_buf_free(st->src, DEVICE_READ_BLOCK);
		if (ctx->src_fd >= 0)
			close(ctx->src_fd);
	} else {
		limit_memcpy_mt_teardown(st);
		/* a memcpy whose result was never read could be optimised away */
		if (st->len && st->dst && st->dst[st->len - 1] == st->src[st->len - 1])
			leave_marker(ctx->dst);
		limit_huge_buf_unmap(&st->own_src);
		limit_huge_buf_unmap(&st->dst_buf);
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
	.remove_output = workload_remove_output_file,
};
