// SPDX-License-Identifier: MIT
/*
 * ab_worker_ctl.c - the orchestrator's end of a worker: started (once to
 * probe, then anew for every pair) as `EXE copy --serve` with its stdin
 * and stdout on pipes and its
 * stderr in a file of the work directory; every copy is timed here, from
 * the request written to the reply read, and the worker's run-queue wait
 * over that time is read from outside (/proc/PID/schedstat).
 *
 * A worker that sends no reply in time (AB_REPLY_BASE_MS, and more for a
 * bigger source) is stopped with SIGKILL and started again, so that one
 * hung copy fails its case, not the whole run; a worker that does not end
 * when its stdin closes is stopped the same way after AB_STOP_MS.
 * COPYBENCH_TEST_AB_REPLY_MS=MS replaces the time a reply may take (the
 * test of a hung worker).
 *
 * Each pair is made by new workers (ab_rounds.c), so no copy inherits what
 * an earlier one left in its process: an io_uring io-wq worker, which on
 * Linux 6.18 ends about one tick after its ring is gone; a write queued
 * to io-wq just as it ended was traced never to run (docs/check.md).
 */
#include "ab_internal.h"
#include "host/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

const char ab_side_name[2] = { 'A', 'B' };
#include <time.h>
#include <unistd.h>

/* A reply may take this long, and a second more per AB_REPLY_BYTES_PER_S
 * of source. */
#define AB_REPLY_BASE_MS	30000
#define AB_REPLY_BYTES_PER_S	(10u << 20)
/* A worker whose stdin is closed has this long to end. */
#define AB_STOP_MS		5000

