// SPDX-License-Identifier: MIT
/*
 * columns.c - the table of result columns (see columns.h) and the few
 * functions that read a value out of a row and write it as a CSV cell, a
 * JSON value or a line of results/README.md.
 *
 * A column whose value is a plain member of one of the row's structs names
 * it with CASE(), SPEC(), RUN(), SUM() or ENV() (run/column.h): the member's
 * C type picks how it is read, so adding such a column is one line. A column
 * computed from several members names a get function instead. The columns
 * of runs.csv are the run room's (run/run_columns.c).
 */
#include "columns.h"
#include "lib/json.h"
#include "lib/stats.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

#define SUM(m) COL_MEMBER(SRC_SUM, struct case_summary, m)

static const void *source_of(const struct col_row *x, enum col_source s)
{
	switch (s) {
	case SRC_CASE: return x->c;
	case SRC_SPEC: return &x->c->spec;
	case SRC_RUN: return x->run;
	case SRC_SUM: return x->sum;
	case SRC_ENV: return x->env;
	default: return NULL;
	}
}

/* ------------------------------------------------- computed values -- */

static void get_workload(const struct col_row *x, struct col_value *v)
{
	v->s = x->c->spec.wl->name;
}

static void get_command(const struct col_row *x, struct col_value *v)
{
	v->s = x->c->spec.command_line ? x->c->spec.command_line : "";
}

const char *columns_id_absent(enum col_id id)
{
	return id == CID_COMMAND ? "" : "0";
}

static void get_dataset(const struct col_row *x, struct col_value *v)
{
	v->s = dataset_kind_name(x->c->spec.ds->kind);
}

static void get_cache(const struct col_row *x, struct col_value *v)
{
	v->s = cache_mode_name(x->c->cache);
}

static void get_syscalls_per_mib(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->c->counts.valid || !x->c->spec.size;
	if (!v->empty)
		v->d = (double)x->c->counts.total / ((double)x->c->spec.size / MIB);
}

static void get_files_per_s(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->c->spec.files || x->sum->files_per_s <= 0;
	v->d = x->sum->files_per_s;
}

static void get_syscalls_per_file(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->c->counts.valid || !x->c->spec.files;
	if (!v->empty)
		v->d = (double)x->c->counts.total / (double)x->c->spec.files;
}

static void get_pct_of_limit(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->pct_of_limit < 0;
	v->d = x->sum->pct_of_limit;
}

static void get_ratio_lo(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->ratio_lo <= 0;
	v->d = x->sum->ratio_lo;
}

static void get_ratio_hi(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->ratio_hi <= 0;
	v->d = x->sum->ratio_hi;
}

static void get_ratio(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->ratio <= 0;
	v->d = x->sum->ratio;
}

/* The median's interval: empty when the runs are too few for one. */
static void get_ci_lo(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->ci_pct < 0;
	v->d = x->sum->st.ci_lo;
}

static void get_ci_hi(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->ci_pct < 0;
	v->d = x->sum->st.ci_hi;
}

static void get_ci_pct(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->ci_pct < 0;
	v->d = x->sum->ci_pct;
}

static void get_ci_coverage(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->ci_pct < 0;
	v->d = x->sum->st.ci_coverage;
}

static void get_rank(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->sum->rank;
	col_set_uint(v, x->sum->rank);
}

static void get_tied(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->sum->rank;
	col_set_uint(v, x->sum->tied);
}

static void get_pct_of_concurrent(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->pct_of_concurrent < 0;
	v->d = x->sum->pct_of_concurrent;
}

static void get_concurrent_row(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->sum->concurrent_row;
	v->s = x->sum->concurrent_row;
}

static void get_class(const struct col_row *x, struct col_value *v)
{
	v->s = case_class_name(x->sum->cls);
}

static void get_limit_row(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->sum->limit_row;
	v->s = x->sum->limit_row;
}

/* The modes columns: how many (empty without counted runs), then each
 * mode's figures, empty unless there are two. */
static void get_modes(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->sum->modes.count;
	col_set_uint(v, x->sum->modes.count);
}

static void get_mode_fast_ns(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->modes.count != 2;
	v->d = x->sum->modes.fast_median;
}

static void get_mode_slow_ns(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->modes.count != 2;
	v->d = x->sum->modes.slow_median;
}

static void get_mode_fast_runs(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->modes.count != 2;
	col_set_uint(v, x->sum->modes.fast_runs);
}

static void get_mode_slow_runs(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->modes.count != 2;
	col_set_uint(v, x->sum->modes.slow_runs);
}

