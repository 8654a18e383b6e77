// SPDX-License-Identifier: MIT
/*
 * shm_direct.c - the reader transforms straight into a shared ring; the
 * writer moves the ring to the file in large aligned blocks with O_DIRECT,
 * around the page cache.
 *
 * The ring is a memfd of SHMD_RING_SIZE bytes mapped twice, back to back, so
 * that every run of free bytes at the head is contiguous in memory even where
 * it crosses the end of the ring (the "mirrored" or "magic" ring buffer). So
 * reserve() hands the reader ring memory itself: the transformed lines are
 * written where the writer will read them, and no batch is copied in user
 * space (shm.c copies each batch from a heap buffer into its ring).
 *
 * One producer, one consumer: head (bytes published) is written only by the
 * sender, tail (bytes written to the file) only by the receiver. The writer
 * moves whole blocks of SHMD_BLOCK bytes, which sit at multiples of
 * SHMD_BLOCK in the output file; only the end of the stream is a short
 * block. Each side sleeps on a futex only when it cannot go on - the writer
 * when less than a block is waiting, the reader when its reservation does not
 * fit - and says which counter value it waits for, so the other side wakes it
 * once per block at most instead of once per batch. Sleeps time out every
 * 100 ms to notice a peer that died without saying so.
 *
 * The writer sets O_DIRECT on the output with F_SETFL: the ring is page
 * aligned and the blocks are 4 MiB aligned in the file, so each block goes
 * from the ring to the device without a page-cache copy and no page-cache
 * page is allocated for the output (why that matters: docs/transform.md).
 * The stream's last bytes past a 4 KiB boundary are written buffered after
 * clearing O_DIRECT. Where O_DIRECT is refused (EINVAL: a filesystem without
 * direct I/O), everything is written buffered; the harness probes the
 * output's filesystem with channel_device_io() and says so in the row.
 *
 * A reservation larger than the ring can take (a batch holding a line of more
 * than SHMD_MAX_RESERVE bytes) is made on the heap and copied into the ring a
 * block at a time when sent.
 *
 * Calls: open() makes the memfd (memfd_create, ftruncate, three mmap, close);
 * each side getpid()s once; the writer lseek()s once and fcntl()s to set and
 * clear O_DIRECT; futex only when a side sleeps or wakes the other, kill and
 * waitid only when a sleep times out (hence '?').
 */
#include "channel.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SHMD_RING_SIZE (16u << 20)
#define SHMD_BLOCK (4u << 20)
#define SHMD_MAX_RESERVE (SHMD_RING_SIZE - SHMD_BLOCK)
#define SHMD_DIO_ALIGN 4096u
#define SHMD_HEADER_SIZE 4096u

/* One side's sleep: it waits until the other side's counter reaches want. */
struct shmd_sleeper {
	_Atomic uint32_t seq;		/* futex word, bumped on each wake-up */
	_Atomic uint32_t waiting;
	_Atomic uint64_t want;
};

struct shmd_ring {
	_Atomic uint64_t head;		/* bytes published by the sender */
	char pad0[56];
	_Atomic uint64_t tail;		/* bytes written out by the receiver */
	char pad1[56];
	struct shmd_sleeper rx;		/* receiver: waits for head >= want */
	struct shmd_sleeper tx;		/* sender: waits for tail >= want */
	_Atomic uint32_t closed;	/* the sender ended the stream */
	_Atomic uint32_t rx_failed;	/* the receiver gave up */
	_Atomic int32_t sender_pid;
	_Atomic int32_t receiver_pid;
};

struct shmd_state {
	struct shmd_ring *ring;
	char *data;			/* the ring, mapped twice in a row */
	char *big;			/* sender: a reservation too big for the ring */
	size_t big_cap;
};

/* ---- the mirrored ring ---------------------------------------------------- */

/* Maps a memfd of `size` bytes twice in a row; the first address, or NULL
 * with errno set. */
