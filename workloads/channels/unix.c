// SPDX-License-Identifier: MIT
/*
 * unix.c - a connected AF_UNIX SOCK_STREAM pair (socketpair). Socket buffers
 * stay at the kernel's defaults. The sender send(2)s each batch; the receiver
 * read(2)s chunks of the case's buffer size and write(2)s them to the file.
 */
#include "channel.h"

#include <errno.h>
#include <sys/socket.h>

static int unix_open(struct channel_conn *conn)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -errno;
	conn->fd[0] = sv[0];
	conn->fd[1] = sv[1];
	return 0;
}

const struct channel channel_unix = {
	.name = "unix",
	.description = "AF_UNIX stream socket pair at default buffer sizes",
	.syscalls = "socketpair,sendto,read,write,close",
	.open = unix_open,
	.side = chan_fd_side,
	.reserve = chan_heap_reserve,
	.send = chan_sock_send,
	.drain = chan_read_drain,
	.close = chan_fd_close,
};