/* "ok", "failed: ...", "unavailable: ..." or "not run": the status column. */
static void case_status(const struct bench_case *c, char *out, size_t n)
{
	switch (c->state) {
	case CASE_UNAVAILABLE:
		snprintf(out, n, "unavailable: %s", c->why);
		break;
	case CASE_FAILED:
		snprintf(out, n, "failed: %s", c->why);
		break;
	default:
		snprintf(out, n, c->nruns ? "ok" : "not run");
	}
}

static void get_status(const struct col_row *x, struct col_value *v)
{
	case_status(x->c, v->buf, sizeof(v->buf));
	v->s = v->buf;
}

/* The destination of the case's counted runs: one state, or `mixed`. */
static void get_case_destination(const struct col_row *x, struct col_value *v)
{
	unsigned seen = 0;

	for (size_t i = 0; i < x->c->nruns; i++)
		if (!x->c->runs[i].retried)
			seen |= 1u << x->c->runs[i].destination;
	seen &= ~(1u << DESTINATION_NONE);
	if (seen == (1u << DESTINATION_FRESH) || seen == (1u << DESTINATION_REUSED))
		v->s = runner_destination_name(seen == (1u << DESTINATION_FRESH) ? DESTINATION_FRESH :
					       DESTINATION_REUSED);
	else
		v->s = seen ? "mixed" : "";
}

/* The folders and inodes of the case's counted runs: one state, or `mixed`. */
static void get_case_metadata(const struct col_row *x, struct col_value *v)
{
	unsigned seen = 0;

	for (size_t i = 0; i < x->c->nruns; i++)
		if (!x->c->runs[i].retried)
			seen |= 1u << x->c->runs[i].metadata;
	seen &= ~(1u << METADATA_NONE);
	if (seen && !(seen & (seen - 1)))
		v->s = cache_metadata_name((enum cache_metadata)__builtin_ctz(seen));
	else
		v->s = seen ? "mixed" : "";
}

static void get_counting_rep(const struct col_row *x, struct col_value *v)
{
	(void)x;
	col_set_uint(v, 0);
}

static void get_syscall(const struct col_row *x, struct col_value *v)
{
	v->s = x->syscall;
}

static void get_count(const struct col_row *x, struct col_value *v)
{
	col_set_uint(v, x->count);
}

static void get_method(const struct col_row *x, struct col_value *v)
{
	v->s = x->c->counts.method;
}

/* A tree's size per file: bytes, or "src" (the mix); "0" for other workloads. */
static void get_file_size(const struct col_row *x, struct col_value *v)
{
	uint64_t fs = x->c->spec.file_size;

	if (fs == DATASET_SIZE_SRC)
		snprintf(v->buf, sizeof(v->buf), "src");
	else
		snprintf(v->buf, sizeof(v->buf), "%" PRIu64, x->c->spec.files ? fs : 0);
	v->s = v->buf;
}

/* -------------------------------------------------------- the table -- */

