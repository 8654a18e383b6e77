// SPDX-License-Identifier: MIT
/*
 * cli_table.c - every option of bench, and what each subcommand's --help
 * says around its options. One entry per option: to add one, add its id to
 * enum cli_id (cli.h), its entry here, and where its value lands: a field
 * (RUN_FIELD) or a case in the apply function of the subcommands that take
 * it. An entry's default (.def) is the only one: the parser stores it before
 * the command line. Options of one name on several subcommands with other
 * meanings are separate entries with disjoint cmds. Below the tables, their
 * lookups by command and option id.
 */
#include "cli.h"
#include "options.h"
#include "lib/stats.h"

#include <stdio.h>

#define RUN CLI_ON(CMD_RUN)
/* Where a run option's value lands: the member of struct bench_opts. Only
 * for an option of the run alone (another subcommand's ctx is another struct). */
#define RUN_FIELD(member) .field = CLI_FIELD(struct bench_opts, member)
#define OPTION(id_, name_, short_, arg_, metavar_, def_, help_, cmds_) \
	.id = (id_), .name = (name_), .short_name = (short_), .arg = (arg_), \
	.metavar = (metavar_), .def = (def_), .help = (help_), .cmds = (cmds_)
#define HSUBS CLI_HISTORY_SUBS
#define AB CLI_ON(CMD_AB)

static const char *const cache_modes[] = { "warm", "cold", "both", NULL };
static const char *const destinations[] = { "fresh", "reused", NULL };
static const char *const syscall_modes[] = { "auto", "perf", "ptrace", "off", NULL };
static const char *const run_formats[] = { "table", "csv", "json", NULL };
static const char *const list_formats[] = { "table", "json", NULL };
static const char *const check_formats[] = { "table", "csv", "json", "markdown", NULL };
static const char *const check_refs[] = { "cases", "memcpy", "absolute", NULL };
static const char *const export_formats[] = { "csv", NULL };
static const char *const export_tables[] = { "samples", "syscalls", "runs", NULL };
static const char *const shells[] = { "bash", NULL };
static const char *const dataset_kinds[] = { "random", "text", "zero", "sparse", NULL };
static const char *const ab_caches[] = { "warm", "cold", NULL };
static const char *const ab_formats[] = { "table", "markdown", NULL };

