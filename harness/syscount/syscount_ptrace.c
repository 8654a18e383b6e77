// SPDX-License-Identifier: MIT
/*
 * syscount_ptrace.c - counting by tracing the child (see syscount.h).
 *
 * The parent traces the child (PTRACE_TRACEME + SIGSTOP) and every thread
 * and process it starts, stops each at syscall entry and counts the entries
 * of all tracees between the begin and end markers. The markers are
 * getppid() calls whose first two argument registers hold SYSCOUNT_MAGIC and
 * 1 (begin) or 2 (end); getppid ignores its arguments, so they only serve as
 * a signature the tracer reads with PTRACE_GET_SYSCALL_INFO. The markers
 * themselves are not counted.
 */
#include "syscount_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYSCOUNT_PTRACE_OPTIONS (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | \
	PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | \
	PTRACE_O_EXITKILL)

/* Can this process trace a child? Forks a throwaway one to find out. */
int syscount_ptrace_probe(char *why, size_t n)
{
	int status, err = 0;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(errno & 0x7f);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &status, __WALL) != pid) {
		err = -errno;
		snprintf(why, n, "ptrace probe: waitpid: %s", strerror(errno));
		kill(pid, SIGKILL);
	} else if (WIFEXITED(status)) {
		err = WEXITSTATUS(status) ? -WEXITSTATUS(status) : -ECHILD;
		snprintf(why, n, "ptrace(PTRACE_TRACEME): %s", strerror(-err));
		return err;
	} else if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)SYSCOUNT_PTRACE_OPTIONS)) {
		err = -errno;
		snprintf(why, n, "ptrace(PTRACE_SETOPTIONS): %s", strerror(errno));
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR)
		;
	return err;
}

static struct syscount_tracee *syscount_tracee_find(struct syscount_session *s,
						    pid_t tid)
{
	size_t i;

	for (i = 0; i < s->ntracees; i++)
		if (s->tracees[i].tid == tid)
			return &s->tracees[i];
	return NULL;
}

static struct syscount_tracee *syscount_tracee_add(struct syscount_session *s,
						   pid_t tid, bool started)
{
	struct syscount_tracee *t = syscount_tracee_find(s, tid);

	if (t)
		return t;
	if (s->ntracees == s->cap_tracees) {
		size_t cap = s->cap_tracees ? 2 * s->cap_tracees : 16;
		void *p = realloc(s->tracees, cap * sizeof(*s->tracees));

		if (!p)
			return NULL;
		s->tracees = p;
		s->cap_tracees = cap;
	}
	t = &s->tracees[s->ntracees++];
	t->tid = tid;
	t->started = started;
	return t;
}

static void syscount_tracee_remove(struct syscount_session *s, pid_t tid)
{
	struct syscount_tracee *t = syscount_tracee_find(s, tid);

	if (t)
		*t = s->tracees[--s->ntracees];
}

static void syscount_trace_fail(struct syscount_session *s, const char *what, int err)
{
	if (s->trace_err)
		return;
	s->trace_err = err;
	snprintf(s->trace_why, sizeof(s->trace_why), "%s: %s", what, strerror(err));
}

/* A syscall-entry stop: a marker switches counting, anything else counts. */
static void syscount_trace_entry(struct syscount_session *s, pid_t tid)
{
	struct __ptrace_syscall_info info;
	struct syscount *c = &s->counts;
	long nr;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(info), &info) <= 0) {
		syscount_trace_fail(s, "ptrace(PTRACE_GET_SYSCALL_INFO)", errno);
		return;
	}
	if (info.op != PTRACE_SYSCALL_INFO_ENTRY)
		return;
	nr = (long)info.entry.nr;
	if (nr == SYS_getppid && info.entry.args[0] == SYSCOUNT_MAGIC) {
		if (info.entry.args[1] == SYSCOUNT_MARK_BEGIN) {
			memset(c, 0, sizeof(*c));
			s->counting = s->saw_begin = true;
			s->saw_end = false;
			return;
		}
		if (info.entry.args[1] == SYSCOUNT_MARK_END) {
			s->counting = false;
			s->saw_end = true;
			return;
		}
	}
	if (!s->counting)
		return;
	c->total++;
	if (nr >= 0 && nr < SYSCOUNT_NR_LIMIT && s->nr_index[nr] >= 0)
		c->by_name[s->nr_index[nr]]++;
	else
		c->other++;
}