static const struct column id_cols[COL_NIDS] = {
	[CID_WORKLOAD] = { "workload", COL_STR, 0, false, ROLE_ID, "", "`copy`, `split`, `transform`, `tree`, or `limit` for the machine-limit rows", .get = get_workload },
	[CID_STRATEGY] = { "strategy", COL_STR, 0, false, ROLE_ID, "", "the copy strategy (copy, split, tree), tree method (tree) or channel (transform), or the name of a `--command`; for `limit`: `memcpy`, `memcpy-movsb`, `memcpy-mt`, `device-read`, `device-read-mt`, `device-direct`", SPEC(variant) },
	[CID_DATASET] = { "dataset", COL_STR, 0, false, ROLE_ID, "", "`random`, `text`, `zero`, `sparse`; `tree` for a generated tree; `file` and `dir` for the user's file or folder of `--source` (its path is in meta.json)", .get = get_dataset },
	[CID_SIZE] = { "size_bytes", COL_U64, 0, false, ROLE_ID, "bytes", "source size", SPEC(size) },
	[CID_BUFFER] = { "buffer_bytes", COL_U64, 0, false, ROLE_ID, "bytes", "buffer size the strategy was given (0 when it takes none)", SPEC(buffer) },
	[CID_CACHE] = { "cache", COL_STR, 0, false, ROLE_ID, "", "`warm` or `cold`", .get = get_cache },
	[CID_BATCH] = { "batch_lines", COL_U64, 0, false, ROLE_ID, "lines", "transform: lines per send (1 = per line, 0 = buffer-sized batches); 0 elsewhere", SPEC(batch_lines) },
	[CID_PART] = { "part_size", COL_U64, 0, false, ROLE_ID, "bytes", "split: the part size; 0 elsewhere", SPEC(part_size) },
	[CID_FSYNC] = { "fsync", COL_U64, 0, false, ROLE_ID, "", "1 when fdatasync of the output is inside the timed region", SPEC(fsync) },
	[CID_THREADS] = { "threads", COL_U64, 0, false, ROLE_ID, "", "`--threads` of a strategy that takes it (parallel; 0 = one per online CPU); for `device-read-mt` its reading threads: the most requests any strategy keeps in flight (see Ranking and limits); 0 for the others", SPEC(threads) },
	[CID_QUEUE_DEPTH] = { "queue_depth", COL_U64, 0, false, ROLE_ID, "", "`--queue-depth` of a strategy that takes it (io_uring; 0 = its default); 0 for the others", SPEC(queue_depth) },
	[CID_FILES] = { "files", COL_U64, 0, false, ROLE_ID, "", "tree: regular files in the source tree (`--files`); 0 for the other workloads", SPEC(files) },
	[CID_FILE_SIZE] = { "file_size", COL_STR, 0, false, ROLE_ID, "bytes", "tree: each file's size (`--size`), or `src` for the source-tree mix; 0 for the other workloads (`size_bytes` of a tree is all its files' bytes)", .get = get_file_size },
	[CID_COMMAND] = { "command", COL_STR, 0, false, ROLE_ID, "", "a `--command` row: the template it ran, with `{src}` and `{dst}` (its name is in `strategy`); empty for the other rows", .get = get_command },
};

