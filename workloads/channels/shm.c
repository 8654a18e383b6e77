// SPDX-License-Identifier: MIT
/*
 * shm.c - a ring buffer of 1 MiB (the size of the enlarged pipe) in a
 * MAP_SHARED anonymous mapping made before fork. The sender copies each batch
 * into the ring; the receiver write(2)s straight from the ring into the file,
 * so the bytes cross user space once fewer than through a pipe.
 *
 * Single producer, single consumer: head (bytes published) is written only by
 * the sender, tail (bytes consumed) only by the receiver, both C11 atomics
 * with release/acquire ordering. A side that finds the ring full (sender) or
 * empty (receiver) spins a little, adapting the spin to how often spinning
 * paid off, then sleeps on a futex sequence word that the other side bumps
 * (and wakes only when someone sleeps). Sleeps time out every 100 ms to
 * notice a peer that died without saying so.
 *
 * Calls: each side getpid()s once; futex only when a side sleeps, and kill
 * and waitid only when a sleep times out (hence '?' in .syscalls).
 */
#include "channel.h"
#include "lib/fileio.h"

#include <errno.h>
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

#define SHM_RING_SIZE (1u << 20)
#define SHM_HEADER_SIZE 4096u
#define SHM_SPIN_MIN 16u
#define SHM_SPIN_MAX 8192u

struct shm_ring {
	_Atomic uint64_t head;		/* bytes published by the sender */
	char pad0[56];
	_Atomic uint64_t tail;		/* bytes consumed by the receiver */
	char pad1[56];
	_Atomic uint32_t data_seq;	/* futex: bumped when head moves or on close */
	_Atomic uint32_t space_seq;	/* futex: bumped when tail moves or on failure */
	_Atomic uint32_t rx_waiting;
	_Atomic uint32_t tx_waiting;
	_Atomic uint32_t closed;	/* the sender ended the stream */
	_Atomic uint32_t rx_failed;	/* the receiver gave up */
	_Atomic int32_t sender_pid;
	_Atomic int32_t receiver_pid;
};

struct shm_state {
	struct shm_ring *ring;
	char *data;
	unsigned spin;			/* current adaptive spin budget */
};

static void shm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Bumps seq and wakes the other side if it sleeps on it. */
static void shm_notify(_Atomic uint32_t *seq, _Atomic uint32_t *waiting)
{
	atomic_fetch_add(seq, 1);
	if (atomic_load(waiting))
		chan_futex(seq, FUTEX_WAKE, 1, NULL);
}

typedef int (*shm_ready_fn)(struct shm_ring *ring);

static int shm_has_space(struct shm_ring *ring)
{
	return atomic_load(&ring->head) - atomic_load(&ring->tail) < SHM_RING_SIZE ||
	       atomic_load(&ring->rx_failed);
}

static int shm_has_data(struct shm_ring *ring)
{
	return atomic_load(&ring->head) != atomic_load(&ring->tail) ||
	       atomic_load(&ring->closed);
}

/*
 * Waits until ready(ring): spin first, then sleep on seq. -EPIPE when the
 * peer (named by peer_pid) is gone.
 */
static int shm_wait(struct shm_state *st, shm_ready_fn ready, _Atomic uint32_t *seq,
		    _Atomic uint32_t *waiting, _Atomic int32_t *peer_pid)
{
	const struct timespec tick = { .tv_sec = 0, .tv_nsec = 100 * 1000 * 1000 };

	for (unsigned i = 0; i < st->spin; i++) {
		if (ready(st->ring)) {
			if (st->spin < SHM_SPIN_MAX)
				st->spin *= 2;
			return 0;
		}
		shm_cpu_relax();
	}
	if (st->spin > SHM_SPIN_MIN)
		st->spin /= 2;
	for (;;) {
		uint32_t s = atomic_load(seq);
		long r;

		atomic_store(waiting, 1);
		if (ready(st->ring)) {
			atomic_store(waiting, 0);
			return 0;
		}
		r = chan_futex(seq, FUTEX_WAIT, s, &tick);
		atomic_store(waiting, 0);
		if (r && errno == ETIMEDOUT && chan_peer_gone(peer_pid))
			return -EPIPE;
	}
}

