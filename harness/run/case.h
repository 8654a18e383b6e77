/* SPDX-License-Identifier: MIT */
/* case.h - the cases of a run (cells of the experiment matrix) and their runs. */
#ifndef COPYBENCH_CASE_H
#define COPYBENCH_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "datasets/dataset.h"
#include "host/cache.h"
#include "host/sysinfo.h"
#include "strategies/strategy.h"
#include "syscount/syscount.h"
#include "workloads/workload.h"

/* What the destination was when a run began (runner_destination). */
enum destination_state {
	DESTINATION_NONE,	/* an output of one file: not tracked */
	DESTINATION_FRESH,	/* nothing freed there since the previous run */
	DESTINATION_REUSED,	/* an output of many files freed there just before */
};

/* "", "fresh" or "reused". */
const char *runner_destination_name(enum destination_state d);

/* One measured execution of a case. */
struct run_result {
	unsigned rep;		/* 1..N */
	unsigned seq;		/* position in the execution order of all runs, 1.. */
	uint64_t start_ns;	/* when the run began, since the first run */
	uint64_t wall_ns;
	uint64_t user_ns;
	uint64_t sys_ns;
	long max_rss_kb;
	long minflt, majflt, nvcsw, nivcsw;	/* inside the clock */
	long child_minflt;	/* the child's whole life */
	double resident_pct;	/* source residency just before the run */
	uint64_t dirty_kb;	/* dirty pages of the machine just before */
	uint64_t writeback_kb;	/* pages under writeback just before */
	uint64_t syncfs_ns;	/* the untimed syncfs of the output's filesystem before */
	uint64_t written_kb;	/* written back machine-wide inside the clock */
	/* Its output plus the dirty memory at its start exceed the kernel's
	 * dirty-background threshold: writeback (and perhaps throttling) ran
	 * inside the clock, so its cost per byte is not a page-cache copy's. */
	bool over_threshold;
	uint64_t output_blocks;	/* 512-byte blocks allocated to the output */
	uint64_t cpu_wait_ns;	/* the timed thread waiting for a CPU */
	uint64_t cpu_run_ns;	/* the timed thread on a CPU */
	int64_t reported_kib;	/* memory given back to the host during the run
				 * and the gap before it; -1: not known here */
	unsigned disturbed;	/* enum disturb_cause: observed outside causes */
	bool retried;		/* disturbed, so run again: not in the statistics */
	struct copy_facts facts;	/* what the strategy chose in this run */
	bool outlier;		/* far from the case's median (robust z > STATS_OUTLIER_Z) */
	bool timed;		/* the child ran to the end: the times are real */
	bool verified;
	enum destination_state destination;
	/* A tree's folders and inodes when the run began (cache_set_report),
	 * and its most resident file's share of pages; -1 for a file. */
	enum cache_metadata metadata;
	double file_resident_max_pct;
};

/*
 * One cell of the experiment matrix: what the workload sees (spec), the
 * cache state the harness sets, and the outcome.
 */
struct bench_case {
	struct case_spec spec;
	enum cache_mode cache;
	/* bench --fs: the filesystem the case runs on, when one run measures
	 * several: the work directory its outputs go to and the environment
	 * its rows record (fs_type). NULL: the runner's own. */
	const char *workdir;
	const struct sysinfo_env *env;

	/* Outcome. */
	enum { CASE_PENDING, CASE_OK, CASE_FAILED, CASE_UNAVAILABLE } state;
	char why[1280];		/* reason for failed/unavailable: a child's msg and more */
	struct run_result *runs;
	size_t nruns;		/* recorded, retried ones included */
	size_t cap_runs;
	struct syscount counts;	/* from the untimed counting pass */
	/* A verified output shared extents with the source (FIEMAP): the
	 * filesystem cloned instead of copying, so the time is no copy speed. */
	bool shared_extents;
	/* A CHANNEL_DEVICE_IO channel whose output filesystem refuses O_DIRECT:
	 * it writes through the page cache (why says so). */
	bool direct_refused;
	/* Planned on less input than asked: a per-line case of the default
	 * transform matrix, whose MiB/s does not depend on size (plan.c). */
	bool size_capped;
	/* A cold tree case one of whose runs began with its folders and
	 * inodes cached (no drop asked, not root, or the drop_caches write
	 * refused): its files were evicted, not its metadata (the table says). */
	bool metadata_cached;
};

#endif
