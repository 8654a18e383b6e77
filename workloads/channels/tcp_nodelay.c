// SPDX-License-Identifier: MIT
/*
 * tcp_nodelay.c - the tcp channel with TCP_NODELAY on the sending socket:
 * each send(2) leaves at once instead of waiting for the ACK of earlier
 * small segments (Nagle's algorithm off).
 */
#include "channel.h"

static int tcp_nodelay_open(struct channel_conn *conn)
{
	return tcp_loopback_pair(conn, 1);
}

const struct channel channel_tcp_nodelay = {
	.name = "tcp-nodelay",
	.defaults = tcp_per_line_defaults,
	.description = "TCP over loopback with TCP_NODELAY on the sender, default buffers",
	.syscalls = "socket,bind,listen,getsockname,connect,accept4,setsockopt,sendto,read,write,close",
	.probe = tcp_loopback_probe,
	.open = tcp_nodelay_open,
	.side = chan_fd_side,
	.reserve = chan_heap_reserve,
	.send = chan_sock_send,
	.drain = chan_read_drain,
	.close = chan_fd_close,
};
