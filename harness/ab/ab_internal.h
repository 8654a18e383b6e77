// SPDX-License-Identifier: MIT
/*
 * ab_internal.h - what the files of bench ab's room share: the run, its
 * cases, the two workers.
 */
#ifndef COPYBENCH_AB_INTERNAL_H
#define COPYBENCH_AB_INTERNAL_H

#ifndef COPYBENCH_ROOM_AB
#error "ab_internal.h is private to harness/ab/; include ab.h"
#endif

#include "ab.h"
#include "lib/abstat.h"

#include <limits.h>
#include <sys/types.h>

#define AB_MAX_CASES 32

/* One copy as the orchestrator saw it. */
struct ab_copy {
	double wall;		/* request written to reply read, this bench's clock */
	double wait;		/* the worker's run-queue wait over that time (schedstat) */
	double own;		/* the worker's own figure */
	double ns;		/* the time compared (ab_clock) */
};

/* A worker: one build's `copy --serve`, its pipes, its stderr's file. */
struct ab_worker {
	pid_t pid;
	int to;			/* its stdin */
	int from;		/* its stdout */
	char err_path[PATH_MAX + 16];
	bool dead;
	int reply_ms;		/* how long a reply may take before the worker is stopped */
};

struct ab_case {
	char name[64];
	struct ab_copy *cp[2];	/* per measured round: A's and B's */
	double *logr;		/* ln(B/A) per round */
	long *round;		/* per measured pair: its round, negative when BA */
	size_t n;
	int failed;		/* -1, or the side (0 A, 1 B) that failed */
	char why[640];
	struct ab_stat st;	/* at the case's last look */
	enum ab_verdict v;
	bool decided;		/* a look decided it (or it failed): no more rounds */
	bool b_first;		/* the order of this two-round block's first round */
	size_t disagree[2];	/* copies whose worker figure is out of tolerance */
	size_t shared[2];	/* copies whose output shares extents (a clone) */
};

struct ab_run {
	const struct ab_opts *o;
	struct ab_case c[AB_MAX_CASES];
	size_t ncases;
	struct dataset ds;
	char workdir[PATH_MAX], dst[PATH_MAX + 16];
	struct ab_worker w[2];
	FILE *csv;
	double case_alpha;	/* alpha over the cases (then over the looks: abstat.h) */
	size_t retried;		/* pairs made again */
	unsigned looks;		/* looks made */
	const char *stopped;	/* what ended the rounds */
	double t0;		/* when the invocation started (ab_seconds) */
};

extern const char ab_side_name[2];

/* CLOCK_MONOTONIC in seconds. */
double ab_seconds(void);

/* ab_worker_ctl.c: the orchestrator's end of a worker. */
int ab_worker_start(struct ab_run *r, int side);
void ab_worker_stop(struct ab_worker *w);
/* A new worker in place of side's, ready (its probe of strategy
 * answered): 0, or -1 with why filled. */
int ab_worker_renew(struct ab_run *r, int side, const char *strategy, char *why, size_t wn);
/* Sends one request line to side's worker, reads its reply into
 * reply[0..n); the times around it by this bench's clock. 0, or -1 with
 * why filled: the worker ended (the last line of its stderr), or sent no
 * reply in time and was stopped and started again for the next request. */
int ab_worker_ask(struct ab_run *r, int side, const char *req, char *reply, size_t n,
		  struct ab_copy *cp, char *why, size_t wn);

/* ab_rounds.c */
void ab_rounds(struct ab_run *r);
/* Probes every case's strategy in both workers, once. */
void ab_probe_all(struct ab_run *r);
/* Is a worker figure within tolerance of the outside clock's? */
bool ab_agrees(const struct ab_copy *cp);

/* ab_report.c */
int ab_judge_all(struct ab_run *r);
void ab_write_csv(const struct ab_run *r, bool judged);
int ab_open_csv(struct ab_run *r);

#endif
