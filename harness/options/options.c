// SPDX-License-Identifier: MIT
/* options.c - parse `bench [options]`: lists, sizes, counts and modes, with
 * one clear line for anything wrong. */
#include "options.h"
#include "dataset.h"
#include "paths.h"
#include "units.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_ALL = 256, OPT_STRATEGY, OPT_WORKLOAD, OPT_SIZE, OPT_BUFFER,
	OPT_DATASET, OPT_REPEAT, OPT_WARMUP, OPT_CACHE, OPT_DIR, OPT_OUT,
	OPT_SEED, OPT_FORMAT, OPT_HELP, OPT_VERSION, OPT_PART_SIZE,
	OPT_BATCH_LINES, OPT_QUEUE_DEPTH, OPT_THREADS, OPT_FSYNC, OPT_PLOT,
	OPT_DROP_CACHES, OPT_SYSCALLS, OPT_QUIET, OPT_NO_LIMITS, OPT_MAX_RUNS, OPT_TUNE,
	OPT_FS, OPT_FS_SIZE, OPT_SOURCE, OPT_EXPORT_JSON, OPT_EXPORT_CSV, OPT_EXPORT_MARKDOWN,
};

static const struct option long_opts[] = {
	{ "all", no_argument, NULL, OPT_ALL },
	{ "strategy", required_argument, NULL, OPT_STRATEGY },
	{ "workload", required_argument, NULL, OPT_WORKLOAD },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "buffer", required_argument, NULL, OPT_BUFFER },
	{ "dataset", required_argument, NULL, OPT_DATASET },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "max-runs", required_argument, NULL, OPT_MAX_RUNS },
	{ "tune", no_argument, NULL, OPT_TUNE },
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "cache", required_argument, NULL, OPT_CACHE },
	{ "dir", required_argument, NULL, OPT_DIR },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "fs", required_argument, NULL, OPT_FS },
	{ "fs-size", required_argument, NULL, OPT_FS_SIZE },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "part-size", required_argument, NULL, OPT_PART_SIZE },
	{ "batch-lines", required_argument, NULL, OPT_BATCH_LINES },
	{ "queue-depth", required_argument, NULL, OPT_QUEUE_DEPTH },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "fsync", no_argument, NULL, OPT_FSYNC },
	{ "plot", no_argument, NULL, OPT_PLOT },
	{ "drop-caches", no_argument, NULL, OPT_DROP_CACHES },
	{ "syscalls", required_argument, NULL, OPT_SYSCALLS },
	{ "no-limits", no_argument, NULL, OPT_NO_LIMITS },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "source", required_argument, NULL, OPT_SOURCE },
	{ "export-json", required_argument, NULL, OPT_EXPORT_JSON },
	{ "export-csv", required_argument, NULL, OPT_EXPORT_CSV },
	{ "export-markdown", required_argument, NULL, OPT_EXPORT_MARKDOWN },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