static char *shmd_map_mirror(size_t size)
{
	char *base;
	int fd, err;

	fd = memfd_create("copybench-shm-direct", MFD_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)size))
		goto out_close_fd;
	base = mmap(NULL, 2 * size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		goto out_close_fd;
	if (mmap(base, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED ||
	    mmap(base + size, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
		goto out_unmap;
	close(fd);
	return base;

out_unmap:
	err = errno;
	munmap(base, 2 * size);
	errno = err;
out_close_fd:
	err = errno;
	close(fd);
	errno = err;
	return NULL;
}

static int shmd_open(struct channel_conn *conn)
{
	struct shmd_state *st = calloc(1, sizeof(*st));
	void *hdr;
	int err;

	if (!st)
		return -ENOMEM;
	hdr = mmap(NULL, SHMD_HEADER_SIZE, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (hdr == MAP_FAILED) {
		err = -errno;
		goto out_free_state;
	}
	st->data = shmd_map_mirror(SHMD_RING_SIZE);
	if (!st->data) {
		err = -errno;
		goto out_unmap_header;
	}
	st->ring = hdr;
	conn->priv = st;
	conn->fd[0] = conn->fd[1] = -1;
	return 0;

out_unmap_header:
	munmap(hdr, SHMD_HEADER_SIZE);
out_free_state:
	free(st);
	return err;
}

static int shmd_side(struct channel_conn *conn, enum channel_side side)
{
	struct shmd_state *st = conn->priv;

	chan_shared_side(conn, side, &st->ring->sender_pid, &st->ring->receiver_pid);
	return 0;
}

/* ---- sleeping and waking -------------------------------------------------- */

static void shmd_wake_always(struct shmd_sleeper *s)
{
	atomic_fetch_add(&s->seq, 1);
	chan_futex(&s->seq, FUTEX_WAKE, 1, NULL);
}

/* Wakes the side sleeping on s if the counter, now at pos, reached its want. */
static void shmd_wake(struct shmd_sleeper *s, uint64_t pos)
{
	if (atomic_load(&s->waiting) && pos >= atomic_load(&s->want))
		shmd_wake_always(s);
}

/*
 * Sleeps on s until *counter >= want or *flag is set; -EPIPE when the peer
 * (named by peer_pid) is gone. The sleeper publishes `waiting` before it
 * looks at the counter, and the other side stores the counter before it
 * looks at `waiting` (all sequentially consistent), so one of them sees the
 * other: no wake-up is lost.
 */
static int shmd_sleep(struct shmd_sleeper *s, _Atomic uint64_t *counter, uint64_t want,
		      _Atomic uint32_t *flag, _Atomic int32_t *peer_pid)
{
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = 100 * 1000 * 1000 };
	int err = 0;

	atomic_store(&s->want, want);
	for (;;) {
		uint32_t seq = atomic_load(&s->seq);

		atomic_store(&s->waiting, 1);
		if (atomic_load(counter) >= want || atomic_load(flag))
			break;
		if (chan_futex(&s->seq, FUTEX_WAIT, seq, &tick) && errno == ETIMEDOUT &&
		    chan_peer_gone(peer_pid)) {
			err = -EPIPE;
			break;
		}
	}
	atomic_store(&s->waiting, 0);
	return err;
}

/* ---- the sender ----------------------------------------------------------- */

/* Waits until len bytes after head are free; the address of head, or NULL
 * when the receiver gave up. */
static char *shmd_ring_room(struct shmd_state *st, size_t len)
{
	struct shmd_ring *ring = st->ring;
	uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
	uint64_t want = head + len > SHMD_RING_SIZE ? head + len - SHMD_RING_SIZE : 0;

	if (atomic_load(&ring->tail) < want &&
	    shmd_sleep(&ring->tx, &ring->tail, want, &ring->rx_failed, &ring->receiver_pid))
		return NULL;
	if (atomic_load(&ring->rx_failed))
		return NULL;
	return st->data + head % SHMD_RING_SIZE;
}

static void shmd_publish(struct shmd_state *st, size_t len)
{
	uint64_t head = atomic_load_explicit(&st->ring->head, memory_order_relaxed) + len;

	atomic_store(&st->ring->head, head);
	shmd_wake(&st->ring->rx, head);
}

/* A reservation the ring cannot take: heap memory, keeping `keep` bytes. */
static void *shmd_reserve_big(struct channel_conn *conn, size_t len, size_t keep)
{
	struct shmd_state *st = conn->priv;
	char *p;

	if (len > st->big_cap) {
		p = conn->buf == st->big ? realloc(st->big, len) : malloc(len);
		if (!p)
			return NULL;
		if (conn->buf != st->big)
			free(st->big);
		else
			conn->buf = p;	/* realloc kept the bytes */
		st->big = p;
		st->big_cap = len;
	}
	if (keep && conn->buf != st->big)
		memcpy(st->big, conn->buf, keep);
	conn->buf = st->big;
	conn->cap = len;
	return st->big;
}

static void *shmd_reserve(struct channel_conn *conn, size_t len, size_t keep)
{
	struct shmd_state *st = conn->priv;
	char *dst;

	if (len > SHMD_MAX_RESERVE)
		return shmd_reserve_big(conn, len, keep);
	dst = shmd_ring_room(st, len ? len : 1);
	if (!dst)
		return NULL;
	if (keep && conn->buf != dst)
		memmove(dst, conn->buf, keep);
	conn->buf = dst;
	conn->cap = len;
	return dst;
}

/* Sends a heap reservation through the ring, a block at a time. */
static int shmd_send_big(struct shmd_state *st, size_t len)
{
	const char *p = st->big;

	while (len > 0) {
		size_t n = len < SHMD_BLOCK ? len : SHMD_BLOCK;
		char *dst = shmd_ring_room(st, n);

		if (!dst)
			return -EPIPE;
		memcpy(dst, p, n);
		shmd_publish(st, n);
		p += n;
		len -= n;
	}
	return 0;
}

static int shmd_send(struct channel_conn *conn, size_t len)
{
	struct shmd_state *st = conn->priv;

	if (atomic_load(&st->ring->rx_failed))
		return -EPIPE;
	if (st->big && conn->buf == st->big)
		return shmd_send_big(st, len);
	shmd_publish(st, len);
	return 0;
}

/* ---- the receiver --------------------------------------------------------- */

struct shmd_out {
	int fd;
	int flags;		/* as the harness opened it */
	int direct;		/* O_DIRECT is set */
};

/* O_DIRECT when the file offset allows it and the filesystem takes it. */
static void shmd_out_start(struct shmd_out *out, int fd)
{
	off_t off = lseek(fd, 0, SEEK_CUR);

	out->fd = fd;
	out->flags = fcntl(fd, F_GETFL);
	out->direct = out->flags >= 0 && off >= 0 && off % SHMD_DIO_ALIGN == 0 &&
		      fcntl(fd, F_SETFL, out->flags | O_DIRECT) == 0;
}

static int shmd_out_buffered(struct shmd_out *out)
{
	if (out->direct && fcntl(out->fd, F_SETFL, out->flags))
		return -errno;
	out->direct = 0;
	return 0;
}

/* Writes len bytes from p; an O_DIRECT refusal (EINVAL) turns it off. */
static int shmd_out_write(struct shmd_out *out, const char *p, size_t len)
{
	int err = full_write(out->fd, p, len);

	if (err == -EINVAL && out->direct) {
		err = shmd_out_buffered(out);
		if (!err)
			err = full_write(out->fd, p, len);
	}
	return err;
}

/* The end of the stream: the aligned part direct, the rest buffered. */
static int shmd_out_last(struct shmd_out *out, const char *p, size_t len)
{
	size_t aligned = out->direct ? len - len % SHMD_DIO_ALIGN : 0;
	int err = 0;

	if (aligned)
		err = shmd_out_write(out, p, aligned);
	if (!err)
		err = shmd_out_buffered(out);
	if (!err && len > aligned)
		err = full_write(out->fd, p + aligned, len - aligned);
	return err;
}

static int shmd_fail(struct shmd_ring *ring, int err)
{
	atomic_store(&ring->rx_failed, 1);
	shmd_wake_always(&ring->tx);
	return err;
}

/* Waits for a full block after tail, or the end of the stream; the bytes ready. */
static int shmd_wait_block(struct shmd_ring *ring, uint64_t tail, size_t *ready)
{
	int err = 0;

	if (atomic_load(&ring->head) - tail < SHMD_BLOCK && !atomic_load(&ring->closed))
		err = shmd_sleep(&ring->rx, &ring->head, tail + SHMD_BLOCK, &ring->closed,
				 &ring->sender_pid);
	*ready = atomic_load(&ring->head) - tail;
	return err;
}

static int shmd_drain(struct channel_conn *conn, int out_fd)
{
	struct shmd_state *st = conn->priv;
	struct shmd_ring *ring = st->ring;
	struct shmd_out out;
	uint64_t tail = 0;
	int err, cerr;

	shmd_out_start(&out, out_fd);
	for (;;) {
		const char *p = st->data + tail % SHMD_RING_SIZE;
		size_t ready;

		err = shmd_wait_block(ring, tail, &ready);
		if (err)
			break;
		if (ready < SHMD_BLOCK) {	/* the stream has ended */
			err = shmd_out_last(&out, p, ready);
			break;
		}
		err = shmd_out_write(&out, p, SHMD_BLOCK);
		if (err)
			break;
		tail += SHMD_BLOCK;
		atomic_store(&ring->tail, tail);
		shmd_wake(&ring->tx, tail);
	}
	cerr = shmd_out_buffered(&out);
	if (!err)
		err = cerr;
	return err ? shmd_fail(ring, err) : 0;
}

/* ---- both ----------------------------------------------------------------- */

static int shmd_close(struct channel_conn *conn)
{
	struct shmd_state *st = conn->priv;

	if (st) {
		if (conn->side == CHANNEL_SENDER) {
			atomic_store(&st->ring->closed, 1);
			shmd_wake_always(&st->ring->rx);
		}
		munmap(st->data, 2 * (size_t)SHMD_RING_SIZE);
		munmap(st->ring, SHMD_HEADER_SIZE);
		free(st->big);
		free(st);
		conn->priv = NULL;
	}
	conn->buf = NULL;
	conn->cap = 0;
	return 0;
}

/*
 * memfd_create, the double mapping and futex all work here. The aliasing is
 * tested through volatile accesses: to the compiler, p[0] and p[size] are
 * different objects.
 */
static int shmd_probe(char *why, size_t n)
{
	_Atomic uint32_t word = 0;
	volatile char *p = shmd_map_mirror(SHMD_DIO_ALIGN);
	int err = 0;

	if (!p) {
		err = errno ? -errno : -ENOMEM;
		snprintf(why, n, "memfd_create/mmap of a mirrored ring: %s", strerror(-err));
		return err;
	}
	p[0] = 'x';
	if (p[SHMD_DIO_ALIGN] != 'x') {
		err = -EIO;
		snprintf(why, n, "a memfd mapped twice does not alias");
	}
	munmap((char *)p, 2 * SHMD_DIO_ALIGN);
	if (!err && chan_futex(&word, FUTEX_WAKE, 1, NULL) < 0) {
		err = -errno;
		snprintf(why, n, "futex: %s", strerror(-err));
	}
	return err;
}

const struct channel channel_shm_direct = {
	.name = "shm-direct",
	.description = "mirrored 16 MiB shared ring filled in place; 4 MiB aligned O_DIRECT writes (buffered where refused)",
	.syscalls = "memfd_create,ftruncate,mmap,munmap,close,getpid,lseek,fcntl,write,futex?,kill?,waitid?",
	.flags = CHANNEL_DEVICE_IO,
	.probe = shmd_probe,
	.open = shmd_open,
	.side = shmd_side,
	.reserve = shmd_reserve,
	.send = shmd_send,
	.drain = shmd_drain,
	.close = shmd_close,
};
