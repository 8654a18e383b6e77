/* SPDX-License-Identifier: MIT */
/*
 * syscount_internal.h - what syscount.c (the session, the public API and
 * the choice of method), syscount_perf.c (the tracepoint counters),
 * syscount_ptrace.c (the tracer) and syscount_names.c share. Private to
 * harness/syscount/: another room uses syscount.h.
 */
#ifndef COPYBENCH_SYSCOUNT_INTERNAL_H
#define COPYBENCH_SYSCOUNT_INTERNAL_H

#ifndef COPYBENCH_ROOM_SYSCOUNT
#error "syscount_internal.h is private to harness/syscount/; include syscount.h"
#endif

#include "syscount.h"

#define SYSCOUNT_MAGIC		0x636f707962656e63UL	/* "copybenc" */
#define SYSCOUNT_MARK_BEGIN	1UL
#define SYSCOUNT_MARK_END	2UL
#define SYSCOUNT_NR_LIMIT	1024	/* syscall numbers above are "other" */
#define SYSCOUNT_COUNTERS	(SYSCOUNT_NAMES_MAX + 1)	/* [0] is the total */

/* The numbers this architecture has; a name missing here is never counted. */
struct syscount_sysno {
	const char *name;
	long nr;
};

extern const struct syscount_sysno syscount_sysnos[];
extern const size_t syscount_nsysnos;

struct syscount_tracee {
	pid_t tid;
	bool started;		/* its initial SIGSTOP has been swallowed */
};

struct syscount_session {
	enum syscount_method method;	/* PERF, PTRACE, or OFF for "n/a" */
	char why[160];			/* why the counts are n/a */
	int16_t nr_index[SYSCOUNT_NR_LIMIT];	/* syscall nr -> name index */

	/* perf: counter k counts name cname[k-1]; [0] is the total */
	int ncounters;
	uint64_t tp_id[SYSCOUNT_COUNTERS];
	long tp_filter_nr[SYSCOUNT_COUNTERS];	/* -1: no filter */
	int16_t cname[SYSCOUNT_COUNTERS];
	int fd[SYSCOUNT_COUNTERS];
	int keep_fd[SYSCOUNT_COUNTERS];	/* the parent's idle copy */
	uint64_t base[SYSCOUNT_COUNTERS];
	int open_err;			/* in the child, after syscount_fork */
	char open_why[160];

	/* ptrace: the parent's view */
	pid_t child;
	bool counting, saw_begin, saw_end;
	int trace_err;
	char trace_why[160];
	struct syscount counts;
	struct syscount_tracee *tracees;
	size_t ntracees, cap_tracees;
};

/* syscount.c */
void syscount_set_invalid(struct syscount *c, const char *method, const char *why);
int syscount_name_index(const char *name);

/* syscount_perf.c */
/* Parent: find the tracepoints and open the idle copy. 0 or -errno, why filled. */
int syscount_perf_prepare(struct syscount_session *s, char *why, size_t n);
/* Child, right after fork: open the counting group (errors kept for end). */
void syscount_perf_open_child(struct syscount_session *s);
int syscount_perf_begin(struct syscount_session *s);
int syscount_perf_end(struct syscount_session *s, struct syscount *out);
/* Closes both groups; the idle copy's slow last close is left to a detached process. */
/* Closes the counters; with wait, returns once the kernel has dropped them
 * (the last close waits for an RCU grace period), else leaves that wait to
 * a detached process. */
void syscount_perf_free(struct syscount_session *s, bool wait);

/* syscount_ptrace.c */
/* Can this process trace a child? 0 or -errno, why filled. */
int syscount_ptrace_probe(char *why, size_t n);
/* Child, right after fork: ask to be traced and stop until the parent attaches. */
void syscount_ptrace_child(void);
/* Parent, right after fork: take the child from its first stop. */
void syscount_ptrace_attach(struct syscount_session *s, pid_t pid);
/* Child: the begin (SYSCOUNT_MARK_BEGIN) or end marker the tracer looks for. */
void syscount_ptrace_mark(unsigned long mark);
int syscount_ptrace_wait(struct syscount_session *s, pid_t pid, int *status,
			 struct rusage *ru, struct syscount *out);

#endif
