// SPDX-License-Identifier: MIT
/*
 * limit_device.c - the device rows of the limit workload (limit.c's header
 * says what they measure): device-read and device-direct, one stream of
 * cold sequential reads of the source, and device-read-mt, several
 * streams, each a thread reading its own slice, released together as the
 * memcpy-mt workers are (limit_memory.c).
 */
#include "limit_internal.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

int limit_device_setup(struct run_ctx *ctx, struct limit_state *st)
{
	return device_open(ctx->src, st->row, &ctx->src_fd, &st->src);
}

struct device_block {
	int fd;
	char *buf;
};

static ssize_t device_read_block(void *arg)
{
	const struct device_block *b = arg;

	return read(b->fd, b->buf, DEVICE_READ_BLOCK);
}

/* Timed: the whole source, DEVICE_READ_BLOCK at a time, nothing else. */
int limit_device_read(struct run_ctx *ctx, struct limit_state *st)
{
	struct device_block b = { .fd = ctx->src_fd, .buf = st->src };

	return move_until_end(device_read_block, &b, &st->moved);
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

	if (limit_worker_released(st))
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
int limit_device_mt_setup(struct run_ctx *ctx, struct limit_state *st)
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
	limit_spin_until(&st->ready, st->started);
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
int limit_device_mt_run(struct limit_state *st)
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

void limit_device_mt_teardown(struct limit_state *st)
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
