/* SPDX-License-Identifier: MIT */
/*
 * syscount.h - exact system-call counts of the timed work.
 *
 * Two mechanisms, chosen at run time:
 *   perf   - the kernel's own counters: perf_event_open on the syscall
 *            tracepoints in counting mode, opened by the child itself with
 *            inherit=1 so threads and processes it starts are counted too.
 *   ptrace - the parent traces the child (and its threads/children) and
 *            counts syscall entries between the child's begin/end markers.
 * If neither can run, the counts are "n/a" with a reason, never estimated.
 *
 * Usage by the runner, for a counting run:
 *   parent: pid = syscount_fork(&sess);            (instead of fork())
 *   child:  syscount_begin(&sess);  ...timed work...  syscount_end(&sess, &c);
 *           (child sends c to the parent through its result pipe in perf
 *            mode; in ptrace mode the parent's copy is authoritative)
 *   parent: syscount_wait(&sess, pid, &status, &rusage, &c);  (instead of wait4)
 *
 * Rules that follow from the mechanisms:
 * - Call syscount_wait before reading the child's result pipe. Under ptrace
 *   the child stops at every syscall until the parent's syscount_wait loop
 *   resumes it; a result smaller than the pipe buffer (64 KiB) stays
 *   readable after the child has exited, in both modes.
 * - Under ptrace, syscount_fork and syscount_wait must run in the same
 *   thread (the tracer), and syscount_wait reaps with wait4(-1, __WALL): the
 *   caller must have no other children running meanwhile. It returns once
 *   the child and every task it started have exited; status and rusage are
 *   the child's own wait4 result (its rusage includes the children it
 *   waited for, i.e. RUSAGE_CHILDREN semantics for the grandchildren).
 *   The begin/end markers are getppid() calls carrying 0x636f707962656e63
 *   ("copybenc") and 1 or 2 in their first two argument registers; they are
 *   not counted. Every syscall entry of every traced task in between is.
 *   A group-stop (SIGSTOP from outside) does not keep a tracee stopped.
 * - Under perf, counted are the child's main thread and the threads and
 *   processes it starts after syscount_fork; the counters' own control calls
 *   are subtracted exactly (the disabling ioctl is the only one they see).
 *   The parent keeps an idle copy of the counters open for the session's
 *   life, because the kernel waits an RCU grace period when the last perf
 *   user of a tracepoint goes, so each counted child exits at once.
 *   syscount_session_free returns at once too: a detached process (not a
 *   child of the caller) holds the last copies and pays the grace periods,
 *   seconds in all, after the caller has gone on (docs/syscount.md).
 * - Tracepoint ids come from tracefs. When it is not mounted and the process
 *   is root, syscount_session_new mounts it at /sys/kernel/tracing (and
 *   leaves it mounted); otherwise AUTO falls back to ptrace.
 */
#ifndef COPYBENCH_SYSCOUNT_H
#define COPYBENCH_SYSCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* The syscalls counted one by one; everything else is summed as "other". */
#define SYSCOUNT_NAMES_MAX 80

struct syscount {
	bool valid;
	char method[8];		/* "perf", "ptrace" or "n/a" */
	char why[160];		/* when !valid: the reason */
	uint64_t total;
	uint64_t by_name[SYSCOUNT_NAMES_MAX];	/* indexed like syscount_names */
	uint64_t other;
};

extern const char *const syscount_names[];
extern const size_t syscount_nnames;

enum syscount_method { SYSCOUNT_AUTO, SYSCOUNT_PERF, SYSCOUNT_PTRACE, SYSCOUNT_OFF };

struct syscount_session;	/* opaque; syscount.c defines it */

/*
 * Picks the mechanism. AUTO: perf if it works here, else ptrace (why then
 * says why perf could not run), else a session whose counts are "n/a" with
 * the reasons of both (still 0). OFF: "n/a", "counting disabled". An
 * explicit PERF or PTRACE that cannot run returns -errno with why filled.
 * The environment variable COPYBENCH_SYSCOUNT=perf|ptrace|off|auto overrides
 * m; another value is -EINVAL. why is "" when there is nothing to say.
 */
int syscount_session_new(struct syscount_session **out, enum syscount_method m,
			 char *why, size_t n);
void syscount_session_free(struct syscount_session *s);
/*
 * Like syscount_session_free, but returns only once the kernel has dropped
 * the counters: the syscall tracepoints are then unregistered and no task
 * on the machine takes the slow system-call path for them any more (with
 * perf this waits for an RCU grace period, about 2 s). Call it before timed
 * runs that must not pay for counting.
 */
void syscount_session_end(struct syscount_session *s);
const char *syscount_session_method(const struct syscount_session *s);
/* True when the parent's counts (syscount_wait) are the real ones (ptrace),
 * false when the child's (syscount_end) are. */
bool syscount_counted_by_parent(const struct syscount_session *s);

/* fork(); in the child, perf counters are open (disabled) on return. */
pid_t syscount_fork(struct syscount_session *s);
/* In the child: start counting. 0 or -errno (counts will say why). */
int syscount_begin(struct syscount_session *s);
/*
 * In the child: stop counting and fill *out. perf: the counts. ptrace:
 * valid=false ("counted by the tracing parent"), the parent's are the real
 * ones. n/a: valid=false with the reason.
 */
int syscount_end(struct syscount_session *s, struct syscount *out);
/*
 * When set, a ptrace wait (syscount_wait) polls *syscount_stop whenever a
 * signal interrupts it and, once it is non-zero, kills every task it
 * traces (SIGKILL) and reaps them: a signal handler's flag, so that an
 * interrupted bench does not wait for a program that hangs.
 */
extern volatile sig_atomic_t *syscount_stop;

/*
 * In the parent, instead of wait4(pid). ptrace: fills *out with the counts.
 * perf: plain wait4, *out untouched (take the child's). n/a: *out invalid
 * with the reason. status, ru and out may be NULL. 0 or -errno.
 */
int syscount_wait(struct syscount_session *s, pid_t pid, int *status,
		  struct rusage *ru, struct syscount *out);

#endif
