// SPDX-License-Identifier: MIT
/*
 * vmsplice.c - the sender maps its batch buffers into a pipe with vmsplice(2)
 * (no copy into the pipe); the receiver splice(2)s the pipe into the file, so
 * the only copy left is the one into the output's page cache.
 *
 * vmsplice without SPLICE_F_GIFT lends pages: the pipe references the
 * sender's memory until the receiver has consumed them, and writing those
 * bytes earlier would change what reaches the file. The sender therefore
 * fills an arena as a ring and never reuses a byte still possibly in the
 * pipe. A pipe holds at most F_GETPIPE_SZ bytes (one page or less per slot),
 * so once `sent` bytes have been spliced in, every byte before
 * sent - pipe_size has left it. Sent regions wait in a FIFO until they pass
 * that mark; a reservation goes after the newest region or wraps to the arena
 * start if the oldest unconsumed region leaves room; otherwise the arena is
 * retired (kept mapped until close) and a larger one takes its place.
 */
#include "channel.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define VMS_NONE SIZE_MAX

struct vms_region {
	uint64_t stream_end;	/* stream offset just past the region */
	size_t start;		/* offset in the current arena */
};

struct vms_arena {
	char *base;
	size_t size;
};

struct vms_state {
	size_t pipe_bytes;
	struct vms_arena arena;		/* current */
	struct vms_arena *retired;	/* older arenas, unmapped at close */
	size_t nretired;
	size_t head;			/* arena offset after the newest region */
	uint64_t sent;			/* bytes spliced into the pipe */
	struct vms_region *fifo;	/* circular: unconsumed regions, oldest first */
	size_t fifo_cap, fifo_first, fifo_n;
};

static int vms_open(struct channel_conn *conn)
{
	struct vms_state *st = calloc(1, sizeof(*st));

	if (!st)
		return -ENOMEM;
	if (pipe2(conn->fd, O_CLOEXEC)) {
		free(st);
		return -errno;
	}
	st->pipe_bytes = chan_enlarge_pipe(conn->fd[1]);
	conn->priv = st;
	return 0;
}

/* Drops the regions the receiver has certainly consumed. */
static void vms_prune(struct vms_state *st)
{
	while (st->fifo_n &&
	       st->fifo[st->fifo_first].stream_end + st->pipe_bytes <= st->sent) {
		st->fifo_first = (st->fifo_first + 1) % st->fifo_cap;
		st->fifo_n--;
	}
}

/* Where len bytes fit without touching unconsumed bytes, or VMS_NONE. */
static size_t vms_place(const struct vms_state *st, size_t len)
{
	size_t size = st->arena.size, head = st->head, front;

	if (len > size)
		return VMS_NONE;
	if (st->fifo_n == 0)
		return head + len <= size ? head : 0;
	front = st->fifo[st->fifo_first].start;
	if (front < head) {		/* unconsumed: [front, head) */
		if (head + len <= size)
			return head;
		return len <= front ? 0 : VMS_NONE;
	}
	/* unconsumed: [front, size) and [0, head) */
	return head + len <= front ? head : VMS_NONE;
}

static int vms_new_arena(struct vms_state *st, size_t len)
{
	size_t size = 4 * st->pipe_bytes;
	struct vms_arena *r;
	void *p;

	if (size < 2 * st->arena.size)
		size = 2 * st->arena.size;
	if (size < 4 * len)
		size = 4 * len;
	size = (size + 4095) & ~(size_t)4095;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	if (st->arena.base) {
		r = realloc(st->retired, (st->nretired + 1) * sizeof(*r));
		if (!r) {
			munmap(p, size);
			return -ENOMEM;
		}
		st->retired = r;
		st->retired[st->nretired++] = st->arena;
	}
	st->arena.base = p;
	st->arena.size = size;
	st->head = 0;
	st->fifo_n = 0;		/* older regions stay valid in the retired arena */
	return 0;
}

static void *vms_reserve(struct channel_conn *conn, size_t len, size_t keep)
{
	struct vms_state *st = conn->priv;
	size_t pos;
	char *dst;

	if (len == 0)
		len = 1;
	vms_prune(st);
	pos = st->arena.base ? vms_place(st, len) : VMS_NONE;
	if (pos == VMS_NONE) {
		if (vms_new_arena(st, len))
			return NULL;
		pos = 0;
	}
	dst = st->arena.base + pos;
	if (keep && conn->buf != dst)
		memmove(dst, conn->buf, keep);
	conn->buf = dst;
	conn->cap = len;
	return dst;
}

