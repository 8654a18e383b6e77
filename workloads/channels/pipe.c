// SPDX-License-Identifier: MIT
/*
 * pipe.c - an anonymous pipe (pipe2), enlarged to 1 MiB with F_SETPIPE_SZ
 * where the system allows it. The sender write(2)s each batch; the receiver
 * read(2)s chunks of the case's buffer size and write(2)s them to the file.
 */
#include "channel.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int pipe_open(struct channel_conn *conn)
{
	if (pipe2(conn->fd, O_CLOEXEC))
		return -errno;
	chan_enlarge_pipe(conn->fd[1]);
	return 0;
}

/* The seed article's pipe: small and large buffers, 5000-line batches,
 * and one write per line. */
static const struct channel_default pipe_defaults[] = {
	{ 0, 8u << 10 }, { 0, 4u << 20 }, { 5000, 64u << 10 }, { 1, 64u << 10 }, { 0, 0 },
};

const struct channel channel_pipe = {
	.name = "pipe",
	.defaults = pipe_defaults,
	.description = "anonymous pipe of 1 MiB; write(2) batches, read(2)+write(2) into the file",
	.syscalls = "pipe2,fcntl,write,read,close",
	.open = pipe_open,
	.side = chan_fd_side,
	.reserve = chan_heap_reserve,
	.send = chan_write_send,
	.drain = chan_read_drain,
	.close = chan_fd_close,
};
