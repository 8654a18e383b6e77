// SPDX-License-Identifier: MIT
/*
 * syscount.c - exact system-call counts of the timed work (see syscount.h):
 * the session, the choice of method and the public API. The mechanisms live
 * in syscount_perf.c (the kernel's tracepoint counters) and syscount_ptrace.c
 * (the tracer), beneath it; the names counted one by one, which all three
 * use, in syscount_names.c; what they share is in syscount_internal.h.
 */
#include "syscount_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* ------------------------------------------------------------- session -- */

static void syscount_build_index(struct syscount_session *s)
{
	size_t i, k;

	for (i = 0; i < SYSCOUNT_NR_LIMIT; i++)
		s->nr_index[i] = -1;
	for (k = 0; k < syscount_nsysnos; k++) {
		long nr = syscount_sysnos[k].nr;

		for (i = 0; i < syscount_nnames; i++)
			if (!strcmp(syscount_names[i], syscount_sysnos[k].name))
				break;
		if (i < syscount_nnames && nr >= 0 && nr < SYSCOUNT_NR_LIMIT)
			s->nr_index[nr] = (int16_t)i;
	}
}

/* ---------------------------------------------------------- public API -- */

static int syscount_parse_env(enum syscount_method *m, char *why, size_t n)
{
	const char *v = getenv("COPYBENCH_SYSCOUNT");

	if (!v || !*v)
		return 0;
	if (!strcmp(v, "perf"))
		*m = SYSCOUNT_PERF;
	else if (!strcmp(v, "ptrace"))
		*m = SYSCOUNT_PTRACE;
	else if (!strcmp(v, "off"))
		*m = SYSCOUNT_OFF;
	else if (!strcmp(v, "auto"))
		*m = SYSCOUNT_AUTO;
	else {
		snprintf(why, n, "COPYBENCH_SYSCOUNT=%s: expected perf, ptrace, off or auto", v);
		return -EINVAL;
	}
	return 0;
}

/* AUTO: perf, else ptrace (the perf reason is kept in why), else n/a. */
static int syscount_choose(struct syscount_session *s, enum syscount_method m,
			   char *why, size_t n)
{
	char perf_why[160] = "", ptrace_why[160] = "";
	int err;

	if (m == SYSCOUNT_OFF) {
		snprintf(s->why, sizeof(s->why), "counting disabled");
		return 0;
	}
	if (m != SYSCOUNT_PTRACE) {
		err = syscount_perf_prepare(s, perf_why, sizeof(perf_why));
		if (!err) {
			s->method = SYSCOUNT_PERF;
			return 0;
		}
		snprintf(why, n, "perf: %s", perf_why);
		if (m == SYSCOUNT_PERF)
			return err;
	}
	err = syscount_ptrace_probe(ptrace_why, sizeof(ptrace_why));
	if (!err) {
		s->method = SYSCOUNT_PTRACE;
		return 0;
	}
	if (m == SYSCOUNT_PTRACE) {
		snprintf(why, n, "ptrace: %s", ptrace_why);
		return err;
	}
	snprintf(s->why, sizeof(s->why), "perf: %.70s; ptrace: %.70s", perf_why, ptrace_why);
	snprintf(why, n, "%s", s->why);
	return 0;
}

int syscount_session_new(struct syscount_session **out, enum syscount_method m,
			 char *why, size_t n)
{
	struct syscount_session *s;
	int err, c;

	*out = NULL;
	if (n)
		why[0] = '\0';
	err = syscount_parse_env(&m, why, n);
	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->method = SYSCOUNT_OFF;
	for (c = 0; c < SYSCOUNT_COUNTERS; c++)
		s->fd[c] = s->keep_fd[c] = -1;
	syscount_build_index(s);
	err = syscount_choose(s, m, why, n);
	if (err) {
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

static void session_free(struct syscount_session *s, bool wait)
{
	if (!s)
		return;
	syscount_perf_free(s, wait);
	free(s->tracees);
	free(s);
}

void syscount_session_free(struct syscount_session *s)
{
	session_free(s, false);
}

void syscount_session_end(struct syscount_session *s)
{
	session_free(s, true);
}

const char *syscount_session_method(const struct syscount_session *s)
{
	switch (s->method) {
	case SYSCOUNT_PERF:
		return "perf";
	case SYSCOUNT_PTRACE:
		return "ptrace";
	default:
		return "n/a";
	}
}

bool syscount_counted_by_parent(const struct syscount_session *s)
{
	return s->method == SYSCOUNT_PTRACE;
}

pid_t syscount_fork(struct syscount_session *s)
{
	pid_t pid = fork();

	if (pid < 0)
		return pid;
	if (pid == 0) {
		if (s->method == SYSCOUNT_PERF)
			syscount_perf_open_child(s);
		else if (s->method == SYSCOUNT_PTRACE)
			syscount_ptrace_child();
		return 0;
	}
	if (s->method == SYSCOUNT_PTRACE)
		syscount_ptrace_attach(s, pid);
	return pid;
}

int syscount_begin(struct syscount_session *s)
{
	switch (s->method) {
	case SYSCOUNT_PERF:
		return syscount_perf_begin(s);
	case SYSCOUNT_PTRACE:
		syscount_ptrace_mark(SYSCOUNT_MARK_BEGIN);
		return 0;
	default:
		return 0;
	}
}

int syscount_end(struct syscount_session *s, struct syscount *out)
{
	switch (s->method) {
	case SYSCOUNT_PERF:
		return syscount_perf_end(s, out);
	case SYSCOUNT_PTRACE:
		syscount_ptrace_mark(SYSCOUNT_MARK_END);
		syscount_set_invalid(out, "ptrace", "counted by the tracing parent in syscount_wait");
		return 0;
	default:
		syscount_set_invalid(out, "n/a", s->why);
		return 0;
	}
}

int syscount_wait(struct syscount_session *s, pid_t pid, int *status,
		  struct rusage *ru, struct syscount *out)
{
	struct rusage r;
	int st;

	if (s->method == SYSCOUNT_PTRACE && pid == s->child)
		return syscount_ptrace_wait(s, pid, status, ru, out);
	while (wait4(pid, &st, 0, &r) < 0)
		if (errno != EINTR)
			return -errno;
	if (status)
		*status = st;
	if (ru)
		*ru = r;
	if (s->method == SYSCOUNT_OFF && out)
		syscount_set_invalid(out, "n/a", s->why);
	return 0;
}