static int vms_push_region(struct vms_state *st, struct vms_region r)
{
	if (st->fifo_n == st->fifo_cap) {
		size_t ncap = st->fifo_cap ? 2 * st->fifo_cap : 1024;
		struct vms_region *f = malloc(ncap * sizeof(*f));

		if (!f)
			return -ENOMEM;
		for (size_t i = 0; i < st->fifo_n; i++)
			f[i] = st->fifo[(st->fifo_first + i) % st->fifo_cap];
		free(st->fifo);
		st->fifo = f;
		st->fifo_cap = ncap;
		st->fifo_first = 0;
	}
	st->fifo[(st->fifo_first + st->fifo_n) % st->fifo_cap] = r;
	st->fifo_n++;
	return 0;
}

static int vms_send(struct channel_conn *conn, size_t len)
{
	struct vms_state *st = conn->priv;
	struct iovec iov = { .iov_base = conn->buf, .iov_len = len };
	size_t start = (size_t)(conn->buf - st->arena.base);

	if (len == 0)
		return 0;
	while (iov.iov_len > 0) {
		ssize_t n = vmsplice(conn->fd[1], &iov, 1, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		iov.iov_base = (char *)iov.iov_base + n;
		iov.iov_len -= (size_t)n;
	}
	st->sent += len;
	st->head = start + len;
	conn->buf = NULL;
	conn->cap = 0;
	return vms_push_region(st, (struct vms_region){ st->sent, start });
}

struct vms_drain_step {
	int in_fd, out_fd;
	size_t len;
};

static ssize_t vms_drain_splice(void *arg)
{
	const struct vms_drain_step *d = arg;

	return splice(d->in_fd, NULL, d->out_fd, NULL, d->len, SPLICE_F_MOVE);
}

static int vms_drain(struct channel_conn *conn, int out_fd)
{
	struct vms_state *st = conn->priv;
	struct vms_drain_step d = { .in_fd = conn->fd[0], .out_fd = out_fd,
				    .len = st->pipe_bytes };

	return move_until_end(vms_drain_splice, &d, NULL);
}

static int vms_close(struct channel_conn *conn)
{
	struct vms_state *st = conn->priv;
	int ret = 0;

	if (conn->fd[1] >= 0 && close(conn->fd[1]))
		ret = -errno;
	if (conn->fd[0] >= 0)
		close(conn->fd[0]);
	conn->fd[0] = conn->fd[1] = -1;
	if (st) {
		for (size_t i = 0; i < st->nretired; i++)
			munmap(st->retired[i].base, st->retired[i].size);
		if (st->arena.base)
			munmap(st->arena.base, st->arena.size);
		free(st->retired);
		free(st->fifo);
		free(st);
		conn->priv = NULL;
	}
	conn->buf = NULL;
	conn->cap = 0;
	return ret;
}

/* One byte through vmsplice and back. */
static int vms_probe(char *why, size_t n)
{
	char c = 'x', back = 0;
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	int fd[2], err = 0;

	if (pipe2(fd, O_CLOEXEC)) {
		err = -errno;
		snprintf(why, n, "pipe2: %s", strerror(-err));
		return err;
	}
	errno = 0;
	if (vmsplice(fd[1], &iov, 1, 0) != 1 || read(fd[0], &back, 1) != 1 || back != 'x') {
		err = errno ? -errno : -EIO;
		snprintf(why, n, "vmsplice: %s", strerror(-err));
	}
	close(fd[0]);
	close(fd[1]);
	return err;
}

const struct channel channel_vmsplice = {
	.name = "vmsplice",
	.description = "vmsplice(2) of batch pages into a 1 MiB pipe, splice(2) into the file",
	.syscalls = "pipe2,fcntl,mmap,munmap,vmsplice,splice,close",
	.probe = vms_probe,
	.open = vms_open,
	.side = chan_fd_side,
	.reserve = vms_reserve,
	.send = vms_send,
	.drain = vms_drain,
	.close = vms_close,
};
