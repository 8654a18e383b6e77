/* SPDX-License-Identifier: MIT */
/*
 * estimate.h - how long a run of a case takes on this machine, its work
 * around the clock included (cache state, fork, verification, removal):
 * what --budget checks its minimum against before any run, what --dry-run
 * adds up and what the progress line counts down from.
 *
 * The figure is a rate per workload, MiB/s of the run's whole cost (trees:
 * files/s) plus a fixed cost per run. A rate measured here beats a guess:
 * estimate_learn() takes them from an earlier results folder's runs.csv
 * (each run's cost is the time to the next run's start), and the
 * defaults (docs/budget.md) stand in for the workloads it did not run.
 */
#ifndef COPYBENCH_ESTIMATE_H
#define COPYBENCH_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "case.h"

#define ESTIMATE_WORKLOADS 16

struct estimate_rate {
	char workload[32];
	double mib_per_s;	/* bytes moved per second of a run's whole cost */
	double files_per_s;	/* trees: files per second of it */
	size_t runs;		/* runs measured it; 0: the default */
	double retried;		/* the share of those runs disturbed and run
				 * again (runs.csv's retried), 0 by default */
};

/* A run of one size measured here: its whole cost, which beats a rate when
 * a case of that very size comes again (a tree run's fixed costs, its
 * syncfs, cache check and walk, are no rate of its files). */
#define ESTIMATE_SIZED 64
struct estimate_sized {
	char workload[48];	/* a rate's name: "tree", "copy/cold" */
	uint64_t size, files;
	double run_s;		/* the mean whole cost of its runs */
	size_t runs;
};

struct estimate {
	struct estimate_rate rates[ESTIMATE_WORKLOADS];
	size_t nrates;
	struct estimate_sized sized[ESTIMATE_SIZED];
	size_t nsized;
	char from[512];		/* where the measured rates came from, or "" */
};

/* The defaults only. */
void estimate_init(struct estimate *e);
/* Seconds one run of c takes, its work around the clock included: the
 * measured cost of runs of its workload and size when there is one, else
 * its workload's rate. */
double estimate_run_s(const struct estimate *e, const struct bench_case *c);
/*
 * The runs it takes to keep `measured` of c: a disturbed run is run again,
 * so measured / (1 - the share retried), the share capped at
 * ESTIMATE_RETRIED_MAX.
 */
#define ESTIMATE_RETRIED_MAX 0.5
double estimate_runs(const struct estimate *e, const struct bench_case *c, unsigned measured);
/*
 * Replaces the rates of the workloads a runs.csv holds by the ones its runs
 * took: the cost of a run is the time from its start to the start of the
 * next run (start_ns of seq + 1), the work around its clock included; a
 * workload's rate is its runs' bytes (trees: files) over their cost, and
 * the share of them run again its `retried` (when runs.csv says). 0, or
 * -errno when the file cannot be read (the rates stay as they were).
 */
int estimate_learn(struct estimate *e, const char *runs_csv);
/*
 * Learns from the newest `folders` results folders of host under root
 * (results/<UTC stamp>-<host>), newest first, each only the workloads none
 * newer had: the newest rate of each workload. How many folders taught it
 * a rate.
 */
size_t estimate_learn_recent(struct estimate *e, const char *root, const char *host,
			     size_t folders);
/*
 * The newest results folder of host under root (results/<UTC stamp>-<host>,
 * as bench names them) with a runs.csv: its path in out; false when none.
 */
bool estimate_latest_results(const char *root, const char *host, char *out, size_t n);
/*
 * The end of an invocation: removing the kept outputs (a tree's, kept so
 * that no run writes where one was just removed), their files at
 * ESTIMATE_REMOVE_PER_S (many removals in flight) and their folders one at
 * a time, ESTIMATE_REMOVE_OUTPUT_S an output (a generated tree's 111 and
 * its own), beyond the table it overlaps, then the results, the table and
 * the sources' check (docs/budget.md has the measurements).
 */
#define ESTIMATE_REMOVE_PER_S 50000.0
#define ESTIMATE_REMOVE_OUTPUT_S 0.028
#define ESTIMATE_FINISH_S 0.5
/* Taking the syscall counters down after the counting round (RCU). */
#define ESTIMATE_COUNTERS_S 2.0
/* One kept output of `files` files. */
double estimate_remove_s(const struct estimate *e, uint64_t files);
double estimate_finish_s(const struct estimate *e, uint64_t kept_files, uint64_t kept_outputs);
/* The rate of workload wl (the default when none was measured). */
const struct estimate_rate *estimate_rate_of(const struct estimate *e, const char *wl);

#endif
