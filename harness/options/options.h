/* SPDX-License-Identifier: MIT */
/* options.h - the command line of a benchmark run. */
#ifndef COPYBENCH_OPTIONS_H
#define COPYBENCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "syscount.h"

#define OPT_LIST_MAX 32

enum out_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

struct u64_list {
	size_t n;
	uint64_t v[OPT_LIST_MAX];
};

struct str_list {
	size_t n;
	const char *v[OPT_LIST_MAX];
};

struct bench_opts {
	bool all;
	struct str_list workloads;	/* empty: copy (or all with --all) */
	struct str_list strategies;	/* empty: every strategy/channel */
	struct str_list datasets;	/* empty: each workload's default */
	struct u64_list sizes;		/* empty: 64M */
	struct u64_list buffers;	/* empty: each strategy's default */
	struct u64_list batch_lines;	/* empty: the seed matrix */
	uint64_t part_size;
	unsigned repeat;		/* 0: adaptive (see runner.c) */
	unsigned max_runs;		/* adaptive: at most this many */
	unsigned warmup;
	bool cache_warm, cache_cold;
	bool drop_caches;
	bool fsync;
	bool plot;
	bool quiet;
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
	const char *source;		/* --source: the user's file, copy workload */
	const char *export_json;	/* --export-*: the summary, beside the table */
	const char *export_csv;
	const char *export_markdown;
	int argc;			/* the command line, for meta.json */
	char **argv;
};

/*
 * Parses argv[optind..] of `bench [options]`. Returns 0, or 2 after printing
 * one line naming the problem (usage error); help and version print and
 * return -1 (exit 0).
 */
int options_parse(int argc, char **argv, struct bench_opts *o);
void options_usage(FILE *f);

/* "a,b,c" into l (pointers into s, which is modified). 0 or -E2BIG. */
int split_list(char *s, struct str_list *l);

#endif
