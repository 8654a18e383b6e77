/* SPDX-License-Identifier: MIT */
/*
 * child.h - the one place bench runs measured work: a fresh child process
 * per run, timed inside, its system calls counted on request, reaped with
 * its rusage. `bench` runs and `bench copy` both go through it.
 *
 * The child resets the interrupt handlers, calls setup() (untimed), reads
 * CLOCK_MONOTONIC, calls run(), reads the clock again, calls teardown()
 * (untimed), sends a small report through a pipe and exits. With a counting
 * session only run() is counted. The parent reaps the child first (a traced
 * child runs only while its tracer waits), then reads the report.
 */
#ifndef COPYBENCH_CHILD_H
#define COPYBENCH_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "disturb.h"
#include "strategies/strategy.h"
#include "syscount/syscount.h"

struct child_work {
	int (*setup)(void *arg);	/* untimed; NULL: nothing to do */
	int (*run)(void *arg);		/* timed (and counted): 0 or -errno */
	void (*teardown)(void *arg);	/* untimed, after a successful setup */
	void *arg;
	/* What the strategy chose, sent with the report; NULL: nothing. */
	const struct copy_facts *facts;
	/* A detail the callbacks wrote for an error, sent with the report;
	 * NULL when they write none. */
	const char *msg;
	/* A process group the child may start (a --command), in memory shared
	 * with the parent: once non-zero, killed with the child when bench is
	 * interrupted. NULL: none. */
	const volatile int *group;
};

struct child_result {
	bool reported;		/* the child sent its report */
	int err;		/* setup's or run's 0 or -errno */
	int status;		/* wait status */
	struct rusage ru;	/* the child's, its own children included */
	uint64_t wall_ns;	/* run() alone */
	uint64_t cpu_wait_ns;	/* run()'s thread waiting for a CPU (schedstat) */
	uint64_t cpu_run_ns;	/* run()'s thread on a CPU (schedstat) */
	/* Inside the clock only: the child's and the children it reaped
	 * there (times, faults, switches; ru_maxrss is the whole child's). */
	struct rusage ru_timed;
	/* The machine just before and just after run(), read by the child. */
	struct disturb_probe d0, d1;
	struct copy_facts facts;	/* child_work.facts after run() */
	struct syscount counts;	/* with a session: run()'s system calls */
	char msg[1024];		/* child_work.msg, whole: it may name two paths */
};

/*
 * Runs w in a fresh child (forked through sc when counting; sc NULL: not
 * counted) and waits for it, killing it if bench is interrupted meanwhile.
 * 0 when the child ran (its outcome is in *res), -EINTR when interrupted, or
 * -errno when it could not be forked or reaped.
 */
int child_run(const struct child_work *w, struct syscount_session *sc,
	      struct child_result *res);

/* Did the child run to the end and report success? */
bool child_ok(const struct child_result *res);

/*
 * The reason a child failed that only the child's death tells (a signal, no
 * report, EFAULT from a mapping past a shrunken source), as a sentence about
 * subject ("the run", "the copy"), into why; false when the failure is an
 * ordinary error code for the caller to word.
 */
bool child_describe(const struct child_result *res, const char *subject,
		    char *why, size_t n);

#endif