static int shm_open_ring(struct channel_conn *conn)
{
	struct shm_state *st = calloc(1, sizeof(*st));
	void *map;

	if (!st)
		return -ENOMEM;
	map = mmap(NULL, SHM_HEADER_SIZE + SHM_RING_SIZE, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		free(st);
		return -errno;
	}
	st->ring = map;
	st->data = (char *)map + SHM_HEADER_SIZE;
	st->spin = 256;
	conn->priv = st;
	conn->fd[0] = conn->fd[1] = -1;
	return 0;
}

static int shm_side(struct channel_conn *conn, enum channel_side side)
{
	struct shm_state *st = conn->priv;

	chan_shared_side(conn, side, &st->ring->sender_pid, &st->ring->receiver_pid);
	return 0;
}

static int shm_send(struct channel_conn *conn, size_t len)
{
	struct shm_state *st = conn->priv;
	struct shm_ring *ring = st->ring;
	const char *p = conn->buf;

	while (len > 0) {
		uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
		uint64_t used = head - atomic_load_explicit(&ring->tail, memory_order_acquire);
		size_t off = head % SHM_RING_SIZE, chunk;

		if (atomic_load(&ring->rx_failed))
			return -EPIPE;
		if (used == SHM_RING_SIZE) {
			int err = shm_wait(st, shm_has_space, &ring->space_seq,
					   &ring->tx_waiting, &ring->receiver_pid);
			if (err)
				return err;
			continue;
		}
		chunk = SHM_RING_SIZE - used;
		if (chunk > SHM_RING_SIZE - off)
			chunk = SHM_RING_SIZE - off;
		if (chunk > len)
			chunk = len;
		memcpy(st->data + off, p, chunk);
		atomic_store_explicit(&ring->head, head + chunk, memory_order_release);
		shm_notify(&ring->data_seq, &ring->rx_waiting);
		p += chunk;
		len -= chunk;
	}
	return 0;
}

static int shm_fail(struct shm_ring *ring, int err)
{
	atomic_store(&ring->rx_failed, 1);
	shm_notify(&ring->space_seq, &ring->tx_waiting);
	return err;
}

static int shm_drain(struct channel_conn *conn, int out_fd)
{
	struct shm_state *st = conn->priv;
	struct shm_ring *ring = st->ring;

	for (;;) {
		uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
		uint64_t head = atomic_load_explicit(&ring->head, memory_order_acquire);
		size_t off = tail % SHM_RING_SIZE, chunk;
		int err;

		if (head == tail) {
			if (atomic_load(&ring->closed) && atomic_load(&ring->head) == tail)
				return 0;
			err = shm_wait(st, shm_has_data, &ring->data_seq,
				       &ring->rx_waiting, &ring->sender_pid);
			if (err)
				return shm_fail(ring, err);
			continue;
		}
		chunk = head - tail;
		if (chunk > SHM_RING_SIZE - off)
			chunk = SHM_RING_SIZE - off;
		err = full_write(out_fd, st->data + off, chunk);
		if (err)
			return shm_fail(ring, err);
		atomic_store_explicit(&ring->tail, tail + chunk, memory_order_release);
		shm_notify(&ring->space_seq, &ring->tx_waiting);
	}
}

static int shm_close(struct channel_conn *conn)
{
	struct shm_state *st = conn->priv;

	if (st) {
		if (conn->side == CHANNEL_SENDER) {
			atomic_store(&st->ring->closed, 1);
			shm_notify(&st->ring->data_seq, &st->ring->rx_waiting);
		}
		munmap(st->ring, SHM_HEADER_SIZE + SHM_RING_SIZE);
		free(st);
		conn->priv = NULL;
	}
	free(conn->buf);
	conn->buf = NULL;
	conn->cap = 0;
	return 0;
}

static int shm_probe(char *why, size_t n)
{
	_Atomic uint32_t word = 0;

	if (chan_futex(&word, FUTEX_WAKE, 1, NULL) < 0) {
		int err = -errno;

		snprintf(why, n, "futex: %s", strerror(-err));
		return err;
	}
	return 0;
}

const struct channel channel_shm = {
	.name = "shm",
	.description = "1 MiB ring in shared memory, atomics + futex; written to the file from the ring",
	.syscalls = "mmap,munmap,getpid,futex?,kill?,waitid?,write",
	.probe = shm_probe,
	.open = shm_open_ring,
	.side = shm_side,
	.reserve = chan_heap_reserve,
	.send = shm_send,
	.drain = shm_drain,
	.close = shm_close,
};
