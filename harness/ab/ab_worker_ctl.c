// SPDX-License-Identifier: MIT
/*
 * ab_worker_ctl.c - the orchestrator's end of a worker: started once per
 * build as `EXE copy --serve` with its stdin and stdout on pipes and its
 * stderr in a file of the work directory; every copy is timed here, from
 * the request written to the reply read, and the worker's run-queue wait
 * over that time is read from outside (/proc/PID/schedstat).
 */
#include "ab_internal.h"
#include "interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

int ab_worker_start(struct ab_run *r, int side)
{
	struct ab_worker *w = &r->w[side];
	int to[2], from[2];

	snprintf(w->err_path, sizeof(w->err_path), "%s/worker-%c.err", r->workdir,
		 ab_side_name[side]);
	if (pipe2(to, O_CLOEXEC))
		return -errno;
	if (pipe2(from, O_CLOEXEC)) {
		close(to[0]);
		close(to[1]);
		return -errno;
	}
	w->pid = fork();
	if (w->pid == 0)
		ctl_exec(r->o->exe[side], to[0], from[1], w->err_path);
	close(to[0]);
	close(from[1]);
	w->to = to[1];
	w->from = w->pid > 0 ? fdopen(from[0], "r") : NULL;
	if (w->pid < 0 || !w->from) {
		int err = -errno;

		close(to[1]);
		if (!w->from)
			close(from[0]);
		w->dead = true;
		return err;
	}
	return 0;
}

void ab_worker_stop(struct ab_worker *w)
{
	int status;

	if (w->pid <= 0)
		return;
	close(w->to);
	if (w->from)
		fclose(w->from);
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
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

int ab_worker_ask(struct ab_worker *w, const char *req, char *reply, size_t n,
		  struct ab_copy *cp, char *why, size_t wn)
{
	size_t len = strlen(req);
	double w0, t0, t1;
	ssize_t put;

	if (w->dead) {
		snprintf(why, wn, "its worker (copy --serve) has ended");
		return -1;
	}
	w0 = ctl_wait_ns(w->pid);
	t0 = ctl_now_ns();
	do
		put = write(w->to, req, len);
	while (put < 0 && errno == EINTR);
	if (put != (ssize_t)len || !fgets(reply, (int)n, w->from)) {
		ctl_why_ended(w, why, wn);
		return -1;
	}
	t1 = ctl_now_ns();
	reply[strcspn(reply, "\n")] = '\0';
	if (cp) {
		cp->wall = t1 - t0;
		cp->wait = ctl_wait_ns(w->pid) - w0;
		if (cp->wait < 0)
			cp->wait = 0;
	}
	return 0;
}
