// SPDX-License-Identifier: MIT
/*
 * tcp.c - a TCP connection over loopback (127.0.0.1, an ephemeral port):
 * listen, connect, accept, all before fork. Nagle's algorithm stays on, as a
 * program gets it by default; tcp_nodelay.c is the same with TCP_NODELAY set
 * on the sender. Socket buffers stay at the kernel's defaults.
 */
#include "channel.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A listening socket on 127.0.0.1 with a port the kernel picks. */
static int tcp_listen_loopback(struct sockaddr_in *addr)
{
	socklen_t alen = sizeof(*addr);
	int fd, err;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)addr, sizeof(*addr)) || listen(fd, 1) ||
	    getsockname(fd, (struct sockaddr *)addr, &alen))
		goto out_close;
	return fd;

out_close:
	err = -errno;
	close(fd);
	return err;
}

int tcp_loopback_pair(struct channel_conn *conn, int nodelay)
{
	struct sockaddr_in addr;
	int lfd, cfd, afd, err;
	int one = 1;

	lfd = tcp_listen_loopback(&addr);
	if (lfd < 0)
		return lfd;
	cfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (cfd < 0)
		goto out_close_listen;
	if (connect(cfd, (struct sockaddr *)&addr, sizeof(addr)))
		goto out_close_client;
	afd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (afd < 0)
		goto out_close_client;
	if (nodelay && setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one))) {
		err = -errno;
		close(afd);
		close(cfd);
		close(lfd);
		return err;
	}
	close(lfd);
	conn->fd[0] = afd;
	conn->fd[1] = cfd;
	return 0;

out_close_client:
	err = -errno;
	close(cfd);
	close(lfd);
	return err;
out_close_listen:
	err = -errno;
	close(lfd);
	return err;
}

int tcp_loopback_probe(char *why, size_t n)
{
	struct sockaddr_in addr;
	int fd = tcp_listen_loopback(&addr);

	if (fd < 0) {
		snprintf(why, n, "cannot listen on 127.0.0.1: %s", strerror(-fd));
		return fd;
	}
	close(fd);
	return 0;
}

static int tcp_open(struct channel_conn *conn)
{
	return tcp_loopback_pair(conn, 0);
}

/* One send per line, where Nagle's algorithm shows (tcp-nodelay too). */
const struct channel_default tcp_per_line_defaults[] = {
	{ 1, 64u << 10 }, { 0, 0 },
};

const struct channel channel_tcp = {
	.name = "tcp",
	.defaults = tcp_per_line_defaults,
	.description = "TCP over loopback with Nagle's algorithm on, default buffers",
	.syscalls = "socket,bind,listen,getsockname,connect,accept4,sendto,read,write,close",
	.probe = tcp_loopback_probe,
	.open = tcp_open,
	.side = chan_fd_side,
	.reserve = chan_heap_reserve,
	.send = chan_sock_send,
	.drain = chan_read_drain,
	.close = chan_fd_close,
};
