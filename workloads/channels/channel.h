/* SPDX-License-Identifier: MIT */
/*
 * channel.h - the contract of a channel: how the transform workload's reader
 * process hands bytes to its writer process.
 *
 * A channel is made before fork() (open), then each process keeps one side
 * (side): the sender reserves a buffer, fills it with a batch and sends it;
 * the receiver moves everything it receives into the output file until the
 * sender closes its side. The sender always fills memory the channel gave it
 * (reserve), so a channel that hands pages to the kernel (vmsplice) or to the
 * other process (shm) decides itself when a buffer may be written again.
 *
 * Usage:
 *	struct channel_conn conn = { .ch = ch, .buffer = 64 << 10 };
 *	ch->open(&conn);  fork();
 *	sender:   ch->side(&conn, CHANNEL_SENDER);
 *	          p = ch->reserve(&conn, len, 0);  ...fill p...  ch->send(&conn, n);
 *	          ch->close(&conn);		(end of stream)
 *	receiver: ch->side(&conn, CHANNEL_RECEIVER);
 *	          ch->drain(&conn, out_fd);  ch->close(&conn);
 * If fork() fails, ch->close(&conn) frees both sides.
 *
 * Socket buffers (SO_SNDBUF/SO_RCVBUF) are left at the kernel's defaults so
 * that the channels compare as a program would meet them; pipes are enlarged
 * to 1 MiB with F_SETPIPE_SZ where the system allows it.
 */
#ifndef COPYBENCH_CHANNEL_H
#define COPYBENCH_CHANNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum channel_side { CHANNEL_BOTH, CHANNEL_SENDER, CHANNEL_RECEIVER };

/* One channel between two processes; filled by the caller and by open(). */
struct channel_conn {
	const struct channel *ch;
	size_t buffer;		/* receiver's read size (read+write channels) */
	enum channel_side side;	/* which side this process keeps */
	int fd[2];		/* [0] receiving end, [1] sending end, -1 closed */
	char *buf;		/* sender: current reservation */
	size_t cap;		/* its size */
	void *priv;		/* the channel's own state */
};

enum channel_flags {
	/*
	 * The receiver writes the output with O_DIRECT, around the page cache,
	 * where the output's filesystem takes it (else buffered): device I/O
	 * inside the clock, like the `direct` strategy. channel_device_io()
	 * says whether it does so in a directory.
	 */
	CHANNEL_DEVICE_IO = 1u << 0,
};

/*
 * A case a channel adds to the transform's default matrix, beyond the one
 * every channel runs (buffer-sized batches at 64K): the seed article's
 * comparisons. Per-line sends (batch_lines 1) run on a capped input (the
 * plan says how much: their cost is per line, not per byte).
 */
struct channel_default {
	unsigned batch_lines;	/* 0: buffer-sized batches; 0 and 0 ends a list */
	size_t buffer;
};

struct channel {
	const char *name;
	const char *description;	/* one line */
	unsigned flags;			/* enum channel_flags */
	/* Its extra cases of the default matrix; NULL: none. */
	const struct channel_default *defaults;
	/*
	 * The calls of open, side, reserve, send, drain and close for one
	 * stream of a few MiB between the two processes, comma separated: a
	 * checked fact by the rule in strategy.h
	 * (tests/strategies/declared_syscalls_match_counts.c; the test's own
	 * fork, wait4 and exit_group are not the channel's).
	 */
	const char *syscalls;
	/* Can it run here? 0, or -errno with a short reason. NULL: always. */
	int (*probe)(char *why, size_t n);
	/* Before fork: make both ends. 0 or -errno. */
	int (*open)(struct channel_conn *conn);
	/* After fork, in each process: keep `side`, close the other. */
	int (*side)(struct channel_conn *conn, enum channel_side side);
	/*
	 * Sender: a buffer of at least len bytes whose first `keep` bytes are
	 * those of the previous reservation (to grow a batch being filled).
	 * NULL when out of memory.
	 */
	void *(*reserve)(struct channel_conn *conn, size_t len, size_t keep);
	/* Sender: send the first len bytes of the reservation, fully. */
	int (*send)(struct channel_conn *conn, size_t len);
	/* Receiver: everything until end of stream into fd at its offset. */
	int (*drain)(struct channel_conn *conn, int out_fd);
	/* Ends the stream (sender) and frees this process's side. 0 or -errno. */
	int (*close)(struct channel_conn *conn);
};

/* workloads/channels/registry.c: every channel, sorted by name. */
extern const struct channel *const channel_table[];
extern const size_t channel_count;

const struct channel *channel_find(const char *name);
/* Runs ch->probe (if any); 0 when available, else -errno with why filled. */
int channel_probe(const struct channel *ch, char *why, size_t n);
/*
 * Does ch write around the page cache for outputs in dir? false for a
 * channel without CHANNEL_DEVICE_IO; false with why filled when dir's
 * filesystem refuses O_DIRECT (the channel then writes buffered).
 */
bool channel_device_io(const struct channel *ch, const char *dir, char *why, size_t n);

/* workloads/channels/common.c: pieces shared by the fd-based channels. */
#define CHANNEL_PIPE_SIZE (1u << 20)
#define CHANNEL_DEFAULT_BUFFER (64u * 1024u)

int chan_fd_side(struct channel_conn *conn, enum channel_side side);
void *chan_heap_reserve(struct channel_conn *conn, size_t len, size_t keep);
int chan_write_send(struct channel_conn *conn, size_t len);
int chan_sock_send(struct channel_conn *conn, size_t len);
int chan_read_drain(struct channel_conn *conn, int out_fd);
int chan_fd_close(struct channel_conn *conn);
/* F_SETPIPE_SZ to CHANNEL_PIPE_SIZE when allowed; the pipe's size. */
size_t chan_enlarge_pipe(int fd);
/*
 * For the shared-memory channels (shm, shm-direct): a futex call; whether
 * the process whose pid the word holds has gone (exited, or a zombie child);
 * side() that keeps the calling process's pid in the shared word of its side.
 */
struct timespec;
long chan_futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *timeout);
int chan_peer_gone(_Atomic int32_t *pid_word);
void chan_shared_side(struct channel_conn *conn, enum channel_side side,
		      _Atomic int32_t *sender_pid, _Atomic int32_t *receiver_pid);
/* tcp.c: a connected loopback pair (fd[0] accepted, fd[1] connecting). */
int tcp_loopback_pair(struct channel_conn *conn, int nodelay);
int tcp_loopback_probe(char *why, size_t n);
/* tcp.c: the default-matrix cases of both TCP channels (per-line sends). */
extern const struct channel_default tcp_per_line_defaults[];

#endif
