// SPDX-License-Identifier: MIT
/*
 * columns.c - the table of result columns (see columns.h) and the few
 * functions that read a value out of a row and write it as a CSV cell, a
 * JSON value or a line of results/README.md.
 *
 * A column whose value is a plain member of one of the row's structs names
 * it with CASE(), SPEC(), RUN(), SUM() or ENV(): the member's C type picks
 * how it is read, so adding such a column is one line. A column computed
 * from several members names a get function instead.
 */
#include "columns.h"
#include "cli.h"
#include "json.h"
#include "disturb.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

/* ------------------------------------------------------ member reads -- */

static void set_int(struct col_value *v, int64_t x)
{
	v->i = x;
	v->u = (uint64_t)x;
	v->d = (double)x;
}

static void set_uint(struct col_value *v, uint64_t x)
{
	v->u = x;
	v->i = (int64_t)x;
	v->d = (double)x;
}

static void read_bool(const void *p, struct col_value *v) { set_uint(v, *(const bool *)p); }
static void read_int(const void *p, struct col_value *v) { set_int(v, *(const int *)p); }
static void read_long(const void *p, struct col_value *v) { set_int(v, *(const long *)p); }
static void read_uint(const void *p, struct col_value *v) { set_uint(v, *(const unsigned *)p); }
static void read_ulong(const void *p, struct col_value *v) { set_uint(v, *(const unsigned long *)p); }
static void read_ullong(const void *p, struct col_value *v) { set_uint(v, *(const unsigned long long *)p); }
static void read_dbl(const void *p, struct col_value *v) { v->d = *(const double *)p; }
static void read_chars(const void *p, struct col_value *v) { v->s = (const char *)p; }
static void read_str(const void *p, struct col_value *v) { v->s = *(const char *const *)p; }

/* The read function for a member, chosen by its type (never evaluated). */
#define READER(member) _Generic((member), \
	bool: read_bool, int: read_int, long: read_long, unsigned: read_uint, \
	unsigned long: read_ulong, unsigned long long: read_ullong, \
	double: read_dbl, char *: read_chars, const char *: read_str)
#define MEMBER(src, type, m) \
	.source = src, .offset = offsetof(type, m), .read = READER(((type *)0)->m)
#define CASE(m) MEMBER(SRC_CASE, struct bench_case, m)
#define SPEC(m) MEMBER(SRC_SPEC, struct case_spec, m)
#define RUN(m) MEMBER(SRC_RUN, struct run_result, m)
#define SUM(m) MEMBER(SRC_SUM, struct case_summary, m)
#define ENV(m) MEMBER(SRC_ENV, struct sysinfo_env, m)

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

/* The total of the counting run; empty when counting was unavailable. */
static void get_syscalls(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->c->counts.valid;
	set_uint(v, x->c->counts.total);
}

static void get_syscalls_per_mib(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->c->counts.valid || !x->c->spec.size;
	if (!v->empty)
		v->d = (double)x->c->counts.total / ((double)x->c->spec.size / MIB);
}

static void get_pct_of_limit(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->pct_of_limit < 0;
	v->d = x->sum->pct_of_limit;
}

