/* SPDX-License-Identifier: MIT */
/* runner.h - executes cases: one fresh child process per run, interleaved. */
#ifndef COPYBENCH_RUNNER_H
#define COPYBENCH_RUNNER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#include "case.h"
#include "costs.h"
#include "estimate.h"
#include "freed.h"
#include "progress.h"
#include "child/disturb.h"
#include "host/sysinfo.h"
#include "options/options.h"

/* When the invocation ran (CLOCK_REALTIME), and how it ended: meta.json. */
struct meta_times {
	struct timespec start;
	struct timespec end;
	bool interrupted;
};

#define RUNNER_PURGED_MAX 8
struct runner {
	const struct bench_opts *o;
	struct bench_case *cases;
	size_t ncases;
	struct dataset *datasets;
	size_t ndatasets;
	struct sysinfo_env env;
	char workdir[PATH_MAX];		/* private, removed at the end */
	char results[PATH_MAX];		/* the results folder */
	struct meta_times times;
	struct syscount_session *sc;	/* NULL when counting is unavailable
					 * or over (after the counting round) */
	bool counting;			/* counts were taken in this run */
	char sc_why[160];
	unsigned seq;			/* runs so far: names outputs, orders runs */
	uint64_t start_ns;		/* CLOCK_MONOTONIC at the first run */
	uint64_t invoked_ns;		/* and when the invocation began: --budget
					 * counts the whole invocation from it */
	uint64_t kept_files;		/* files of the outputs kept for the end */
	uint64_t kept_outputs;		/* and how many outputs they are */
	struct disturb_probe last_probe;	/* the machine when the last run ended */
	struct progress progress;
	const char *unavailable_note;	/* more lines for the table's
					 * unavailable list (bench --fs) */
	struct costs costs;		/* where the time went */
	struct estimate est;		/* what a run costs here (estimate.h) */
	/* The work directory where bench removed an output of many files
	 * since the last run began; "" none (runner_destination). */
	char freed_in[PATH_MAX];
	pid_t remover;			/* removing the work directory, or 0 */
	/* Flex groups freed lately on an ext4 without a journal: by earlier
	 * invocations (the log in --dir) and by this one (freed.h). */
	struct freed_set freed, freed_now;
	char area[PATH_MAX + 16];	/* where kept outputs go now, or "" */
	/* Filesystems other than the work directory's (bench --fs) where
	 * bench removed kept outputs to make room: it does not steer outputs
	 * from their freed inodes there, so every later run says reused. */
	dev_t purged[RUNNER_PURGED_MAX];
	unsigned npurged;
};

/*
 * One run of c in a fresh child: set and check the cache, fork, time the
 * workload's run(), collect rusage, verify and remove the output. With
 * `counting`, the run also counts syscalls into c->counts and is not
 * recorded as a measurement. 0, or -errno with c->why filled.
 */
int runner_run_once(struct runner *r, struct bench_case *c, bool counting,
		    struct run_result *res);

/*
 * All rounds of all cases, interleaved in a seeded shuffled order per round:
 * first the counting round (when counting), then the counters are removed,
 * then the warm-up rounds and the measured rounds.
 */
int runner_run_all(struct runner *r);

/* The fewest measured runs a case can get with these options (a slow case
 * without --repeat): what bench check will have to judge it. */
unsigned runner_fewest_runs(const struct bench_opts *o);

/* CLOCK_MONOTONIC in ns. */
uint64_t runner_now_ns(void);
/*
 * --budget: the seconds the minimum needs at r->est's rates (the unmeasured
 * rounds and BUDGET_MIN_RUNS measured runs of every case that can run).
 */
double runner_budget_minimum_s(const struct runner *r);
/* --budget: the seconds the invocation still needs after its last run:
 * removing the outputs kept so far, the results and the table. */
double runner_finish_s(const struct runner *r);

/* Makes the private work directory under dir. 0 or -errno. */
int runner_make_workdir(struct runner *r, const char *dir);
/* Removes work directories in dir left by runs that were killed; removed
 * (may be NULL) is told each path. Returns how many. dry: removes nothing,
 * tells and counts what it would remove. */
int runner_remove_stale_workdirs(const char *dir, bool dry, void (*removed)(const char *path));
/* Starts removing the work directory in a child at low priority (after the
 * last run); runner_remove_workdir waits for it. */
void runner_remove_workdir_begin(struct runner *r);
/* Removes the work directory and everything in it, or waits for the child
 * runner_remove_workdir_begin started (and removes what it left). */
void runner_remove_workdir(struct runner *r);
/* The removal's test hook (workdir.c) and the remover's priority. */
#define REMOVAL_TEST_ENV "COPYBENCH_TEST_EVENTS"
#define REMOVAL_IOPRIO_CLASS 2	/* best effort */
#define REMOVAL_IOPRIO_LEVEL 7	/* its lowest */
void runner_test_event(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The destination's state (workdir.c, docs/tree.md "The destination"). */
#define DESTINATION_TEST_ENV "COPYBENCH_TEST_INODES"
bool runner_keeps_output(const struct runner *r, const struct bench_case *c);
void runner_make_room(struct runner *r, const struct bench_case *c, const char *dir);
void runner_note_freed(struct runner *r, const char *dir);
enum destination_state runner_destination(struct runner *r, const struct bench_case *c,
					  const char *dir);

int runner_output_path(struct runner *r, const struct bench_case *c, const char *dir,
		       unsigned seq, char *dst, size_t n, enum destination_state *d);
void runner_inspect_output(const struct runner *r, const struct bench_case *c, const char *dir,
			   unsigned seq, const char *dst, enum destination_state *d);

#endif
