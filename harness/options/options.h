/* SPDX-License-Identifier: MIT */
/* options.h - the command line of a benchmark run. */
#ifndef COPYBENCH_OPTIONS_H
#define COPYBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "command.h"
#include "syscount/syscount.h"

#define OPT_LIST_MAX CLI_LIST_MAX

enum out_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/*
 * How many measured runs a case gets when --repeat does not say (the runner
 * applies the rule, harness/run/runner_rounds.c; --help, the plan line and
 * the dry run quote these, as text through STATS_TEXT): at least
 * OPTIONS_RUNS_MIN (OPTIONS_RUNS_MIN_SLOW when a run takes over
 * OPTIONS_SLOW_RUN_S seconds), then more until the median is known within
 * +-OPTIONS_CI_TARGET_PCT % at 95 %, OPTIONS_RUNS_TIME_S seconds of runs
 * were spent, or --max-runs: OPTIONS_MAX_RUNS. Plain numbers, so that they
 * can be quoted.
 */
#define OPTIONS_RUNS_MIN 8
#define OPTIONS_RUNS_MIN_SLOW 7
#define OPTIONS_SLOW_RUN_S 2
#define OPTIONS_CI_TARGET_PCT 2
#define OPTIONS_RUNS_TIME_S 10
#define OPTIONS_MAX_RUNS 10
/* --all's budget when none is given: see docs/budget.md. */
#define OPTIONS_DEFAULT_BUDGET_S 120.0
/* With a budget: at most this many measured runs of a case. */
#define OPTIONS_BUDGET_MAX_RUNS 30

struct bench_opts {
	bool given[OPT_ID_COUNT];	/* named on the command line */
	bool all;
	struct str_list workloads;	/* empty: copy (or all with --all) */
	struct str_list strategies;	/* empty: every strategy/channel */
	struct str_list datasets;	/* empty: each workload's default */
	struct u64_list sizes;		/* empty: 64M (tree: 4K per file) */
	uint64_t files;			/* tree: files in a generated tree */
	struct u64_list buffers;	/* empty: each strategy's default */
	struct u64_list batch_lines;	/* empty: the seed matrix */
	uint64_t part_size;
	unsigned repeat;		/* 0: adaptive (see runner_rounds.c) */
	unsigned max_runs;		/* adaptive: at most this many; 0: the
					 * mode's (OPTIONS_MAX_RUNS, or the
					 * budget's BUDGET_MAX_RUNS) */
	double budget_s;		/* --budget: seconds for the rounds; 0: none */
	bool budget_default;		/* budget_s is --all's default, not asked */
	bool budget_given;		/* --budget was on the command line */
	unsigned warmup;
	bool cache_warm, cache_cold;
	bool drop_caches;
	/* --destination reused: a tree's output is removed right after its
	 * run, so the next run writes where it was freed (the state of a
	 * filesystem that just lost many files); default fresh: kept until
	 * the invocation ends (WORKLOAD_KEEP_OUTPUTS). */
	bool destination_reused;
	bool fsync;
	struct bench_command commands[OPT_LIST_MAX];	/* --command rows */
	size_t ncommands;
	double command_timeout;		/* seconds */
	bool plot;
	bool quiet;
	bool dry_run;			/* plan and print, run nothing */
	bool force;			/* replace the results in --out */
	bool completion;		/* --completion bash: print the script */
	bool help_markdown;		/* --help-markdown: print docs/options.md */
	bool no_limits;
	bool tune;			/* quiet the VM for the run (root) */
	unsigned queue_depth;
	unsigned threads;
	uint64_t seed;
	enum syscount_method syscount;
	enum out_format format;
	const char *dir;
	const char *out;
	struct str_list fs;		/* bench --fs: filesystems to run on */
	uint64_t fs_size;		/* 0: sized from the plan */
	const char *source;		/* --source: the user's file (copy) or folder (tree) */
	const char *export_json;	/* --export-*: the summary, beside the table */
	const char *export_csv;
	const char *export_markdown;
	int argc;			/* the command line, for meta.json */
	char **argv;
};

/*
 * Parses argv[1..] of `bench [options]` by the option table (cli_table.c).
 * Returns 0, or 2 after printing one line naming the problem (usage
 * error); help, version and --completion print and return -1 (exit 0).
 */
int options_parse(int argc, char **argv, struct bench_opts *o);

#endif