static double ctl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The worker's run-queue wait so far (its main thread), or 0. */
static double ctl_wait_ns(pid_t pid)
{
	char path[64];
	unsigned long long run, wait;
	FILE *f;
	int got;

	snprintf(path, sizeof(path), "/proc/%ld/schedstat", (long)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	got = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	return got == 2 ? (double)wait : 0;
}

/* In the child: stdin and stdout on the pipes, stderr into its file. */
static void ctl_exec(const char *exe, int in, int out, const char *err_path)
{
	char *const argv[] = { (char *)exe, "copy", "--serve", NULL };
	int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	interrupt_reset_child();
	signal(SIGPIPE, SIG_DFL);
	dup2(in, STDIN_FILENO);
	dup2(out, STDOUT_FILENO);
	if (err >= 0)
		dup2(err, STDERR_FILENO);
	execv(exe, argv);
	fprintf(stderr, "cannot run %s: %s\n", exe, strerror(errno));
	_exit(127);
}

/* How long a reply may take: the base and more for a bigger source. */
static int ctl_reply_ms(const struct ab_run *r)
{
	const char *env = getenv("COPYBENCH_TEST_AB_REPLY_MS");

	if (env && atoi(env) > 0)
		return atoi(env);
	return AB_REPLY_BASE_MS + (int)(r->o->size / AB_REPLY_BYTES_PER_S) * 1000;
}

int ab_worker_start(struct ab_run *r, int side)
{
	struct ab_worker *w = &r->w[side];
	int to[2], from[2];

	snprintf(w->err_path, sizeof(w->err_path), "%s/worker-%c.err", r->workdir,
		 ab_side_name[side]);
	w->reply_ms = ctl_reply_ms(r);
	w->dead = false;
	if (pipe2(to, O_CLOEXEC))
		goto out_dead;
	if (pipe2(from, O_CLOEXEC))
		goto out_close_to;
	w->pid = fork();
	if (w->pid == 0)
		ctl_exec(r->o->exe[side], to[0], from[1], w->err_path);
	close(to[0]);
	close(from[1]);
	w->to = to[1];
	w->from = from[0];
	if (w->pid > 0)
		return 0;
	close(w->from);
	close(w->to);
	goto out_dead;
out_close_to:
	close(to[0]);
	close(to[1]);
out_dead:
	w->pid = 0;
	w->dead = true;
	return -errno;
}

/* Reaps the worker: up to ms for it to end by itself, then SIGKILL. */
static void ctl_reap(struct ab_worker *w, int ms)
{
	struct timespec tick = { 0, 1000000 };
	int status;

	for (int waited = 0; waitpid(w->pid, &status, WNOHANG) == 0; waited++) {
		if (waited >= ms) {
			kill(w->pid, SIGKILL);
			while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		nanosleep(&tick, NULL);
	}
}

int ab_worker_renew(struct ab_run *r, int side, const char *strategy, char *why, size_t wn)
{
	char req[PATH_MAX + 96], reply[256];

	ab_worker_stop(&r->w[side]);
	if (ab_worker_start(r, side)) {
		snprintf(why, wn, "its worker (copy --serve) could not be started again");
		return -1;
	}
	snprintf(req, sizeof(req), "probe\t%s\t%s\n", strategy, r->workdir);
	if (ab_worker_ask(r, side, req, reply, sizeof(reply), NULL, why, wn))
		return -1;
	if (strcmp(reply, "ok")) {
		snprintf(why, wn, "its new worker's probe said: %.200s", reply);
		return -1;
	}
	return 0;
}

void ab_worker_stop(struct ab_worker *w)
{
	if (w->pid <= 0)
		return;
	close(w->to);
	close(w->from);
	ctl_reap(w, AB_STOP_MS);
	unlink(w->err_path);
	w->pid = 0;
}

/* Why the worker ended: the last line of its stderr, or its status. */
static void ctl_why_ended(struct ab_worker *w, char *why, size_t n)
{
	char line[512], last[512] = "";
	FILE *f = fopen(w->err_path, "re");

	while (f && fgets(line, sizeof(line), f))
		if (line[0] != '\n')
			snprintf(last, sizeof(last), "%s", line);
	if (f)
		fclose(f);
	last[strcspn(last, "\n")] = '\0';
	snprintf(why, n, "its worker (copy --serve) ended%s%s", last[0] ? ": " : "", last);
	w->dead = true;
}

/* A worker that did not reply in time: stopped, and a new one started for
 * the requests to come (a restart that fails leaves it dead). */
static void ctl_hung(struct ab_run *r, int side, char *why, size_t n)
{
	struct ab_worker *w = &r->w[side];

	snprintf(why, n, "its worker (copy --serve) sent no reply in %.3g s and was stopped",
		 w->reply_ms / 1000.0);
	close(w->to);
	close(w->from);
	ctl_reap(w, 0);
	ab_worker_start(r, side);
}

/* One reply line from fd into reply[0..n), waiting at most ms in all:
 * 1 a line, 0 the worker ended (or an interrupt), -1 no line in time. */
static int ctl_read_line(int fd, char *reply, size_t n, int ms)
{
	double end = ctl_now_ns() + (double)ms * 1e6;
	size_t len = 0;

	while (len + 1 < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int left = (int)((end - ctl_now_ns()) / 1e6);
		ssize_t got;

		if (left <= 0)
			return -1;
		if (poll(&p, 1, left) < 0 && (errno != EINTR || interrupt_signal))
			return 0;
		if (!p.revents)
			continue;
		got = read(fd, reply + len, n - 1 - len);
		if (got < 0 && errno == EINTR && !interrupt_signal)
			continue;
		if (got <= 0)
			return 0;
		len += (size_t)got;
		if (memchr(reply + len - (size_t)got, '\n', (size_t)got))
			break;
	}
	reply[len] = '\0';
	reply[strcspn(reply, "\n")] = '\0';
	return 1;
}

int ab_worker_ask(struct ab_run *r, int side, const char *req, char *reply, size_t n,
		  struct ab_copy *cp, char *why, size_t wn)
{
	struct ab_worker *w = &r->w[side];
	size_t len = strlen(req);
	double w0, t0, t1;
	ssize_t put;
	int got;

	if (w->dead) {
		snprintf(why, wn, "its worker (copy --serve) has ended");
		return -1;
	}
	w0 = ctl_wait_ns(w->pid);
	t0 = ctl_now_ns();
	do
		put = write(w->to, req, len);
	while (put < 0 && errno == EINTR && !interrupt_signal);
	got = put == (ssize_t)len ? ctl_read_line(w->from, reply, n, w->reply_ms) : 0;
	t1 = ctl_now_ns();
	if (got < 0) {
		ctl_hung(r, side, why, wn);
		return -1;
	}
	if (got == 0) {
		ctl_why_ended(w, why, wn);
		return -1;
	}
	if (cp) {
		cp->wall = t1 - t0;
		cp->wait = ctl_wait_ns(w->pid) - w0;
		if (cp->wait < 0)
			cp->wait = 0;
	}
	return 0;
}
