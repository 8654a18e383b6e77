/* SPDX-License-Identifier: MIT */
/*
 * summary.h - from a case's runs to the figures of its row: statistics of
 * the verified runs, the class of work it does, its ratio to the fastest
 * comparable row and its share of the machine's limit.
 */
#ifndef COPYBENCH_SUMMARY_H
#define COPYBENCH_SUMMARY_H

#include <stdbool.h>

#include "lib/modes.h"
#include "lib/stats.h"
#include "run/runner.h"

/*
 * What kind of work a row measures. Only page-cache copies are ranked
 * against each other; the others are shown apart and never set the pace.
 */
enum case_class {
	CLASS_PAGE_CACHE,	/* bytes copied through the page cache */
	CLASS_DEVICE,		/* device I/O around the page cache (direct) */
	CLASS_CLONE,		/* the filesystem shared extents: no bytes moved */
	CLASS_LIMIT,		/* a machine-limit row */
	CLASS_COMMAND,		/* a --command: a whole process, start-up included */
};

struct case_summary {
	struct stats st;	/* of wall_ns, counted runs only */
	size_t verified;	/* runs verified, of c->nruns recorded */
	size_t retried;		/* runs disturbed and run again */
	size_t counted;		/* verified and not retried: the statistics' */
	size_t outliers;	/* counted runs far from the median */
	double mib_per_s;	/* size / median */
	double files_per_s;	/* trees: files / median; 0 elsewhere */
	enum case_class cls;
	double ratio;		/* median / fastest page-cache median of its
				 * group (command rows too, which never set
				 * it); 0: not ranked (another class) */
	double ratio_lo, ratio_hi; /* the ratio's 95 % interval from both
				 * medians' intervals (this row's over the
				 * pace row's); 0: none (no interval on either
				 * side, or this row sets the pace) */
	double user_ns, sys_ns;	/* medians */
	double pct_of_limit;	/* MiB/s vs its limit row; <0: none */
	const char *limit_row;	/* the limit row divided by, or NULL */
	double pct_of_concurrent; /* a single-stream row: MiB/s vs the fastest
				 * concurrent limit row when that is the
				 * fastest of its resource; <0: none */
	const char *concurrent_row; /* that row, or NULL */
	struct modes modes;	/* of wall_ns, counted runs: one mode or two */
	double ci_pct;		/* half the median's interval (st.ci_lo..ci_hi)
				 * over the median, in %; <0: no interval */
	unsigned rank;		/* 1 = fastest of its group and class among the
				 * ranked rows (page-cache, limit); 0: not ranked */
	bool tied;		/* ranked, and its interval overlaps the one
				 * ranked just above or below (or either has
				 * none): the two places are not settled */
};

/* Fills sums[i] for r->cases[i], and marks the runs that are outliers. */
void report_summarize(struct runner *r, struct case_summary *sums);
/* Same workload, dataset, size, cache state and part size: one table... */
bool case_same_cell(const struct bench_case *a, const struct bench_case *b);
/* ...on one filesystem: the rows ranked together. */
bool case_same_group(const struct bench_case *a, const struct bench_case *b);
/* The environment c's rows record: its filesystem's, or the run's. */
const struct sysinfo_env *case_env(const struct runner *r, const struct bench_case *c);
/* "page-cache", "device", "clone", "limit" or "command". */
const char *case_class_name(enum case_class cls);

#endif