const struct cli_option cli_options[] = {
	/* ------------------------------------------- bench [options]: what -- */
	{ OPTION(OPT_ALL, "all", 0, ARG_NONE, NULL, NULL,
	  "every workload (copy, split, transform, tree) and strategy", RUN), .group = GROUP_WHAT,
	  RUN_FIELD(all) },
	{ OPTION(OPT_WORKLOAD, "workload", 0, ARG_NAMES, "LIST", NULL,
	  "copy, split, transform, tree", RUN), .group = GROUP_WHAT, .complete = COMPLETE_WORKLOAD,
	  .def_text = "copy", RUN_FIELD(workloads) },
	{ OPTION(OPT_STRATEGY, "strategy", 0, ARG_NAMES, "LIST", NULL,
	  "strategies, channels (transform) or tree methods (tree: uring, pool,\n"
	  "inode-order; a tree runs its methods, readwrite, copy_file_range and\n"
	  "sendfile by default); bench list shows them all. --workload and --strategy\n"
	  "take all, patterns and exclusions, the last match deciding: 'all,-lines', 'splice*'",
	  RUN), .group = GROUP_WHAT, .complete = COMPLETE_STRATEGY,
	  .def_text = "all available", RUN_FIELD(strategies) },
	{ OPTION(OPT_SOURCE, "source", 0, ARG_STRING, "FILE|DIR", NULL,
	  "time the copy workload on your own FILE (hashed first; the run is\n"
	  "refused if FILE changes), or the tree workload on your own folder;\n"
	  "no --size, --dataset",
	  RUN), .group = GROUP_WHAT, .complete = COMPLETE_FILE, RUN_FIELD(source) },
	{ OPTION(OPT_DATASET, "dataset", 0, ARG_NAMES, "LIST", NULL,
	  "random, text, zero, sparse", RUN), .group = GROUP_WHAT,
	  .choices = (const char *const[]){ "random", "text", "zero", "sparse", NULL },
	  .complete = COMPLETE_CHOICES,
	  .def_text = "random for copy, text for split and transform", RUN_FIELD(datasets) },
	{ OPTION(OPT_SIZE, "size", 0, ARG_SIZES, "LIST", NULL,
	  "source sizes: 4K, 200M, 1.5G, 4096 (K/M/G = KiB/MiB/GiB); tree: each\n"
	  "file's size, or src (the size mix of a source tree)", RUN), .group = GROUP_WHAT,
	  .def_text = "64M; tree: 4K", RUN_FIELD(sizes) },
	{ OPTION(OPT_FILES, "files", 0, ARG_COUNT, "N", "2000",
	  "tree: files in the generated tree", RUN), .group = GROUP_WHAT, .min = 1, .max = 10000000,
	  RUN_FIELD(files) },
	{ OPTION(OPT_BUFFER, "buffer", 0, ARG_SIZES, "LIST", NULL,
	  "buffer sizes to sweep for buffered strategies", RUN), .group = GROUP_WHAT,
	  .def_text = "each strategy's own, e.g. 128K for readwrite", RUN_FIELD(buffers) },
	{ OPTION(OPT_PART_SIZE, "part-size", 0, ARG_SIZE, "SIZE", "10M",
	  "split: largest part", RUN), .group = GROUP_WHAT, .min = 1, RUN_FIELD(part_size) },
	{ OPTION(OPT_BATCH_LINES, "batch-lines", 0, ARG_COUNTS, "LIST",
	  NULL,
	  "transform: lines per send; 1 = per line, 0 = one batch per buffer", RUN), .group = GROUP_WHAT,
	  .def_text = "the seed article's matrix, its per-line cases on at most 4M of input",
	  RUN_FIELD(batch_lines) },
	{ OPTION(OPT_QUEUE_DEPTH, "queue-depth", 0, ARG_COUNT, "N", NULL,
	  "io_uring queue depth", RUN | CLI_ON(CMD_COPY)), .group = GROUP_WHAT, .min = 1, .max = 4096,
	  .def_text = "the strategy's" },
	{ OPTION(OPT_THREADS, "threads", 0, ARG_COUNT, "N", NULL,
	  "parallel strategy threads", RUN | CLI_ON(CMD_COPY)), .group = GROUP_WHAT, .min = 1, .max = 1024,
	  .def_text = "number of CPUs" },
	{ OPTION(OPT_FSYNC, "fsync", 0, ARG_NONE, NULL, NULL,
	  "include fdatasync of the output in the timed region (copy: fdatasync\n"
	  "DST before it counts as copied)", RUN | CLI_ON(CMD_COPY)), .group = GROUP_WHAT },
	{ OPTION(OPT_COMMAND, "command", 0, ARG_STRING, "NAME[=TEMPLATE]", NULL,
	  "also time a program as a whole process (class command: its start-up\n"
	  "included), e.g. NAME='cp {src} {dst}': {src} and {dst} are the paths,\n"
	  "the template is split into words like a shell's, nothing expanded; a\n"
	  "NAME alone is a default: cp, cp-reflink-never, dd, rsync, tar (bench\n"
	  "list), or bench-S: this bench as `bench copy --strategy S`, the\n"
	  "whole-process twin of the row S; repeatable", RUN), .group = GROUP_WHAT },
	{ OPTION(OPT_COMMAND_TIMEOUT, "command-timeout", 0, ARG_NUMBER, "SECONDS", "60",
	  "a --command run taking longer is killed with its process group and\n"
	  "its row fails", RUN), .group = GROUP_WHAT, .min = 0.1, .max = 86400,
	  RUN_FIELD(command_timeout) },
	/* -------------------------------------------------------------- how -- */
	{ OPTION(OPT_REPEAT, "repeat", 0, ARG_COUNT, "N", NULL,
	  "exactly N measured runs per case", RUN), .group = GROUP_HOW, .min = 1, .max = 100000,
	  .def_text = "adaptive, below", RUN_FIELD(repeat) },
	{ OPTION(OPT_BUDGET, "budget", 0, ARG_STRING, "DURATION", NULL,
	  "time for the rounds (90s, 2m, 1h): every case gets "
	  STATS_TEXT(STATS_CI_MIN_RUNS) " measured runs\n"
	  "(a median and its 95 % interval), then runs go to the cases whose\n"
	  "place is not settled, cheapest first, until the time is spent; none:\n"
	  "the counts of --max-runs", RUN), .group = GROUP_HOW,
	  .def_text = "2m with --all, else none" },
	{ OPTION(OPT_MAX_RUNS, "max-runs", 0, ARG_COUNT, "N", NULL,
	  "adaptive: at least " STATS_TEXT(OPTIONS_RUNS_MIN) " measured runs ("
	  STATS_TEXT(OPTIONS_RUNS_MIN_SLOW) " when a run takes > " STATS_TEXT(OPTIONS_SLOW_RUN_S)
	  " s), then\nmore until the median is known within +-" STATS_TEXT(OPTIONS_CI_TARGET_PCT)
	  " % (95 % confidence), " STATS_TEXT(OPTIONS_RUNS_TIME_S) " s\nof runs were spent, or N runs",
	  RUN), .group = GROUP_HOW, .min = 1, .max = 100000,
	  .def_text = STATS_TEXT(OPTIONS_MAX_RUNS) " (" STATS_TEXT(OPTIONS_BUDGET_MAX_RUNS)
	  " with --budget)", RUN_FIELD(max_runs) },
	{ OPTION(OPT_WARMUP, "warmup", 0, ARG_COUNT, "N", "1",
	  "unmeasured runs first", RUN), .group = GROUP_HOW, .min = 0, .max = 1000,
	  .def_note = "the first also counts syscalls", RUN_FIELD(warmup) },
	{ OPTION(OPT_CACHE, "cache", 0, ARG_CHOICE, "MODE", "warm",
	  "warm, cold or both; cold evicts the source with fdatasync +\n"
	  "POSIX_FADV_DONTNEED and checks it with mincore",
	  RUN), .group = GROUP_HOW, .choices = cache_modes, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_DESTINATION, "destination", 0, ARG_CHOICE, "STATE", "fresh",
	  "fresh or reused: where a tree's output is written; fresh keeps\n"
	  "every output until the end, so no run writes where an earlier\n"
	  "one was just freed; reused removes each right after its run",
	  RUN), .group = GROUP_HOW, .choices = destinations, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_DROP_CACHES, "drop-caches", 0, ARG_NONE, NULL, NULL,
	  "cold also writes /proc/sys/vm/drop_caches (root only); for a tree\n"
	  "its folders and inodes go too, after the files are checked",
	  RUN), .group = GROUP_HOW, RUN_FIELD(drop_caches) },
	{ OPTION(OPT_TUNE, "tune", 0, ARG_NONE, NULL, NULL,
	  "(root) turn a VM's free-page reporting off for the run and restore it\n"
	  "after: fewer runs disturbed (docs/noise.md)", RUN), .group = GROUP_HOW,
	  RUN_FIELD(tune) },
	{ OPTION(OPT_SYSCALLS, "syscalls", 0, ARG_CHOICE, "MODE", "auto",
	  "auto, perf, ptrace or off", RUN), .group = GROUP_HOW,
	  .choices = syscall_modes, .complete = COMPLETE_CHOICES, RUN_FIELD(syscount) },
	{ OPTION(OPT_NO_LIMITS, "no-limits", 0, ARG_NONE, NULL, NULL,
	  "skip the memcpy limit rows", RUN), .group = GROUP_HOW, RUN_FIELD(no_limits) },
	{ OPTION(OPT_SEED, "seed", 0, ARG_COUNT, "N", "1",
	  "dataset and shuffle seed (gen: the generator's seed)",
	  RUN | CLI_ON(CMD_GEN)), .group = GROUP_HOW },
	/* ------------------------------------------------------------ where -- */
	{ OPTION(OPT_DIR, "dir", 0, ARG_STRING, "DIR",
	  NULL,
	  "where sources and outputs live: picks the filesystem under test;\n"
	  "datasets are reused between runs, bench clean removes them\n"
	  "(clean: the folder to clean)",
	  RUN | CLI_ON(CMD_CLEAN)), .group = GROUP_WHERE, .complete = COMPLETE_DIR,
	  .def_text = "datasets/cache in a build tree, else $XDG_CACHE_HOME/copybench or ~/.cache/copybench" },
	{ OPTION(OPT_LIST_DIR, "dir", 0, ARG_STRING, "DIR", ".",
	  "probe the strategies and tree methods on files in DIR (a writable folder)",
	  CLI_ON(CMD_LIST)), .complete = COMPLETE_DIR },
	{ OPTION(OPT_OUT, "out", 0, ARG_STRING, "DIR", NULL,
	  "results folder: meta.json and runs.csv, summary.csv, syscalls.csv;\n"
	  "one that holds results is refused without --force",
	  RUN), .group = GROUP_WHERE, .complete = COMPLETE_DIR,
	  .def_text = "results/<UTC stamp>-<host>", RUN_FIELD(out) },
	{ OPTION(OPT_OUT_FORCE, "force", 0, ARG_NONE, NULL, NULL,
	  "replace the results (and charts) of an earlier run in --out", RUN),
	  .group = GROUP_WHERE, RUN_FIELD(force) },
	{ OPTION(OPT_FS, "fs", 0, ARG_NAMES, "LIST", NULL,
	  "run the plan on each filesystem, interleaved: ext4, xfs, btrfs and\n"
	  "tmpfs are made for the run (root; loop devices over sparse files in\n"
	  "--dir) and removed after; a path is a mounted one", RUN), .group = GROUP_WHERE,
	  .choices = (const char *const[]){ "ext4", "xfs", "btrfs", "tmpfs", NULL },
	  .complete = COMPLETE_CHOICES, RUN_FIELD(fs) },
	{ OPTION(OPT_FS_SIZE, "fs-size", 0, ARG_SIZE, "SIZE", NULL,
	  "size of each filesystem made", RUN), .group = GROUP_WHERE, .min = 64 << 20,
	  .def_text = "what the plan needs", RUN_FIELD(fs_size) },
	{ OPTION(OPT_FORMAT, "format", 0, ARG_CHOICE, "FMT", "table",
	  "table, csv or json on stdout", RUN), .group = GROUP_WHERE,
	  .choices = run_formats, .complete = COMPLETE_CHOICES, RUN_FIELD(format) },
	{ OPTION(OPT_EXPORT_JSON, "export-json", 0, ARG_STRING, "FILE", NULL,
	  "also write the summary, with every run's times, as JSON\n"
	  "(FILE -: to stdout, in place of the table; so for the two below)", RUN), .group = GROUP_WHERE,
	  .complete = COMPLETE_FILE, RUN_FIELD(export_json) },
	{ OPTION(OPT_EXPORT_CSV, "export-csv", 0, ARG_STRING, "FILE", NULL,
	  "also write the summary as CSV (summary.csv's columns)", RUN), .group = GROUP_WHERE,
	  .complete = COMPLETE_FILE, RUN_FIELD(export_csv) },
	{ OPTION(OPT_EXPORT_MARKDOWN, "export-markdown", 0, ARG_STRING, "FILE", NULL,
	  "also write the summary as a Markdown table", RUN), .group = GROUP_WHERE,
	  .complete = COMPLETE_FILE, RUN_FIELD(export_markdown) },
	{ OPTION(OPT_PLOT, "plot", 0, ARG_NONE, NULL, NULL,
	  "draw the charts after the run (needs gnuplot)", RUN), .group = GROUP_WHERE,
	  RUN_FIELD(plot) },
	{ OPTION(OPT_DRY_RUN, "dry-run", 'n', ARG_NONE, NULL, NULL,
	  "plan and print the cases, datasets, disk space and an estimated\n"
	  "duration; run nothing, write nothing. Refuses what the run refuses,\n"
	  "with the same line and exit status", RUN), .group = GROUP_WHERE, RUN_FIELD(dry_run) },
	{ OPTION(OPT_QUIET, "quiet", 'q', ARG_NONE, NULL, NULL,
	  "no progress on stderr", RUN), .group = GROUP_WHERE, RUN_FIELD(quiet) },
	/* -------------------------------------------------------- subcommands -- */
	{ OPTION(OPT_LIST_FORMAT, "format", 0, ARG_CHOICE, "FMT", "table",
	  "table, or json (with \"schema_version\")", CLI_ON(CMD_LIST)),
	  .choices = list_formats, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_COPY_STRATEGY, "strategy", 0, ARG_STRING, "S", NULL,
	  "a strategy from `bench list`, or a tree method for a folder SRC\n"
	  "(required)", CLI_ON(CMD_COPY)),
	  .complete = COMPLETE_STRATEGY },
	{ OPTION(OPT_COPY_BUFFER, "buffer", 0, ARG_SIZE, "B", NULL,
	  "buffer or block size for buffered strategies", CLI_ON(CMD_COPY)), .min = 1,
	  .def_text = "the strategy's" },
	{ OPTION(OPT_CLEAN_DRY_RUN, "dry-run", 'n', ARG_NONE, NULL, NULL,
	  "list what would be removed; remove nothing", CLI_ON(CMD_CLEAN)) },
	{ OPTION(OPT_FORCE, "force", 0, ARG_NONE, NULL, NULL,
	  "replace an existing DST or FILE (never SRC itself)", CLI_ON(CMD_COPY) | CLI_ON(CMD_GEN)) },
	{ OPTION(OPT_COUNT_SYSCALLS, "count-syscalls", 0, ARG_NONE, NULL, NULL,
	  "print the system calls the copy made (perf counters or ptrace)", CLI_ON(CMD_COPY)) },
	{ OPTION(OPT_COPY_TIME, "time", 0, ARG_NONE, NULL, NULL,
	  "print the copy's own time, measured around the strategy alone in the child, as "
	  "`wall_ns N cpu_wait_ns W` (W: its wait for a CPU inside that time)",
	  CLI_ON(CMD_COPY)) },
	{ OPTION(OPT_COPY_SERVE, "serve", 0, ARG_NONE, NULL, NULL,
	  "serve copies on request, without SRC, DST and --strategy: read requests on stdin,\n"
	  "one a line, answer each on stdout (the worker bench ab starts once per build)",
	  CLI_ON(CMD_COPY)) },
	{ OPTION(OPT_BASELINE, "baseline", 0, ARG_STRING, "BASE", NULL,
	  "a results folder, a runs.csv or a baseline file (repeatable)", CLI_ON(CMD_CHECK)),
	  .complete = COMPLETE_FILE },
	{ OPTION(OPT_CURRENT, "current", 0, ARG_STRING, "CUR", NULL,
	  "the same, for the run to judge (repeatable)", CLI_ON(CMD_CHECK)),
	  .complete = COMPLETE_FILE },
	{ OPTION(OPT_HCURRENT, "current", 0, ARG_STRING, "DIR", NULL,
	  "the results folder to judge (required)", CLI_ON(CMD_HCHECK)), .complete = COMPLETE_DIR },
	{ OPTION(OPT_THRESHOLD, "threshold", 0, ARG_PERCENT, "PCT", "5%",
	  "smallest slowdown that counts (changes: smallest shift)",
	  CLI_ON(CMD_CHECK) | CLI_ON(CMD_HCHECK) | CLI_ON(CMD_HCHANGES)), .min = 0, .max = 1000 },
	{ OPTION(OPT_ALPHA, "alpha", 0, ARG_FRACTION, "P", STATS_ALPHA_TEXT,
	  "significance level (Holm-corrected over all cases)",
	  CLI_ON(CMD_CHECK) | CLI_ON(CMD_HCHANGES)) },
	{ OPTION(OPT_VS, "vs", 0, ARG_CHOICE, "REF", "cases",
	  "judge each case relative to the other cases' common change, the\n"
	  "in-run memcpy, or in absolute time", CLI_ON(CMD_CHECK)),
	  .choices = check_refs, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_ABSOLUTE, "absolute", 0, ARG_NONE, NULL, NULL,
	  "the same as --vs absolute", CLI_ON(CMD_CHECK)) },
	{ OPTION(OPT_CI, "ci", 0, ARG_NONE, NULL, NULL,
	  "a comparison that cannot reach significance with the runs recorded\n"
	  "is an error, exit 2 (also when the environment sets CI)", CLI_ON(CMD_CHECK)) },
	{ OPTION(OPT_ONLY_SYSCALLS, "only-syscalls", 0, ARG_NONE, NULL, NULL,
	  "compare the system call counts only, not the timings", CLI_ON(CMD_CHECK)) },
	{ OPTION(OPT_IGNORE_SYSCALLS, "ignore-syscalls", 0, ARG_NONE, NULL, NULL,
	  "do not compare system call counts", CLI_ON(CMD_CHECK) | CLI_ON(CMD_HCHECK)) },
	{ OPTION(OPT_ALLOW_MISSING, "allow-missing", 0, ARG_NONE, NULL, NULL,
	  "a case missing on one side is not a failure", CLI_ON(CMD_CHECK) | CLI_ON(CMD_HCHECK)) },
	{ OPTION(OPT_UNCORRECTED, "uncorrected", 0, ARG_NONE, NULL, NULL,
	  "no Holm correction over the cases", CLI_ON(CMD_CHECK)) },
	{ OPTION(OPT_CHECK_FORMAT, "format", 0, ARG_CHOICE, "FMT", "table",
	  "table, csv, json or markdown", CLI_ON(CMD_CHECK) | CLI_ON(CMD_HCHECK)),
	  .choices = check_formats, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_PLOT_OUT, "out", 0, ARG_STRING, "DIR", NULL,
	  "where the charts go (plot of several folders: results/compare-<UTC stamp>;\n"
	  "history plot: history/ beside the database)",
	  CLI_ON(CMD_PLOT) | CLI_ON(CMD_HPLOT)), .complete = COMPLETE_DIR },
	{ OPTION(OPT_MARKDOWN, "markdown", 0, ARG_NONE, NULL, NULL,
	  "the list as Markdown (its one format, also without this)", CLI_ON(CMD_COLUMNS)) },
	{ OPTION(OPT_DB, "db", 0, ARG_STRING, "FILE", "results/history.sqlite",
	  "the history database", HSUBS), .complete = COMPLETE_FILE },
	{ OPTION(OPT_COMMIT, "commit", 0, ARG_STRING, "SHA", NULL,
	  "the commit the results were measured at", CLI_ON(CMD_HADD)), .def_text = "git rev-parse HEAD; outside git, the one meta.json names" },
	{ OPTION(OPT_BRANCH, "branch", 0, ARG_STRING, "NAME", NULL,
	  "add: the branch (default: git's); others: only runs of this branch",
	  CLI_ON(CMD_HADD) | CLI_ON(CMD_HCHECK) | CLI_ON(CMD_HCHANGES) | CLI_ON(CMD_HPLOT)) },
	{ OPTION(OPT_LABEL, "label", 0, ARG_STRING, "K=V", NULL,
	  "a label kept with the runs (repeatable)", CLI_ON(CMD_HADD)) },
	{ OPTION(OPT_WINDOW, "window", 0, ARG_COUNT, "N", "10",
	  "compare with the last N runs of the same host, kernel, filesystem, build",
	  CLI_ON(CMD_HCHECK)), .min = 3, .max = 1000 },
	{ OPTION(OPT_SPREAD, "spread", 0, ARG_NUMBER, "Z", "4",
	  "robust standard deviations a change must exceed", CLI_ON(CMD_HCHECK)), .min = 0, .max = 100 },
	{ OPTION(OPT_CASE, "case", 0, ARG_STRING, "GLOB", NULL,
	  "only the cases whose label matches GLOB", CLI_ON(CMD_HCHANGES) | CLI_ON(CMD_HPLOT)) },
	{ OPTION(OPT_EXPORT_FORMAT, "format", 0, ARG_CHOICE, "FMT", "csv",
	  "csv", CLI_ON(CMD_HEXPORT)), .choices = export_formats, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_TABLE, "table", 0, ARG_CHOICE, "NAME", "samples",
	  "samples, syscalls or runs", CLI_ON(CMD_HEXPORT)),
	  .choices = export_tables, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_EXPORT_OUT, "out", 0, ARG_STRING, "FILE", NULL,
	  "write to FILE (refused if it exists)", CLI_ON(CMD_HEXPORT)), .complete = COMPLETE_FILE,
	  .def_text = "stdout" },
	/* ---------------------------------------------------------- bench ab -- */
	{ OPTION(OPT_AB_STRATEGY, "strategy", 0, ARG_NAMES, "LIST", NULL,
	  "strategies to compare", AB), .complete = COMPLETE_STRATEGY,
	  .def_text = "every one available here" },
	{ OPTION(OPT_AB_SIZE, "size", 0, ARG_SIZE, "SIZE", "64M", "source size", AB), .min = 1 },
	{ OPTION(OPT_AB_DATASET, "dataset", 0, ARG_CHOICE, "KIND", "random",
	  "random, text, zero or sparse", AB), .choices = dataset_kinds, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_AB_CACHE, "cache", 0, ARG_CHOICE, "MODE", "warm", "warm or cold", AB),
	  .choices = ab_caches, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_ROUNDS, "rounds", 0, ARG_COUNT, "N", "30",
	  "rounds to the first look; a case still undecided is sampled on, with\n"
	  "looks at 2N, 4N, ... 32N rounds (6 looks)", AB), .min = 1, .max = 100000 },
	{ OPTION(OPT_AB_MAX_TIME, "max-time", 0, ARG_COUNT, "SEC", "180",
	  "the invocation's time: the rounds stop when the next look would end\n"
	  "after this many seconds from the start; the verdicts are those of the\n"
	  "last look", AB), .min = 1, .max = 86400 },
	{ OPTION(OPT_AB_WARMUP, "warmup", 0, ARG_COUNT, "N", "1", "unmeasured rounds first", AB),
	  .min = 0, .max = 1000 },
	{ OPTION(OPT_AB_THRESHOLD, "threshold", 0, ARG_PERCENT, "PCT", "1%",
	  "a regression is slower than this", AB), .min = 0, .max = 1000 },
	{ OPTION(OPT_AB_ALPHA, "alpha", 0, ARG_FRACTION, "P", STATS_ALPHA_TEXT,
	  "error of all the intervals together (Bonferroni over the cases)", AB) },
	{ OPTION(OPT_AB_DIR, "dir", 0, ARG_STRING, "DIR", NULL,
	  "where the dataset and the copies live", AB), .complete = COMPLETE_DIR,
	  .def_text = "bench's --dir" },
	{ OPTION(OPT_CSV, "csv", 0, ARG_STRING, "FILE", NULL,
	  "every pair: case, round, order, per side the wall, the worker's CPU wait over it\n"
	  "and the worker's own figure (ns), the times compared, ln(B/A), the case's verdict", AB),
	  .complete = COMPLETE_FILE },
	{ OPTION(OPT_AB_FORMAT, "format", 0, ARG_CHOICE, "FMT", "table",
	  "table, or markdown (for a CI job summary)", AB),
	  .choices = ab_formats, .complete = COMPLETE_CHOICES },
	{ OPTION(OPT_AB_SEED, "seed", 0, ARG_COUNT, "N", "1", "the order of the cases in each round", AB) },
	{ OPTION(OPT_WALL, "wall", 0, ARG_NONE, NULL, NULL,
	  "compare wall times; by default a strategy on one CPU is timed\n"
	  "without its thread's waits for a CPU (wall - run-queue wait)", AB) },
	/* ---------------------------------------------------------- general -- */
	{ OPTION(OPT_COMPLETION, "completion", 0, ARG_CHOICE, "SHELL", NULL,
	  "print the completion script for SHELL (bash)", RUN), .group = GROUP_GENERAL,
	  .choices = shells, .complete = COMPLETE_CHOICES, RUN_FIELD(completion) },
	{ OPTION(OPT_HELP_MARKDOWN, "help-markdown", 0, ARG_NONE, NULL, NULL,
	  "print every command's options as Markdown (docs/options.md)", RUN), .group = GROUP_GENERAL,
	  RUN_FIELD(help_markdown) },
	{ OPTION(OPT_HELP, "help", 'h', ARG_NONE, NULL, NULL, "this text", CLI_ALL), .group = GROUP_GENERAL },
	{ OPTION(OPT_VERSION, "version", 'V', ARG_NONE, NULL, NULL, "the version", CLI_ALL), .group = GROUP_GENERAL },
};
const size_t cli_option_count = sizeof(cli_options) / sizeof(cli_options[0]);