void options_usage(FILE *f)
{
	fputs(
"Usage: bench [options]\n"
"  or:  bench list [--dir DIR]\n"
"  or:  bench copy --strategy S [--buffer B] [--force] [--count-syscalls] SRC DST\n"
"  or:  bench gen KIND SIZE FILE [--seed N] [--force]\n"
"  or:  bench evict FILE...\n"
"  or:  bench check --baseline B --current C\n"
"  or:  bench ab [--strategy LIST] [--size SIZE] A B\n"
"  or:  bench baseline save RESULTS FILE\n"
"  or:  bench plot [RESULTS_DIR]\n"
"  or:  bench clean [--dir DIR]\n"
"  or:  bench history add|check|changes|plot|export ...\n"
"Measures every way of copying a file on this machine, kernel and filesystem,\n"
"verifies every copy, counts its system calls, and writes the results.\n"
"\n"
"Commands (each takes --help):\n"
"  list        strategies, channels, workloads; whether each can run here\n"
"  copy        one verified copy of SRC to DST with one strategy\n"
"  gen         write a dataset file\n"
"  evict       drop files from the page cache (no root needed)\n"
"  check       compare two results folders (or a baseline) for regressions\n"
"  ab          compare two bench builds in one invocation, pair by pair\n"
"  baseline    store a compact baseline of a results folder, to commit\n"
"  plot        draw the charts of a results folder with gnuplot\n"
"  clean       remove the datasets and work directories bench left in a --dir\n"
"  history     results over commits in an SQLite file (bench history --help)\n"
"\n"
"What to run (lists are comma separated; every combination is a case):\n"
"  --all                 every workload (copy, split, transform) and strategy\n"
"  --workload LIST       copy, split, transform            (default: copy)\n"
"  --strategy LIST       strategies or channels            (default: all available)\n"
"                        --workload and --strategy also take all, patterns and\n"
"                        exclusions, the last match deciding: 'all,-lines', 'splice*'\n"
"  --source FILE         time the copy workload on your own FILE (hashed first; the\n"
"                        run is refused if FILE changes); no --size, --dataset\n"
"  --dataset LIST        random, text, zero, sparse        (default: random for copy,\n"
"                        text for split and transform)\n"
"  --size LIST           source sizes: 4K, 200M, 1.5G, 4096 (K/M/G = KiB/MiB/GiB; default 64M)\n"
"  --buffer LIST         buffer sizes to sweep for buffered strategies\n"
"                        (default: each strategy's own, e.g. 128K for readwrite)\n"
"  --part-size SIZE      split: largest part (default 10M)\n"
"  --batch-lines LIST    transform: lines per send; 1 = per line, 0 = one batch per\n"
"                        buffer (default: the seed article's matrix, its per-line\n"
"                        cases on at most 4M of input: they cost per line)\n"
"  --queue-depth N       io_uring queue depth (default: the strategy's)\n"
"  --threads N           parallel strategy threads (default: number of CPUs)\n"
"  --fsync               include fdatasync of the output in the timed region\n"
"\n"
"How to measure:\n"
"  --repeat N            exactly N measured runs per case (default: adaptive, below)\n"
"  --max-runs N          adaptive: at least 8 measured runs (7 when a run takes > 2 s),\n"
"                        then more until the median is known within +-2 % (95 %\n"
"                        confidence), 10 s of runs were spent, or N runs (default 10)\n"
"  --warmup N            unmeasured runs first (default 1; the first also counts syscalls)\n"
"  --cache MODE          warm, cold or both (default warm); cold evicts the source with\n"
"                        fdatasync + POSIX_FADV_DONTNEED and checks it with mincore\n"
"  --drop-caches         cold also writes /proc/sys/vm/drop_caches (root only)\n"
"  --tune                (root) turn a VM's free-page reporting off for the run and\n"
"                        restore it after: fewer runs disturbed (docs/noise.md)\n"
"  --syscalls MODE       auto, perf, ptrace or off (default auto)\n"
"  --no-limits           skip the memcpy limit rows\n"
"  --seed N              dataset and shuffle seed (default 1)\n"
"\n"
"Where:\n"
"  --dir DIR             where sources and outputs live: picks the filesystem under test\n"
"                        (default datasets/cache in a build tree, else\n"
"                        $XDG_CACHE_HOME/copybench or ~/.cache/copybench; datasets are\n"
"                        reused between runs, bench clean removes them)\n"
"  --out DIR             results folder (default results/<UTC stamp>-<host>): meta.json\n"
"                        and runs.csv, summary.csv, syscalls.csv\n"
"  --fs LIST             run the plan on each filesystem, interleaved: ext4, xfs, btrfs\n"
"                        and tmpfs are made for the run (root; loop devices over sparse\n"
"                        files in --dir) and removed after; a path is a mounted one\n"
"  --fs-size SIZE        size of each filesystem made (default: what the plan needs)\n"
"  --format FMT          table, csv or json on stdout (default table)\n"
"  --export-json FILE    also write the summary, with every run's times, as JSON\n"
"  --export-csv FILE     also write the summary as CSV (summary.csv's columns)\n"
"  --export-markdown FILE  also write the summary as a Markdown table\n"
"  --plot                draw the charts after the run (needs gnuplot)\n"
"  --quiet               no progress on stderr\n"
"  --help, --version\n"
"\n"
"Examples:\n"
"  bench --all --size 200M                      the main job: every workload and strategy\n"
"  bench --strategy readwrite,splice --buffer 8K,64K,4M --size 1G --cache both\n"
"  bench --workload transform --strategy pipe,tcp,tcp-nodelay --batch-lines 1,5000\n"
"  bench --fs ext4,xfs,btrfs,tmpfs --workload copy,split --size 200M\n"
"  bench --strategy 'all,-lines' --source big.iso --export-markdown copy.md\n"
"\n"
"Exit status: 0 ok, 1 a run or a verification failed, 2 usage error,\n"
"130/143 interrupted by SIGINT/SIGTERM.\n", f);
}

