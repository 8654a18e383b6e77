// SPDX-License-Identifier: MIT
/* child.c - a fresh child process per measured run (see child.h). */
#include "child.h"
#include "disturb.h"
#include "host/interrupt.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a child tells its parent. */
struct child_report {
	int err;
	uint64_t wall_ns;
	uint64_t cpu_wait_ns, cpu_run_ns;
	struct rusage ru_timed;
	struct disturb_probe d0, d1;
	struct copy_facts facts;
	char msg[sizeof(((struct child_result *)0)->msg)];
	struct syscount counts;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The child inherits the parent's heap, and with it glibc's mmap threshold,
 * which the parent's earlier frees of large blocks raised: a strategy's
 * buffer would come from the heap or from mmap depending on what the parent
 * did before (one brk more or less in the counts, another page offset in
 * the copy). Put the allocator back where a fresh process has it.
 */
static void fresh_allocator(void)
{
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	malloc_trim(0);
}

static int64_t tv_us(struct timeval tv)
{
	return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

static struct timeval us_tv(int64_t us)
{
	return (struct timeval){ .tv_sec = us / 1000000, .tv_usec = us % 1000000 };
}

/* This process's and its reaped children's usage so far, summed. */
static void usage_now(struct rusage *out)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	*out = self;
	out->ru_utime = us_tv(tv_us(self.ru_utime) + tv_us(kids.ru_utime));
	out->ru_stime = us_tv(tv_us(self.ru_stime) + tv_us(kids.ru_stime));
	out->ru_minflt += kids.ru_minflt;
	out->ru_majflt += kids.ru_majflt;
	out->ru_nvcsw += kids.ru_nvcsw;
	out->ru_nivcsw += kids.ru_nivcsw;
}

/* What the timed region used: b - a (the largest RSS is b's, whole-life). */
static void usage_between(const struct rusage *a, const struct rusage *b, struct rusage *out)
{
	*out = *b;
	out->ru_utime = us_tv(tv_us(b->ru_utime) - tv_us(a->ru_utime));
	out->ru_stime = us_tv(tv_us(b->ru_stime) - tv_us(a->ru_stime));
	out->ru_minflt = b->ru_minflt - a->ru_minflt;
	out->ru_majflt = b->ru_majflt - a->ru_majflt;
	out->ru_nvcsw = b->ru_nvcsw - a->ru_nvcsw;
	out->ru_nivcsw = b->ru_nivcsw - a->ru_nivcsw;
}

/* The child: untimed setup, the timed run, untimed teardown, report, exit. */
static void __attribute__((noreturn))
child_main(const struct child_work *w, struct syscount_session *sc, int wfd)
{
	struct child_report rep;
	uint64_t t0, t1;

	interrupt_reset_child();
	fresh_allocator();
	memset(&rep, 0, sizeof(rep));
	rep.err = w->setup ? w->setup(w->arg) : 0;
	if (!rep.err) {
		uint64_t wait0 = 0, run0 = 0, wait1 = 0, run1 = 0;
		struct rusage u0, u1;

		disturb_snapshot(&rep.d0);
		disturb_thread_times(&wait0, &run0);
		usage_now(&u0);
		if (sc)
			syscount_begin(sc);
		t0 = now_ns();
		rep.err = w->run(w->arg);
		t1 = now_ns();
		if (sc)
			syscount_end(sc, &rep.counts);
		usage_now(&u1);
		disturb_snapshot(&rep.d1);
		rep.wall_ns = t1 - t0;
		usage_between(&u0, &u1, &rep.ru_timed);
		if (disturb_thread_times(&wait1, &run1)) {
			rep.cpu_wait_ns = wait1 - wait0;
			rep.cpu_run_ns = run1 - run0;
		}
		if (w->teardown)
			w->teardown(w->arg);
	}
	rep.facts = w->facts ? *w->facts : (struct copy_facts){ .fixed_buffers = -1 };
	if (w->msg)
		snprintf(rep.msg, sizeof(rep.msg), "%s", w->msg);
	_exit(full_write(wfd, &rep, sizeof(rep)) ? 3 : 0);
}

/* Reads the child's report; false when it sent none (it died). */
static bool read_report(int fd, struct child_report *rep)
{
	char *p = (char *)rep;
	size_t got = 0;

	while (got < sizeof(*rep)) {
		ssize_t n = read(fd, p + got, sizeof(*rep) - got);

		if (n < 0 && errno == EINTR) {
			if (interrupt_signal)
				return false;
			continue;
		}
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

/* Kills the child and the process group it started, if any. */
static void kill_child(const struct child_work *w, pid_t pid)
{
	kill(pid, SIGKILL);
	if (w->group && *w->group > 0)
		kill(-*w->group, SIGKILL);
}

/* Waits for the child; on an interruption, kills it first. */
static int reap(const struct child_work *w, struct syscount_session *sc, pid_t pid,
		struct child_result *res, struct syscount *traced)
{
	for (;;) {
		pid_t got;

		if (interrupt_signal)
			kill_child(w, pid);
		if (sc && syscount_counted_by_parent(sc))
			return syscount_wait(sc, pid, &res->status, &res->ru, traced) < 0 ? -ECHILD : 0;
		got = wait4(pid, &res->status, 0, &res->ru);
		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return -errno;
	}
}

static void take_report(struct child_result *res, const struct child_report *rep,
			struct syscount_session *sc, const struct syscount *traced)
{
	res->err = rep->err;
	res->wall_ns = rep->wall_ns;
	res->cpu_wait_ns = rep->cpu_wait_ns;
	res->cpu_run_ns = rep->cpu_run_ns;
	res->ru_timed = rep->ru_timed;
	res->d0 = rep->d0;
	res->d1 = rep->d1;
	res->facts = rep->facts;
	res->counts = rep->counts;
	snprintf(res->msg, sizeof(res->msg), "%s", rep->msg);
	if (sc && syscount_counted_by_parent(sc))
		res->counts = *traced;
}

int child_run(const struct child_work *w, struct syscount_session *sc,
	      struct child_result *res)
{
	struct child_report rep;
	struct syscount traced = { 0 };
	int fds[2], err;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	memset(&rep, 0, sizeof(rep));
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = sc ? syscount_fork(sc) : fork();
	if (pid < 0) {
		err = -errno;
		goto out_close_pipe;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(w, sc, fds[1]);
	}
	close(fds[1]);
	fds[1] = -1;
	/* Reap first: a traced child is stopped at every syscall until the
	 * tracer's wait loop lets it go; its small report waits in the pipe. */
	err = reap(w, sc, pid, res, &traced);
	if (err)
		goto out_close_pipe;
	res->reported = read_report(fds[0], &rep);
	if (res->reported)
		take_report(res, &rep, sc, &traced);
	if (interrupt_signal)
		err = -EINTR;
out_close_pipe:
	if (fds[1] >= 0)
		close(fds[1]);
	close(fds[0]);
	return err;
}

bool child_ok(const struct child_result *res)
{
	return res->reported && !res->err && WIFEXITED(res->status) &&
	       WEXITSTATUS(res->status) == 0;
}

bool child_describe(const struct child_result *res, const char *subject,
		    char *why, size_t n)
{
	if (WIFSIGNALED(res->status)) {
		int sig = WTERMSIG(res->status);
		const char *abbrev = sigabbrev_np(sig);

		snprintf(why, n, "%s was killed by %s%s%s", subject, abbrev ? "SIG" : "",
			 abbrev ? abbrev : "a signal",
			 sig == SIGBUS ? " (the source shrank during the copy, or the destination's filesystem is full)" : "");
		return true;
	}
	if (!res->reported) {
		snprintf(why, n, "%s exited with status %d without a report", subject,
			 WIFEXITED(res->status) ? WEXITSTATUS(res->status) : -1);
		return true;
	}
	if (res->err == -EFAULT) {
		snprintf(why, n, "the source shrank during the copy (EFAULT: a write from its mapping went past its end)");
		return true;
	}
	return false;
}