#define EXIT1_HISTORY "a regression or changed system calls (check), or a failure"
/* The gates' outcomes besides a regression (docs/check.md). */
#define EXIT0_GATE "no regression: every case judged, the upper end of each one's interval below its threshold"
#define EXIT3_GATE "inconclusive: neither a regression nor none shown (a case, or a change the machine made too); the report says the smallest change the runs could resolve"

const struct cli_command cli_commands[] = {
	{ CMD_RUN,
	  "Usage: bench [options]\n"
	  "  or:  bench COMMAND [options] (bench COMMAND --help)",
	  "Measures every way of copying a file on this machine, kernel and filesystem,\n"
	  "verifies every copy, counts its system calls, and writes the results.",
	  /* then the commands of CLI_COMMAND_LIST with their summaries */
	  .environment =
	  "Environment: COPYBENCH_SYSCOUNT=perf|ptrace|off|auto picks the syscall counter\n"
	  "(overrides --syscalls); COPYBENCH_RAM_BUDGET=BYTES is full-buffer's RAM budget\n"
	  "(default: half of MemAvailable; a larger copy is unavailable);\n"
	  "COPYBENCH_DIRTY_BACKGROUND=BYTES stands in for the kernel's background\n"
	  "writeback threshold in bench's warnings (the kernel's own is unchanged).",
	  .exit1 = "a run or a verification failed", .epilogue =
	  "Examples:\n"
	  "  bench --all --size 200M                      # the main job: every workload and strategy\n"
	  "  bench --strategy readwrite,splice --buffer 8K,64K,4M --size 1G --cache both\n"
	  "  bench --workload transform --strategy pipe,tcp,tcp-nodelay --batch-lines 1,5000\n"
	  "  bench --fs ext4,xfs,btrfs,tmpfs --workload copy,split --size 200M\n"
	  "  bench --strategy 'all,-lines' --source big.iso --export-markdown copy.md\n"
	  "  bench --all --dry-run                        # what a run would do, and how long\n" },
	{ CMD_LIST, "usage: bench list [--dir DIR] [--format table|json]",
	  "Lists the strategies, channels, tree methods, commands and workloads, whether\n"
	  "each can run here and why not, and the system calls each strategy and channel\n"
	  "makes (checked by the tests). Strategies and tree methods are probed with\n"
	  "scratch files in DIR (default: .), since\n"
	  "what the filesystem supports decides some of them; a DIR that is not a\n"
	  "writable folder is an error.", NULL, "a failure", NULL, NULL, NULL, NULL },
	{ CMD_COPY, "usage: bench copy --strategy S [options] SRC DST",
	  "Copies the regular file SRC to DST with one strategy and exits: for timing\n"
	  "whole processes (hyperfine) and for checking a strategy by hand. The copy is\n"
	  "written beside DST and renamed into place only when it is complete. A folder\n"
	  "SRC is copied as the tree workload copies it (a strategy file by file, or a\n"
	  "tree method) to the new folder DST, removed again when the copy fails:\n"
	  "--command bench-S runs this as a row. With --serve (no SRC, DST or\n"
	  "--strategy) it is bench ab's worker instead.",
	  NULL, "the copy failed, or DST exists without --force (DST left untouched)", NULL, NULL, NULL, NULL },
	{ CMD_GEN, "usage: bench gen KIND SIZE FILE [--seed N] [--force]",
	  "Writes one dataset file, as bench generates its inputs: the same KIND, SIZE\n"
	  "and seed give the same bytes on every machine. Prints the file's XXH3 hash.",
	  "  KIND                    random, text (lines of 10..64 bytes), zero or sparse\n"
	  "  SIZE                    bytes, or with a unit: 4096, 64K, 200M, 1.5G",
	  "FILE exists (without --force) or cannot be written", NULL, NULL, NULL, NULL },
	{ CMD_EVICT, "usage: bench evict FILE...",
	  "Drops each FILE's pages from the page cache (fdatasync, then\n"
	  "POSIX_FADV_DONTNEED) and checks with mincore that they are gone. Fails for\n"
	  "a file that stays resident (tmpfs cannot evict). Name a file that starts\n"
	  "with '-' after --.", NULL, "a FILE stays resident or cannot be evicted", NULL, NULL, NULL, NULL },
	{ CMD_CHECK,
	  "usage: bench check --baseline BASE... --current CUR... [options]",
	  "BASE and CUR: a results folder, a runs.csv or a baseline file (bench baseline save);\n"
	  "repeat --baseline or --current to read several: cases of other hosts, kernels or\n"
	  "filesystems are kept apart, and matched to the same ones on the other side.\n"
	  "Several --baseline invocations (folders) of the same cases: each case's threshold\n"
	  "widens to the drift between them (a 99 % prediction bound); with one per side\n"
	  "the report says what drift the largest change would need to stand out.\n"
	  "A case regresses when its runs are slower (Mann-Whitney, Holm over all cases, alpha)\n"
	  "by more than its threshold (--threshold, or twice its robust spread when wider),\n"
	  "relative to the other cases' common change (--vs cases, default) and in plain time.\n"
	  "A change most copy cases share is judged against the in-run memcpy: a shared\n"
	  "slowdown memcpy did not show is a regression; one it showed the same way, the\n"
	  "machine changed: inconclusive. No regression needs every case's one-sided upper\n"
	  "bound of the change (--alpha) below its threshold; a case with neither is\n"
	  "inconclusive, and the report says the smallest slowdown its runs rule out.",
	  NULL, "regression: a case slower beyond its threshold (a shared slowdown too), a failed case, or changed or missing system calls",
	  "In CI (--ci or CI set), a comparison that cannot reach significance exits 2.\n",
	  EXIT0_GATE, EXIT3_GATE, NULL },
	{ CMD_AB, "usage: bench ab [options] A B",
	  "Compares two bench executables in one invocation, copy by copy: A (the\n"
	  "baseline, e.g. the main branch's build) and B (the candidate), each run as a\n"
	  "worker (`A copy --serve`) that makes copies with its own strategy code; every\n"
	  "round makes one copy of each case with a new worker of A and one with a new\n"
	  "worker of B, each ready before the clock, back to back in a balanced random\n"
	  "order, on the same dataset in the same state\n"
	  "(syncfs, writeback settled, the cache state set and checked). This bench times\n"
	  "each copy from the request to the reply and verifies it as a bench run does\n"
	  "(hash, holes); a worker's own figure is recorded and a disagreement said. Run\n"
	  "the trusted build (the base) as this bench. A or B may be a script that sets an\n"
	  "environment and runs a bench.\n"
	  "\n"
	  "Per case: the Hodges-Lehmann estimate of B/A over the rounds and its\n"
	  "signed-rank interval at alpha over all cases and 6 looks (Bonferroni): a\n"
	  "case is sampled until a look decides it, 6 looks pass, or --max-time.\n"
	  "regression: the interval above 1 and the estimate above\n"
	  "1 + threshold; no regression (ok, slower, faster): the interval's upper end\n"
	  "below 1 + threshold; inconclusive: neither, with the smallest change the\n"
	  "rounds could resolve.",
	  "  A                       the baseline: a bench executable (or a script running one)\n"
	  "  B                       the candidate, the same way",
	  "a regression, or a case B failed",
	  "Exit 2 is also a case A failed, or too few rounds for any interval.\n",
	  EXIT0_GATE, EXIT3_GATE, NULL },
	{ CMD_BASELINE, "usage: bench baseline save RESULTS FILE",
	  "Stores a compact baseline of a results folder, to commit and to give\n"
	  "bench check --baseline.",
	  "  RESULTS                 a results folder, a runs.csv or a baseline file\n"
	  "  FILE                    the baseline to write",
	  "a failure", NULL, NULL, NULL, NULL },
	{ CMD_PLOT, "usage: bench plot [--out DIR] [RESULTS_DIR...]",
	  "Draws the charts of a results folder (default: the latest under results/)\n"
	  "as PNG and SVG files beside its CSVs, with gnuplot and the scripts in plots/.\n"
	  "Several folders (other machines, kernels, filesystems) are drawn together into\n"
	  "--out: the compare chart puts them side by side, labelled by what differs;\n"
	  "rows of different ones are never pooled. Charts without data for their\n"
	  "question are skipped with a line saying why.\n"
	  "Environment: COPYBENCH_PLOTS_DIR overrides where the .gp scripts are found.",
	  NULL, "a chart could not be drawn", NULL, NULL, NULL, NULL },
	{ CMD_CLEAN, "usage: bench clean [--dir DIR] [--dry-run]",
	  "Removes what bench left in DIR (default: the default --dir of bench):\n"
	  "the datasets it generated, each a file with bench's manifest beside it that\n"
	  "still describes it, the work directories of runs that were killed, and the\n"
	  "test filesystems of a killed bench --fs (as root: their mounts, loop\n"
	  "devices and image files, recognised by bench's own names). Nothing else is\n"
	  "removed: a file bench did not make, or one changed since, stays (the latter\n"
	  "is named). Results folders are never touched. Prints each path it removes.",
	  NULL, "something of bench's could not be removed", NULL, NULL, NULL, NULL },
	{ CMD_COLUMNS, "usage: bench columns [--markdown]",
	  "Prints the list of result columns of results/README.md, as Markdown.",
	  NULL, "a failure", NULL, NULL, NULL, NULL },
	/* its usage and the summaries after the first line are each
	 * subcommand's line of CLI_HISTORY_LIST (cli.h) */
	{ CMD_HISTORY, NULL,
	  "Every subcommand takes --db FILE (default results/history.sqlite) and --help.",
	  NULL, EXIT1_HISTORY, NULL, NULL, "inconclusive (check): neither a regression nor none shown", NULL },
	{ CMD_HADD, "usage: bench history add DIR... [options]",
	  "Adds results folders to the history, each once; commit and branch from git\n"
	  "unless given (outside git, the commit is the one meta.json names).", NULL, "a failure", NULL, NULL, NULL, NULL },
	{ CMD_HCHECK, "usage: bench history check --current DIR [options]",
	  "Judges each case of DIR against its last N runs on the same host, kernel,\n"
	  "filesystem and build. no regression: each case's upper bound (its change plus\n"
	  "the window's one-sided 99 % prediction bound) below --threshold; inconclusive:\n"
	  "neither that nor a regression.", NULL, "a regression or changed system calls", NULL,
	  EXIT0_GATE, EXIT3_GATE, NULL },
	{ CMD_HCHANGES, "usage: bench history changes [options]",
	  "Prints the commits where a case's level shifted.", NULL, "a failure", NULL, NULL, NULL, NULL },
	{ CMD_HPLOT, "usage: bench history plot [options]",
	  "Draws median MiB/s over commits, per workload, with gnuplot.", NULL,
	  "a chart could not be drawn", NULL, NULL, NULL, NULL },
	{ CMD_HEXPORT, "usage: bench history export [options]",
	  "Writes one table of the history database as CSV.", NULL, "a failure", NULL, NULL, NULL, NULL },
};
const size_t cli_command_count = sizeof(cli_commands) / sizeof(cli_commands[0]);