static const struct column summary_cols[] = {
	{ "runs", COL_U64, 0, false, ROLE_MEASURE, "", "measured runs attempted", CASE(nruns) },
	{ "verified_runs", COL_U64, 0, false, ROLE_MEASURE, "", "measured runs whose output was verified", SUM(verified) },
	{ "retried_runs", COL_U64, 0, false, ROLE_MEASURE, "", "measured runs disturbed by an outside cause and run again", SUM(retried) },
	{ "counted_runs", COL_U64, 0, false, ROLE_MEASURE, "", "runs the statistics are of: verified and not retried", SUM(counted) },
	{ "outlier_runs", COL_U64, 0, false, ROLE_MEASURE, "", "counted runs marked as outliers (see runs.csv)", SUM(outliers) },
	{ "median_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "median wall time", SUM(st.median) },
	{ "median_lo_ns", COL_DBL, 0, true, ROLE_MEASURE, "ns", "lower end of the median's 95 % interval: the distribution-free one from order statistics, [x(k), x(n+1-k)] of the n counted runs sorted, with the largest k whose binomial coverage 1 - 2 P(Bin(n, 1/2) <= k - 1) is at least 95 % (n = 8: the fastest and slowest run; n = 10: the 2nd and 9th; n = 20: the 6th and 15th); empty under 6 runs, where none reaches 95 %", .get = get_ci_lo },
	{ "median_hi_ns", COL_DBL, 0, true, ROLE_MEASURE, "ns", "upper end of the median's 95 % interval (see median_lo_ns)", .get = get_ci_hi },
	{ "median_ci_pct", COL_DBL, 2, true, ROLE_MEASURE, "%", "half the width of the median's 95 % interval over the median: the table's `± x %`", .get = get_ci_pct },
	{ "median_ci_coverage", COL_DBL, 4, true, ROLE_MEASURE, "", "the interval's exact coverage, at least 0.95 (0.9922 at n = 8, 0.9785 at n = 10)", .get = get_ci_coverage },
	{ "min_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "fastest wall time", SUM(st.min) },
	{ "max_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "slowest wall time", SUM(st.max) },
	{ "mean_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "mean wall time", SUM(st.mean) },
	{ "stddev_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "sample standard deviation of the wall time", SUM(st.stddev) },
	{ "cv", COL_DBL, 4, false, ROLE_MEASURE, "", "coefficient of variation: stddev / mean", SUM(st.cv) },
	{ "rcv", COL_DBL, 4, false, ROLE_MEASURE, "", "robust coefficient of variation: " STATS_TEXT(STATS_MAD_TO_SD) " MAD / median (one outlier cannot inflate it)", SUM(st.rcv) },
	{ "mb_per_s", COL_DBL, 1, false, ROLE_MEASURE, "MiB/s", "size / median (1 MiB = 2^20 bytes)", SUM(mib_per_s) },
	{ "ratio_to_fastest", COL_DBL, 3, true, ROLE_MEASURE, "", "median / the fastest median of the page-cache copies of the same workload, dataset, size, cache and part size (1.000 = fastest); empty for rows not ranked (`class` device or clone); a `command` row's is against the fastest `command` row of the group instead: both clocks time a whole process", .get = get_ratio },
	{ "ratio_lo", COL_DBL, 3, true, ROLE_MEASURE, "", "lower end of ratio_to_fastest's interval: median_lo_ns over the pace row's median_hi_ns (each median's 95 % interval, so the pair holds at 90 % at least); empty for the pace row itself and where either row has no interval (under 6 runs)", .get = get_ratio_lo },
	{ "ratio_hi", COL_DBL, 3, true, ROLE_MEASURE, "", "upper end of ratio_to_fastest's interval: median_hi_ns over the pace row's median_lo_ns (see ratio_lo)", .get = get_ratio_hi },
	{ "rank", COL_U64, 0, true, ROLE_MEASURE, "", "place by median among the rows ranked together (the page-cache copies of a group, or its limit rows), 1 = fastest; empty for rows not ranked", .get = get_rank },
	{ "tied", COL_U64, 0, true, ROLE_MEASURE, "", "1 when the row's median interval overlaps the interval of the row ranked just above or below it (or either has none): their order is not settled; the table marks it `=`; empty for rows not ranked", .get = get_tied },
	{ "class", COL_STR, 0, false, ROLE_MEASURE, "", "the work the row measures: `page-cache` (a copy through the page cache), `device` (device I/O around it: direct), `clone` (the output shares extents: no bytes copied), `limit`, `command` (a `--command`: a whole process, its start-up inside the clock)", .get = get_class },
	{ "syscalls", COL_U64, 0, true, ROLE_MEASURE, "", "total system calls of the counting run (empty when counting was unavailable)", .get = col_get_syscalls },
	{ "syscalls_per_mib", COL_DBL, 3, true, ROLE_MEASURE, "1/MiB", "syscalls per MiB of source", .get = get_syscalls_per_mib },
	{ "files_per_s", COL_DBL, 1, true, ROLE_MEASURE, "1/s", "tree: files / median; empty for the other workloads", .get = get_files_per_s },
	{ "syscalls_per_file", COL_DBL, 3, true, ROLE_MEASURE, "", "tree: syscalls of the counting run / files; empty for the other workloads", .get = get_syscalls_per_file },
	{ "user_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "median user CPU time inside the clock (runs.csv)", SUM(user_ns) },
	{ "sys_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "median system CPU time inside the clock (runs.csv)", SUM(sys_ns) },
	{ "pct_of_limit", COL_DBL, 1, true, ROLE_MEASURE, "%", "MiB/s against the limit row that bounds the row (`limit_row`; see Ranking and limits): a like one, of one stream for a single-stream copy; empty without one, and for a `command` row (the limit rows time the work alone, not a process around it)", .get = get_pct_of_limit },
	{ "limit_row", COL_STR, 0, true, ROLE_MEASURE, "", "the limit row pct_of_limit divides by: `memcpy`, `memcpy-movsb`, `memcpy-mt`, `device-read`, `device-read-mt` or `device-direct`", .get = get_limit_row },
	{ "pct_of_concurrent_limit", COL_DBL, 1, true, ROLE_MEASURE, "%", "a single-stream copy: MiB/s against the concurrent limit row (`concurrent_limit_row`) when several streams are the fastest way to that resource here; empty otherwise (and for concurrent copies, whose pct_of_limit already counts it)", .get = get_pct_of_concurrent },
	{ "concurrent_limit_row", COL_STR, 0, true, ROLE_MEASURE, "", "the row pct_of_concurrent_limit divides by: `memcpy-mt` or `device-read-mt`", .get = get_concurrent_row },
	{ "status", COL_STR, 0, false, ROLE_MEASURE, "", "`ok`, `failed: <reason>` or `unavailable: <reason>`", .get = get_status },
	{ "shared_extents", COL_BOOL, 0, false, ROLE_MEASURE, "", "1 when a verified output shared extents with another file: cloned, not copied (see below)", CASE(shared_extents) },
	{ "metadata", COL_STR, 0, false, ROLE_MEASURE, "", "tree: its folders and inodes when the counted runs began (runs.csv `metadata`): `cached`, `dropped`, or `mixed` when they differed; empty for the other workloads", .get = get_case_metadata },
	{ "destination", COL_STR, 0, false, ROLE_MEASURE, "", "tree: the destination of the counted runs (runs.csv `destination`): `fresh`, `reused`, or `mixed` when kept outputs were removed for room between them; empty for the other workloads", .get = get_case_destination },
	{ "modes", COL_U64, 0, true, ROLE_MEASURE, "", "2 when the counted runs' wall times fall into two modes (see below: then the median lies in whichever mode has more runs), else 1; empty without counted runs", .get = get_modes },
	{ "mode_fast_ns", COL_DBL, 0, true, ROLE_MEASURE, "ns", "two modes: the median wall time of the faster mode; empty otherwise", .get = get_mode_fast_ns },
	{ "mode_slow_ns", COL_DBL, 0, true, ROLE_MEASURE, "ns", "two modes: the median wall time of the slower mode; empty otherwise", .get = get_mode_slow_ns },
	{ "mode_fast_runs", COL_U64, 0, true, ROLE_MEASURE, "", "two modes: counted runs in the faster mode; empty otherwise", .get = get_mode_fast_runs },
	{ "mode_slow_runs", COL_U64, 0, true, ROLE_MEASURE, "", "two modes: counted runs in the slower mode; empty otherwise", .get = get_mode_slow_runs },
};

static const struct column syscalls_cols[] = {
	{ "rep", COL_U64, 0, false, ROLE_MEASURE, "", "0: the counts come from the case's counting run", .get = get_counting_rep },
	{ "syscall", COL_STR, 0, false, ROLE_MEASURE, "", "the system call's name; `other` sums those not counted one by one, `total` all", .get = get_syscall },
	{ "count", COL_U64, 0, false, ROLE_MEASURE, "", "how many times it was made", .get = get_count },
	{ "method", COL_STR, 0, false, ROLE_MEASURE, "", "`perf` or `ptrace`", .get = get_method },
};

static const struct column env_cols[] = {
	{ "host", COL_STR, 0, false, ROLE_ENV, "", "host name", ENV(host) },
	{ "kernel", COL_STR, 0, false, ROLE_ENV, "", "kernel release (uname -r)", ENV(kernel) },
	{ "fs_type", COL_STR, 0, false, ROLE_ENV, "", "filesystem the case ran on: the one under `--dir`, or its `--fs` filesystem", ENV(fs_type) },
	{ "cpu_model", COL_STR, 0, false, ROLE_ENV, "", "CPU model name", ENV(cpu_model) },
	{ "fs_options", COL_STR, 0, true, ROLE_ENV, "", "`bench --fs`: the filesystem under test: how bench made it (mkfs options, image size, loop device and its direct I/O) or that it did not, its block size and mount options; empty without --fs", ENV(fs_options) },
};

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))
_Static_assert(NCOLS(id_cols) == COL_NIDS, "one identifying column per enum col_id");

const struct col_file_info col_files[COLFILE_COUNT] = {
	[COLFILE_RUNS] = { "runs.csv", "one row per measured run" },
	[COLFILE_SUMMARY] = { "summary.csv", "one row per case" },
	[COLFILE_SYSCALLS] = { "syscalls.csv", "one row per case and system call" },
};

static const struct {
	const struct column *cols;
	size_t n;
} own_cols[COLFILE_COUNT] = {
	[COLFILE_RUNS] = { run_columns, 0 },	/* n: run_columns_count */
	[COLFILE_SUMMARY] = { summary_cols, NCOLS(summary_cols) },
	[COLFILE_SYSCALLS] = { syscalls_cols, NCOLS(syscalls_cols) },
};

/* runs.csv's own columns are the run room's (run_columns.c): their count is
 * known at link time, not here. */
static size_t own_count(enum col_file f)
{
	return f == COLFILE_RUNS ? run_columns_count : own_cols[f].n;
}

/* ----------------------------------------------------------- access -- */

size_t columns_count(enum col_file f)
{
	return COL_NIDS + own_count(f) + NCOLS(env_cols);
}

const struct column *columns_get(enum col_file f, size_t i)
{
	if (i < COL_NIDS)
		return &id_cols[i];
	i -= COL_NIDS;
	if (i < own_count(f))
		return &own_cols[f].cols[i];
	i -= own_count(f);
	return i < NCOLS(env_cols) ? &env_cols[i] : NULL;
}

const struct column *columns_id(enum col_id id)
{
	return &id_cols[id];
}

const struct column *columns_find(enum col_file f, const char *name)
{
	for (size_t i = 0; i < columns_count(f); i++)
		if (strcmp(columns_get(f, i)->name, name) == 0)
			return columns_get(f, i);
	return NULL;
}

int columns_csv_col(const struct csv_table *t, enum col_file f, const char *name)
{
	if (!columns_find(f, name)) {
		fprintf(stderr, "bench: internal error: %s has no column '%s'\n",
			col_files[f].name, name);
		abort();
	}
	return csv_col(t, name);
}

bool columns_is_bench_header(const char *line)
{
	/* The first three: every version of bench began its files with them. */
	for (enum col_id id = CID_WORKLOAD; id <= CID_DATASET; id++) {
		size_t len = strlen(id_cols[id].name);

		if (strncmp(line, id_cols[id].name, len) || line[len] != ',')
			return false;
		line += len + 1;
	}
	return true;
}

/* ------------------------------------------------------------ values -- */

void columns_value(const struct column *col, const struct col_row *x,
		   struct col_value *v)
{
	memset(v, 0, offsetof(struct col_value, buf));
	v->buf[0] = '\0';
	if (col->get)
		col->get(x, v);
	else
		col->read((const char *)source_of(x, col->source) + col->offset, v);
}

void columns_csv_cell(struct csv_writer *w, const struct column *col,
		      const struct col_value *v)
{
	if (v->empty) {
		csv_str(w, "");
		return;
	}
	switch (col->type) {
	case COL_STR: csv_str(w, v->s); break;
	case COL_U64: case COL_BOOL: csv_u64(w, v->u); break;
	case COL_I64: csv_i64(w, v->i); break;
	case COL_DBL: csv_dbl(w, v->d, col->decimals); break;
	}
}

void columns_json_value(FILE *f, const struct column *col, const struct col_value *v)
{
	if (v->empty) {
		fputs("null", f);
		return;
	}
	switch (col->type) {
	case COL_STR: json_str(f, v->s); break;
	case COL_U64: fprintf(f, "%" PRIu64, v->u); break;
	case COL_I64: fprintf(f, "%" PRId64, v->i); break;
	case COL_DBL: fprintf(f, "%.*f", col->decimals, v->d); break;
	case COL_BOOL: fputs(v->u ? "true" : "false", f); break;
	}
}

/* ---------------------------------------------------------- README -- */

static void md_type(const struct column *col, char *out, size_t n)
{
	static const char *const names[] = {
		[COL_STR] = "string", [COL_U64] = "u64", [COL_I64] = "i64",
		[COL_DBL] = "double", [COL_BOOL] = "0 or 1",
	};
	size_t len = (size_t)snprintf(out, n, "%s", names[col->type]);

	if (col->type == COL_DBL && len < n)
		len += (size_t)snprintf(out + len, n - len, ", %d decimal%s",
					col->decimals, col->decimals == 1 ? "" : "s");
	if (col->optional && len < n)
		snprintf(out + len, n - len, ", or empty");
}

/* The columns of f from first to last as a Markdown table. */
static void md_table(FILE *f, enum col_file file, size_t first, size_t last)
{
	char type[64];

	fputs("| column | type | unit | meaning |\n| --- | --- | --- | --- |\n", f);
	for (size_t i = first; i < last; i++) {
		const struct column *col = columns_get(file, i);

		md_type(col, type, sizeof(type));
		fprintf(f, "| %s | %s | %s | %s |\n", col->name, type, col->unit,
			col->description);
	}
}

void columns_print_markdown(FILE *f)
{
	fputs("<!-- columns: generated by `bench columns --markdown` from harness/results/columns.c and harness/run/run_columns.c (tools/readme-columns.sh); edit the tables there -->\n"
	      "## Identifying columns (first in every file)\n\n", f);
	md_table(f, COLFILE_RUNS, 0, COL_NIDS);
	for (enum col_file k = 0; k < COLFILE_COUNT; k++) {
		fprintf(f, "\n## %s — %s\n\nThe identifying columns, then:\n\n",
			col_files[k].name, col_files[k].rows);
		md_table(f, k, COL_NIDS, COL_NIDS + own_count(k));
		fputs("\nthen the environment columns.\n", f);
	}
	fputs("\n## Environment columns (last in every file)\n\n", f);
	md_table(f, COLFILE_RUNS, columns_count(COLFILE_RUNS) - NCOLS(env_cols),
		 columns_count(COLFILE_RUNS));
	fputs("<!-- columns: end -->\n", f);
}
