// SPDX-License-Identifier: MIT
/*
 * common.c - the pieces the fd-based channels (pipe, unix, tcp) share: the
 * sender fills one reused heap buffer and writes it out; the receiver reads
 * into a buffer of conn->buffer bytes and writes each chunk to the file.
 * And those the shared-memory channels (shm, shm-direct) share: futex,
 * noticing a peer that died, and who is on which side.
 */
#include "channel.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void chan_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int chan_fd_side(struct channel_conn *conn, enum channel_side side)
{
	conn->side = side;
	if (side == CHANNEL_SENDER)
		chan_close_fd(&conn->fd[0]);
	else if (side == CHANNEL_RECEIVER)
		chan_close_fd(&conn->fd[1]);
	return 0;
}

void *chan_heap_reserve(struct channel_conn *conn, size_t len, size_t keep)
{
	char *p;

	(void)keep;		/* realloc keeps the whole old content */
	if (len <= conn->cap && conn->buf)
		return conn->buf;
	p = realloc(conn->buf, len ? len : 1);
	if (!p)
		return NULL;
	conn->buf = p;
	conn->cap = len;
	return p;
}

int chan_write_send(struct channel_conn *conn, size_t len)
{
	return full_write(conn->fd[1], conn->buf, len);
}

/* send(2) with MSG_NOSIGNAL: a vanished receiver is -EPIPE, not a signal. */
int chan_sock_send(struct channel_conn *conn, size_t len)
{
	const char *p = conn->buf;

	while (len > 0) {
		ssize_t n = send(conn->fd[1], p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int chan_read_drain(struct channel_conn *conn, int out_fd)
{
	size_t bufsz = conn->buffer ? conn->buffer : CHANNEL_DEFAULT_BUFFER;
	char *buf = malloc(bufsz);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = read(conn->fd[0], buf, bufsz);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		ret = full_write(out_fd, buf, (size_t)n);
		if (ret)
			break;
	}
	free(buf);
	return ret;
}

int chan_fd_close(struct channel_conn *conn)
{
	int ret = 0;

	if (conn->fd[1] >= 0 && close(conn->fd[1]))
		ret = -errno;
	conn->fd[1] = -1;
	chan_close_fd(&conn->fd[0]);
	free(conn->buf);
	conn->buf = NULL;
	conn->cap = 0;
	return ret;
}

size_t chan_enlarge_pipe(int fd)
{
	int sz;

	fcntl(fd, F_SETPIPE_SZ, (int)CHANNEL_PIPE_SIZE);	/* may be refused */
	sz = fcntl(fd, F_GETPIPE_SZ);
	return sz > 0 ? (size_t)sz : 65536;
}

long chan_futex(_Atomic uint32_t *word, int op, uint32_t val, const struct timespec *timeout)
{
	return syscall(SYS_futex, (uint32_t *)word, op, val, timeout, NULL, 0);
}

int chan_peer_gone(_Atomic int32_t *pid_word)
{
	pid_t pid = atomic_load(pid_word);
	siginfo_t si;

	if (pid <= 0)
		return 0;	/* not known yet */
	if (kill(pid, 0) && errno == ESRCH)
		return 1;
	memset(&si, 0, sizeof(si));
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
	       si.si_pid == pid;
}

void chan_shared_side(struct channel_conn *conn, enum channel_side side,
		      _Atomic int32_t *sender_pid, _Atomic int32_t *receiver_pid)
{
	conn->side = side;
	if (side == CHANNEL_SENDER)
		atomic_store(sender_pid, getpid());
	else if (side == CHANNEL_RECEIVER)
		atomic_store(receiver_pid, getpid());
}