/* ----------------------------------------------------------- lookup -- */

/* CLI_COMMAND_LIST's names and summaries, indexed by enum cli_cmd. */
#define CLI_CMD_NAME(id, name, fn, summary) [id] = name,
#define CLI_SUB_NAME(id, name, ...) [id] = "history " name,
#define CLI_CMD_SUMMARY(id, name, fn, summary) [id] = summary,
#define CLI_SUB_SUMMARY(id, ...) [id] = NULL,
static const char *const command_names[CMD_COUNT] = {
	CLI_COMMAND_LIST(CLI_CMD_NAME, CLI_SUB_NAME)
};
static const char *const command_summaries[CMD_COUNT] = {
	CLI_COMMAND_LIST(CLI_CMD_SUMMARY, CLI_SUB_SUMMARY)
};

const char *cli_command_name(enum cli_cmd cmd)
{
	return command_names[cmd];
}

const char *cli_command_summary(enum cli_cmd cmd)
{
	return command_summaries[cmd];
}

const struct cli_command *cli_command_of(enum cli_cmd cmd)
{
	static struct cli_command plain;

	for (size_t i = 0; i < cli_command_count; i++)
		if (cli_commands[i].cmd == cmd)
			return &cli_commands[i];
	plain = (struct cli_command){ .cmd = cmd };
	return &plain;
}

const char *cli_prog(enum cli_cmd cmd)
{
	static char prog[64];
	const char *name = cli_command_name(cmd);

	snprintf(prog, sizeof(prog), "bench%s%s", name[0] ? " " : "", name);
	return prog;
}

const struct cli_option *cli_option_of(enum cli_cmd cmd, enum cli_id id)
{
	for (size_t i = 0; i < cli_option_count; i++)
		if (cli_options[i].id == id && (cli_options[i].cmds & CLI_ON(cmd)))
			return &cli_options[i];
	return NULL;
}
