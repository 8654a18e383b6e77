/* SPDX-License-Identifier: MIT */
/*
 * limit_internal.h - the pieces of the limit workload shared by its files:
 *   limit.c         the rows, their preparation, the workload's descriptor
 *   limit_memory.c  the memory rows: memcpy, memcpy-movsb, memcpy-mt
 *   limit_device.c  the device rows: device-read, device-direct,
 *                   device-read-mt
 * limit.c's header says what each row measures and why it is made so.
 */
#ifndef COPYBENCH_LIMIT_INTERNAL_H
#define COPYBENCH_LIMIT_INTERNAL_H

#include "workload.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEVICE_READ_BLOCK (1u << 20)
#define MEMCPY_MAX_THREADS 256

enum limit_row { ROW_MEMCPY, ROW_MOVSB, ROW_MEMCPY_MT, ROW_DEVICE, ROW_DEVICE_DIRECT, ROW_DEVICE_MT };

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

/* limit_memory.c */
void limit_huge_buf_unmap(struct huge_buf *b);
/* A memory row's buffers: its pass, and never shorter than memory_buffer_min(). */
size_t limit_memory_buffer_alloc(uint64_t size);
/* In the parent, before any run: the source of every memory row, grown to
 * the largest pass planned and written once. */
int limit_hot_source_reserve(size_t len, char *why, size_t n);
/* Spins until *v reaches want, yielding now and then. */
void limit_spin_until(atomic_uint *v, unsigned want);
/* A worker thread's start: says it is ready, spins until released; false
 * when it was released to stop instead of to work. */
bool limit_worker_released(struct limit_state *st);
void limit_memcpy_passes(const struct limit_state *st, size_t off, size_t len);
int limit_memcpy_mt_run(struct limit_state *st);
void limit_memcpy_mt_teardown(struct limit_state *st);
int limit_memory_setup(struct run_ctx *ctx, struct limit_state *st);

/* limit_device.c */
int limit_device_setup(struct run_ctx *ctx, struct limit_state *st);
int limit_device_read(struct run_ctx *ctx, struct limit_state *st);
int limit_device_mt_setup(struct run_ctx *ctx, struct limit_state *st);
int limit_device_mt_run(struct limit_state *st);
void limit_device_mt_teardown(struct limit_state *st);

#endif