int split_list(char *s, struct str_list *l)
{
	char *save = NULL;

	for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (l->n == OPT_LIST_MAX)
			return -E2BIG;
		l->v[l->n++] = tok;
	}
	return 0;
}

static int bad(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "bench: %s '%s': %s\n", opt, val, why);
	return 2;
}

static int parse_count(const char *opt, const char *val, unsigned min, unsigned max,
		       unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (*val < '0' || *val > '9')
		return bad(opt, val, "not a whole number");
	v = strtoul(val, &end, 10);
	if (errno || *end || v < min || v > max) {
		char why[64];

		snprintf(why, sizeof(why), "must be a whole number from %u to %u", min, max);
		return bad(opt, val, why);
	}
	*out = (unsigned)v;
	return 0;
}

/* A comma list of sizes; zero allowed only where allow_zero. */
static int parse_size_list(const char *opt, char *val, bool allow_zero,
			   struct u64_list *l)
{
	struct str_list parts = { 0 };
	char copy[512];

	snprintf(copy, sizeof(copy), "%s", val);
	if (split_list(val, &parts))
		return bad(opt, copy, "more than 32 sizes");
	if (parts.n == 0)
		return bad(opt, copy, "expected a comma-separated list of sizes");
	l->n = 0;
	for (size_t i = 0; i < parts.n; i++) {
		uint64_t v;
		int err = parse_size(parts.v[i], &v);

		if (err == -ERANGE)
			return bad(opt, parts.v[i], "size too large");
		if (err)
			return bad(opt, parts.v[i], "not a size (examples: 4096, 64K, 200M, 1.5G)");
		if (v == 0 && !allow_zero)
			return bad(opt, parts.v[i], "must be greater than zero");
		l->v[l->n++] = v;
	}
	return 0;
}

static int parse_count_list(const char *opt, char *val, struct u64_list *l)
{
	struct str_list parts = { 0 };

	if (split_list(val, &parts) || parts.n == 0)
		return bad(opt, val, "expected a comma-separated list of numbers");
	l->n = 0;
	for (size_t i = 0; i < parts.n; i++) {
		unsigned v;
		int ret = parse_count(opt, parts.v[i], 0, 100000000, &v);

		if (ret)
			return ret;
		l->v[l->n++] = v;
	}
	return 0;
}

static int parse_str_list(const char *opt, char *val, struct str_list *l)
{
	l->n = 0;
	if (split_list(val, l) || l->n == 0)
		return bad(opt, val, "expected a comma-separated list of names");
	return 0;
}

static int parse_choice(const char *opt, const char *val, struct bench_opts *o)
{
	if (strcmp(opt, "--cache") == 0) {
		o->cache_warm = !strcmp(val, "warm") || !strcmp(val, "both");
		o->cache_cold = !strcmp(val, "cold") || !strcmp(val, "both");
		if (!o->cache_warm && !o->cache_cold)
			return bad(opt, val, "expected warm, cold or both");
	} else if (strcmp(opt, "--format") == 0) {
		if (!strcmp(val, "table"))
			o->format = FORMAT_TABLE;
		else if (!strcmp(val, "csv"))
			o->format = FORMAT_CSV;
		else if (!strcmp(val, "json"))
			o->format = FORMAT_JSON;
		else
			return bad(opt, val, "expected table, csv or json");
	} else {
		static const char *const names[] = { "auto", "perf", "ptrace", "off" };

		for (int i = 0; i < 4; i++) {
			if (!strcmp(val, names[i])) {
				o->syscount = (enum syscount_method)i;
				return 0;
			}
		}
		return bad(opt, val, "expected auto, perf, ptrace or off");
	}
	return 0;
}

static void options_defaults(struct bench_opts *o)
{
	static char default_dir[PATH_MAX];

	memset(o, 0, sizeof(*o));
	o->part_size = 10u << 20;
	o->warmup = 1;
	o->max_runs = 10;
	o->cache_warm = true;
	o->seed = 1;
	o->syscount = SYSCOUNT_AUTO;
	o->format = FORMAT_TABLE;
	paths_dataset_dir(default_dir, sizeof(default_dir));
	o->dir = default_dir;
}