/* Decides what one stop means and which signal, if any, to deliver. */
static int syscount_trace_stop(struct syscount_session *s, pid_t tid, int status)
{
	struct syscount_tracee *t = syscount_tracee_find(s, tid);
	int sig = WSTOPSIG(status), event = status >> 16;
	unsigned long msg;
	siginfo_t si;

	if (!t)
		t = syscount_tracee_add(s, tid, false);
	if (!t)
		syscount_trace_fail(s, "tracking a new task", ENOMEM);
	if (sig == (SIGTRAP | 0x80)) {
		syscount_trace_entry(s, tid);
		return 0;
	}
	if (event) {
		if ((event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
		     event == PTRACE_EVENT_CLONE) &&
		    !ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) &&
		    !syscount_tracee_add(s, (pid_t)msg, false))
			syscount_trace_fail(s, "tracking a new task", ENOMEM);
		return 0;
	}
	if (t && !t->started && sig == SIGSTOP) {
		t->started = true;	/* the stop every new tracee begins with */
		return 0;
	}
	if (ptrace(PTRACE_GETSIGINFO, tid, NULL, &si))
		return 0;		/* group-stop: let it run on */
	return sig;
}

/* Fills *out from what the tracer saw. */
static void syscount_trace_result(struct syscount_session *s, struct syscount *out)
{
	if (s->trace_err)
		syscount_set_invalid(out, "ptrace", s->trace_why);
	else if (!s->saw_begin)
		syscount_set_invalid(out, "ptrace", "the child never reached syscount_begin");
	else if (!s->saw_end)
		syscount_set_invalid(out, "ptrace", "the child never reached syscount_end");
	else {
		*out = s->counts;
		out->valid = true;
		snprintf(out->method, sizeof(out->method), "ptrace");
	}
}

volatile sig_atomic_t *syscount_stop;

/* Bench was interrupted: every traced task is killed (the wait loop reaps
 * them). */
static void kill_tracees(struct syscount_session *s)
{
	for (size_t i = 0; i < s->ntracees; i++)
		kill(s->tracees[i].tid, SIGKILL);
}

/*
 * Runs the traced tree until the child and every task it started have
 * exited. The child's own wait4 status and rusage are returned.
 */
int syscount_ptrace_wait(struct syscount_session *s, pid_t pid, int *status,
			 struct rusage *ru, struct syscount *out)
{
	bool child_done = false, killed = false;
	struct rusage r;
	int st, sig;
	pid_t tid;

	while (!child_done || s->ntracees) {
		tid = wait4(-1, &st, __WALL, &r);
		if (tid < 0) {
			if (errno == EINTR && !killed && syscount_stop && *syscount_stop) {
				kill_tracees(s);
				killed = true;
			}
			if (errno == EINTR)
				continue;
			if (errno == ECHILD && child_done)
				break;
			return -errno;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			syscount_tracee_remove(s, tid);
			if (tid == pid) {
				child_done = true;
				if (status)
					*status = st;
				if (ru)
					*ru = r;
			}
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		sig = syscount_trace_stop(s, tid, st);
		ptrace(PTRACE_SYSCALL, tid, NULL, (void *)(long)sig);
	}
	if (out)
		syscount_trace_result(s, out);
	return 0;
}

/* Parent side of syscount_fork: takes the child from its first stop. */
static int syscount_ptrace_take(struct syscount_session *s, pid_t pid)
{
	int status;

	s->child = pid;
	s->ntracees = 0;
	s->counting = s->saw_begin = s->saw_end = false;
	s->trace_err = 0;
	memset(&s->counts, 0, sizeof(s->counts));
	while (waitpid(pid, &status, __WALL | WUNTRACED) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFSTOPPED(status))
		return -ECHILD;
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)SYSCOUNT_PTRACE_OPTIONS)) {
		/* the child could not be traced: let it run uncounted */
		syscount_trace_fail(s, "tracing the child", errno);
		kill(pid, SIGCONT);
		return 0;
	}
	if (!syscount_tracee_add(s, pid, true))
		syscount_trace_fail(s, "tracking the child", ENOMEM);
	ptrace(PTRACE_SYSCALL, pid, NULL, NULL);
	return 0;
}

void syscount_ptrace_attach(struct syscount_session *s, pid_t pid)
{
	int err = syscount_ptrace_take(s, pid);

	if (err)
		syscount_trace_fail(s, "waiting for the child to stop", -err);
}

void syscount_ptrace_child(void)
{
	/* if TRACEME fails the stop is a plain job-control stop: the parent
	 * finds it cannot trace and resumes us */
	ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	raise(SIGSTOP);
}

void syscount_ptrace_mark(unsigned long mark)
{
	syscall(SYS_getppid, SYSCOUNT_MAGIC, mark);
}