static void get_ratio(const struct col_row *x, struct col_value *v)
{
	v->empty = x->sum->ratio <= 0;
	v->d = x->sum->ratio;
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

static void get_reported(const struct col_row *x, struct col_value *v)
{
	v->empty = x->run->reported_kib < 0;
	v->i = x->run->reported_kib;
	v->u = (uint64_t)x->run->reported_kib;
}

static void get_pipe_bytes(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->run->facts.pipe_bytes;
	v->u = x->run->facts.pipe_bytes;
}

static void get_fixed_buffers(const struct col_row *x, struct col_value *v)
{
	v->empty = x->run->facts.fixed_buffers < 0;
	v->u = x->run->facts.fixed_buffers > 0;
}

static void get_disturbed(const struct col_row *x, struct col_value *v)
{
	disturb_name(x->run->disturbed, v->buf, sizeof(v->buf));
	v->s = v->buf;
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

static void get_counting_rep(const struct col_row *x, struct col_value *v)
{
	(void)x;
	set_uint(v, 0);
}

static void get_syscall(const struct col_row *x, struct col_value *v)
{
	v->s = x->syscall;
}

static void get_count(const struct col_row *x, struct col_value *v)
{
	set_uint(v, x->count);
}

static void get_method(const struct col_row *x, struct col_value *v)
{
	v->s = x->c->counts.method;
}

/* -------------------------------------------------------- the table -- */

static const struct column id_cols[COL_NIDS] = {
	[CID_WORKLOAD] = { "workload", COL_STR, 0, false, ROLE_ID, "", "`copy`, `split`, `transform`, or `limit` for the machine-limit rows", .get = get_workload },
	[CID_STRATEGY] = { "strategy", COL_STR, 0, false, ROLE_ID, "", "the copy strategy (copy, split) or channel (transform), or the name of a `--command`; for `limit`: `memcpy`, `memcpy-movsb`, `memcpy-mt`, `device-read`, `device-direct`", SPEC(variant) },
	[CID_DATASET] = { "dataset", COL_STR, 0, false, ROLE_ID, "", "`random`, `text`, `zero`, `sparse`; `file` for the user's file of `--source` (its path is in meta.json)", .get = get_dataset },
	[CID_SIZE] = { "size_bytes", COL_U64, 0, false, ROLE_ID, "bytes", "source size", SPEC(size) },
	[CID_BUFFER] = { "buffer_bytes", COL_U64, 0, false, ROLE_ID, "bytes", "buffer size the strategy was given (0 when it takes none)", SPEC(buffer) },
	[CID_CACHE] = { "cache", COL_STR, 0, false, ROLE_ID, "", "`warm` or `cold`", .get = get_cache },
	[CID_BATCH] = { "batch_lines", COL_U64, 0, false, ROLE_ID, "lines", "transform: lines per send (1 = per line, 0 = buffer-sized batches); 0 elsewhere", SPEC(batch_lines) },
	[CID_PART] = { "part_size", COL_U64, 0, false, ROLE_ID, "bytes", "split: the part size; 0 elsewhere", SPEC(part_size) },
	[CID_FSYNC] = { "fsync", COL_U64, 0, false, ROLE_ID, "", "1 when fdatasync of the output is inside the timed region", SPEC(fsync) },
	[CID_THREADS] = { "threads", COL_U64, 0, false, ROLE_ID, "", "`--threads` of a strategy that takes it (parallel; 0 = one per online CPU); 0 for the others", SPEC(threads) },
	[CID_QUEUE_DEPTH] = { "queue_depth", COL_U64, 0, false, ROLE_ID, "", "`--queue-depth` of a strategy that takes it (io_uring; 0 = its default); 0 for the others", SPEC(queue_depth) },
	[CID_COMMAND] = { "command", COL_STR, 0, false, ROLE_ID, "", "a `--command` row: the template it ran, with `{src}` and `{dst}` (its name is in `strategy`); empty for the other rows", .get = get_command },
};

static const struct column runs_cols[] = {
	{ "rep", COL_U64, 0, false, ROLE_MEASURE, "", "the run's number, 1 to N", RUN(rep) },
	{ "wall_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "wall-clock time of the timed region", RUN(wall_ns) },
	{ "user_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "user CPU time of the run's child inside the clock (the child and the processes it reaped there)", RUN(user_ns) },
	{ "sys_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "system CPU time of the run's child inside the clock (the child and the processes it reaped there)", RUN(sys_ns) },
	{ "max_rss_kb", COL_I64, 0, false, ROLE_MEASURE, "KiB", "largest resident set of the run's child process over its whole life (setup included)", RUN(max_rss_kb) },
	{ "minflt", COL_I64, 0, false, ROLE_MEASURE, "", "minor page faults of the run's child inside the clock", RUN(minflt) },
	{ "majflt", COL_I64, 0, false, ROLE_MEASURE, "", "major page faults of the run's child inside the clock", RUN(majflt) },
	{ "nvcsw", COL_I64, 0, false, ROLE_MEASURE, "", "voluntary context switches of the run's child inside the clock", RUN(nvcsw) },
	{ "nivcsw", COL_I64, 0, false, ROLE_MEASURE, "", "involuntary context switches of the run's child inside the clock", RUN(nivcsw) },
	{ "resident_pct", COL_DBL, 1, false, ROLE_MEASURE, "%", "share of the source in the page cache just before the run (mincore)", RUN(resident_pct) },
	{ "verified", COL_BOOL, 0, false, ROLE_MEASURE, "", "1 when the output was checked and right", RUN(verified) },
	{ "syscalls", COL_U64, 0, true, ROLE_MEASURE, "", "total system calls of the case's counting run (empty when counting was unavailable)", .get = get_syscalls },
	{ "seq", COL_U64, 0, false, ROLE_MEASURE, "", "the run's place in the order all runs of the invocation ran in (counting and warm-up runs included)", RUN(seq) },
	{ "start_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "when the run began, since the invocation's first run", RUN(start_ns) },
	{ "dirty_kb", COL_U64, 0, false, ROLE_MEASURE, "KiB", "dirty page-cache memory of the machine just before the run (/proc/meminfo Dirty)", RUN(dirty_kb) },
	{ "writeback_kb", COL_U64, 0, false, ROLE_MEASURE, "KiB", "memory under writeback just before the run, after waiting for it to end (/proc/meminfo Writeback)", RUN(writeback_kb) },
	{ "syncfs_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "the syncfs of the output's filesystem before the run, outside the clock: the dirty data and inodes earlier runs left there, written back and waited for", RUN(syncfs_ns) },
	{ "written_kb", COL_U64, 0, false, ROLE_MEASURE, "KiB", "pages written back inside the clock, machine-wide (/proc/vmstat nr_written): the run's own writeback, or another process's", RUN(written_kb) },
	{ "over_dirty_threshold", COL_BOOL, 0, false, ROLE_MEASURE, "", "1 when the output plus the dirty memory at the run's start exceed the kernel's dirty-background threshold: writeback ran inside the clock", RUN(over_threshold) },
	{ "output_blocks", COL_U64, 0, false, ROLE_MEASURE, "512 B", "blocks allocated to the verified output, all its files (st_blocks): an output with holes fails verification unless it is a clone (SEEK_HOLE)", RUN(output_blocks) },
	{ "cpu_wait_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "time the timed thread waited for a CPU inside the clock (schedstat)", RUN(cpu_wait_ns) },
	{ "cpu_run_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "time the timed thread ran on a CPU inside the clock (schedstat)", RUN(cpu_run_ns) },
	{ "reported_kib", COL_I64, 0, true, ROLE_MEASURE, "KiB", "memory the guest gave back to its host (free-page reporting) since the previous run ended; empty where the kernel does not say", .get = get_reported },
	{ "disturbed", COL_STR, 0, false, ROLE_MEASURE, "", "outside causes seen inside the clock: `reporting`, `steal`, `test` (the COPYBENCH_TEST_DISTURB test hook), joined by +; empty for none", .get = get_disturbed },
	{ "retried", COL_BOOL, 0, false, ROLE_MEASURE, "", "1: disturbed, so left out of the statistics and run again in a later round (while the case's budget, one retry per planned run, lasts)", RUN(retried) },
	{ "outlier", COL_BOOL, 0, false, ROLE_MEASURE, "", "1: a counted run whose time is over 3.5 robust standard deviations (1.4826 MAD) from the case's median; it stays in the statistics", RUN(outlier) },
	{ "pipe_bytes", COL_U64, 0, true, ROLE_MEASURE, "bytes", "splice: the pipe size the kernel granted in this run (F_GETPIPE_SZ; the strategy asks for its buffer, up to /proc/sys/fs/pipe-max-size); empty for other strategies", .get = get_pipe_bytes },
	{ "fixed_buffers", COL_BOOL, 0, true, ROLE_MEASURE, "", "io_uring: 1 when its buffers were registered (READ_FIXED/WRITE_FIXED) in this run, 0 when registering failed and it used plain ones; empty for other strategies", .get = get_fixed_buffers },
};

static const struct column summary_cols[] = {
	{ "runs", COL_U64, 0, false, ROLE_MEASURE, "", "measured runs attempted", CASE(nruns) },
	{ "verified_runs", COL_U64, 0, false, ROLE_MEASURE, "", "measured runs whose output was verified", SUM(verified) },
	{ "retried_runs", COL_U64, 0, false, ROLE_MEASURE, "", "measured runs disturbed by an outside cause and run again", SUM(retried) },
	{ "counted_runs", COL_U64, 0, false, ROLE_MEASURE, "", "runs the statistics are of: verified and not retried", SUM(counted) },
	{ "outlier_runs", COL_U64, 0, false, ROLE_MEASURE, "", "counted runs marked as outliers (see runs.csv)", SUM(outliers) },
	{ "median_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "median wall time", SUM(st.median) },
	{ "min_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "fastest wall time", SUM(st.min) },
	{ "max_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "slowest wall time", SUM(st.max) },
	{ "mean_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "mean wall time", SUM(st.mean) },
	{ "stddev_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "sample standard deviation of the wall time", SUM(st.stddev) },
	{ "cv", COL_DBL, 4, false, ROLE_MEASURE, "", "coefficient of variation: stddev / mean", SUM(st.cv) },
	{ "rcv", COL_DBL, 4, false, ROLE_MEASURE, "", "robust coefficient of variation: 1.4826 MAD / median (one outlier cannot inflate it)", SUM(st.rcv) },
	{ "mb_per_s", COL_DBL, 1, false, ROLE_MEASURE, "MiB/s", "size / median (1 MiB = 2^20 bytes)", SUM(mib_per_s) },
	{ "ratio_to_fastest", COL_DBL, 3, true, ROLE_MEASURE, "", "median / the fastest median of the page-cache copies of the same workload, dataset, size, cache and part size (1.000 = fastest); empty for rows not ranked (`class` device or clone); a `command` row's is against the page-cache copies too, which it never paces", .get = get_ratio },
	{ "class", COL_STR, 0, false, ROLE_MEASURE, "", "the work the row measures: `page-cache` (a copy through the page cache), `device` (device I/O around it: direct), `clone` (the output shares extents: no bytes copied), `limit`, `command` (a `--command`: a whole process, its start-up inside the clock)", .get = get_class },
	{ "syscalls", COL_U64, 0, true, ROLE_MEASURE, "", "total system calls of the counting run (empty when counting was unavailable)", .get = get_syscalls },
	{ "syscalls_per_mib", COL_DBL, 3, true, ROLE_MEASURE, "1/MiB", "syscalls per MiB of source", .get = get_syscalls_per_mib },
	{ "user_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "median user CPU time inside the clock (runs.csv)", SUM(user_ns) },
	{ "sys_ns", COL_DBL, 0, false, ROLE_MEASURE, "ns", "median system CPU time inside the clock (runs.csv)", SUM(sys_ns) },
	{ "pct_of_limit", COL_DBL, 1, true, ROLE_MEASURE, "%", "MiB/s against the limit row that bounds the row (`limit_row`; see Ranking and limits); empty without one", .get = get_pct_of_limit },
	{ "limit_row", COL_STR, 0, true, ROLE_MEASURE, "", "the limit row pct_of_limit divides by: `memcpy`, `memcpy-movsb`, `memcpy-mt`, `device-read` or `device-direct`", .get = get_limit_row },
	{ "status", COL_STR, 0, false, ROLE_MEASURE, "", "`ok`, `failed: <reason>` or `unavailable: <reason>`", .get = get_status },
	{ "shared_extents", COL_BOOL, 0, false, ROLE_MEASURE, "", "1 when a verified output shared extents with another file: cloned, not copied (see below)", CASE(shared_extents) },
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
	[COLFILE_RUNS] = { runs_cols, NCOLS(runs_cols) },
	[COLFILE_SUMMARY] = { summary_cols, NCOLS(summary_cols) },
	[COLFILE_SYSCALLS] = { syscalls_cols, NCOLS(syscalls_cols) },
};

/* ----------------------------------------------------------- access -- */

size_t columns_count(enum col_file f)
{
	return COL_NIDS + own_cols[f].n + NCOLS(env_cols);
}

const struct column *columns_get(enum col_file f, size_t i)
{
	if (i < COL_NIDS)
		return &id_cols[i];
	i -= COL_NIDS;
	if (i < own_cols[f].n)
		return &own_cols[f].cols[i];
	i -= own_cols[f].n;
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
	fputs("<!-- columns: generated by `bench columns --markdown` from harness/results/columns.c (tools/readme-columns.sh); edit the table there -->\n"
	      "## Identifying columns (first in every file)\n\n", f);
	md_table(f, COLFILE_RUNS, 0, COL_NIDS);
	for (enum col_file k = 0; k < COLFILE_COUNT; k++) {
		fprintf(f, "\n## %s — %s\n\nThe identifying columns, then:\n\n",
			col_files[k].name, col_files[k].rows);
		md_table(f, k, COL_NIDS, COL_NIDS + own_cols[k].n);
		fputs("\nthen the environment columns.\n", f);
	}
	fputs("\n## Environment columns (last in every file)\n\n", f);
	md_table(f, COLFILE_RUNS, columns_count(COLFILE_RUNS) - NCOLS(env_cols),
		 columns_count(COLFILE_RUNS));
	fputs("<!-- columns: end -->\n", f);
}

static int columns_apply(struct cli_parser *p, const struct cli_option *opt,
			 const struct cli_value *v)
{
	(void)v;
	if (opt->id == OPT_MARKDOWN)
		*(bool *)p->ctx = true;
	return 0;
}

int cmd_columns(int argc, char **argv)
{
	bool markdown = false;
	struct cli_parser p = { .cmd = CMD_COLUMNS, .apply = columns_apply, .ctx = &markdown };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (!markdown)
		return cli_usage_error(&p, "--markdown is required");
	columns_print_markdown(stdout);
	return fflush(stdout) ? 1 : 0;
}