/* The long name of option value opt (the table is not in enum order). */
static const char *opt_name(int opt)
{
	for (const struct option *l = long_opts; l->name; l++)
		if (l->val == opt)
			return l->name;
	return "?";
}

static int parse_one(int opt, struct bench_opts *o)
{
	char flag[40];
	uint64_t v;

	snprintf(flag, sizeof(flag), "--%s", opt_name(opt));
	switch (opt) {
	case OPT_ALL: o->all = true; return 0;
	case OPT_STRATEGY: return parse_str_list(flag, optarg, &o->strategies);
	case OPT_WORKLOAD: return parse_str_list(flag, optarg, &o->workloads);
	case OPT_DATASET: return parse_str_list(flag, optarg, &o->datasets);
	case OPT_SIZE: return parse_size_list(flag, optarg, false, &o->sizes);
	case OPT_BUFFER: return parse_size_list(flag, optarg, false, &o->buffers);
	case OPT_BATCH_LINES: return parse_count_list(flag, optarg, &o->batch_lines);
	case OPT_REPEAT: return parse_count(flag, optarg, 1, 100000, &o->repeat);
	case OPT_MAX_RUNS: return parse_count(flag, optarg, 1, 100000, &o->max_runs);
	case OPT_TUNE: o->tune = true; return 0;
	case OPT_WARMUP: return parse_count(flag, optarg, 0, 1000, &o->warmup);
	case OPT_QUEUE_DEPTH: return parse_count(flag, optarg, 1, 4096, &o->queue_depth);
	case OPT_THREADS: return parse_count(flag, optarg, 1, 1024, &o->threads);
	case OPT_CACHE: case OPT_FORMAT: case OPT_SYSCALLS:
		return parse_choice(flag, optarg, o);
	case OPT_DIR: o->dir = optarg; return 0;
	case OPT_OUT: o->out = optarg; return 0;
	case OPT_FS: return parse_str_list(flag, optarg, &o->fs);
	case OPT_FS_SIZE:
		if (parse_size(optarg, &v) || v < (64u << 20))
			return bad(flag, optarg, "not a size of at least 64M");
		o->fs_size = v;
		return 0;
	case OPT_SOURCE: o->source = optarg; return 0;
	case OPT_EXPORT_JSON: o->export_json = optarg; return 0;
	case OPT_EXPORT_CSV: o->export_csv = optarg; return 0;
	case OPT_EXPORT_MARKDOWN: o->export_markdown = optarg; return 0;
	case OPT_FSYNC: o->fsync = true; return 0;
	case OPT_PLOT: o->plot = true; return 0;
	case OPT_QUIET: o->quiet = true; return 0;
	case OPT_NO_LIMITS: o->no_limits = true; return 0;
	case OPT_DROP_CACHES: o->drop_caches = true; return 0;
	case OPT_SEED:
		if (parse_size(optarg, &v) || strpbrk(optarg, "KkMmGgTt."))
			return bad(flag, optarg, "not a whole number");
		o->seed = v;
		return 0;
	case OPT_PART_SIZE:
		if (parse_size(optarg, &v) || v == 0)
			return bad(flag, optarg, "not a size greater than zero");
		if (v < DATASET_TEXT_MAX_LINE)
			return bad(flag, optarg, "smaller than one line (text lines are up to 64 bytes)");
		o->part_size = v;
		return 0;
	}
	return 2;
}

int options_parse(int argc, char **argv, struct bench_opts *o)
{
	int opt, ret;

	options_defaults(o);
	o->argc = argc;
	o->argv = argv;
	opterr = 0;
	optind = 0;	/* 0, not 1: glibc then forgets a half-read "-abc" */
	while ((opt = getopt_long(argc, argv, ":", long_opts, NULL)) != -1) {
		if (opt == OPT_HELP) {
			options_usage(stdout);
			return -1;
		}
		if (opt == OPT_VERSION) {
			printf("bench (copybench) %s\n", COPYBENCH_VERSION);
			return -1;
		}
		if (opt == '?' || opt == ':') {
			fprintf(stderr, "bench: %s '%s' (see bench --help)\n",
				opt == ':' ? "missing value for option" : "unknown option",
				argv[optind - 1]);
			return 2;
		}
		ret = parse_one(opt, o);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		fprintf(stderr, "bench: unexpected argument '%s' (see bench --help)\n", argv[optind]);
		return 2;
	}
	return 0;
}
