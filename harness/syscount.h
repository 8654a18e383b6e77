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
 */
#ifndef COPYBENCH_SYSCOUNT_H
#define COPYBENCH_SYSCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* The syscalls counted one by one; everything else is summed as "other". */
#define SYSCOUNT_NAMES_MAX 48

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
 * Picks the mechanism (AUTO: perf if permitted, else ptrace; the env var
 * COPYBENCH_SYSCOUNT=perf|ptrace|off overrides). 0 or -errno, why filled.
 */
int syscount_session_new(struct syscount_session **out, enum syscount_method m,
			 char *why, size_t n);
void syscount_session_free(struct syscount_session *s);
const char *syscount_session_method(const struct syscount_session *s);

pid_t syscount_fork(struct syscount_session *s);
int syscount_begin(struct syscount_session *s);
int syscount_end(struct syscount_session *s, struct syscount *out);
int syscount_wait(struct syscount_session *s, pid_t pid, int *status,
		  struct rusage *ru, struct syscount *out);

#endif
