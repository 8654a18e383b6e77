// SPDX-License-Identifier: MIT
/*
 * run_columns.c - the columns of runs.csv: one line per thing a run
 * measures, beside the room that measures it (column.h). results/columns.c
 * puts them between the identifying and the environment columns.
 */
#include "column.h"
#include "child/disturb.h"
#include "lib/stats.h"

#include <string.h>

void col_set_int(struct col_value *v, int64_t x)
{
	v->i = x;
	v->u = (uint64_t)x;
	v->d = (double)x;
}

void col_set_uint(struct col_value *v, uint64_t x)
{
	v->u = x;
	v->i = (int64_t)x;
	v->d = (double)x;
}

void col_read_bool(const void *p, struct col_value *v) { col_set_uint(v, *(const bool *)p); }
void col_read_int(const void *p, struct col_value *v) { col_set_int(v, *(const int *)p); }
void col_read_long(const void *p, struct col_value *v) { col_set_int(v, *(const long *)p); }
void col_read_uint(const void *p, struct col_value *v) { col_set_uint(v, *(const unsigned *)p); }
void col_read_ulong(const void *p, struct col_value *v) { col_set_uint(v, *(const unsigned long *)p); }
void col_read_ullong(const void *p, struct col_value *v) { col_set_uint(v, *(const unsigned long long *)p); }
void col_read_dbl(const void *p, struct col_value *v) { v->d = *(const double *)p; }
void col_read_chars(const void *p, struct col_value *v) { v->s = (const char *)p; }
void col_read_str(const void *p, struct col_value *v) { v->s = *(const char *const *)p; }

/* The total of the counting run; empty when counting was unavailable. */
void col_get_syscalls(const struct col_row *x, struct col_value *v)
{
	v->empty = !x->c->counts.valid;
	col_set_uint(v, x->c->counts.total);
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

static void get_destination(const struct col_row *x, struct col_value *v)
{
	v->s = runner_destination_name(x->run->destination);
}

static void get_metadata(const struct col_row *x, struct col_value *v)
{
	v->s = cache_metadata_name(x->run->metadata);
}

static void get_file_resident_max(const struct col_row *x, struct col_value *v)
{
	v->empty = x->run->file_resident_max_pct < 0;
	v->d = x->run->file_resident_max_pct;
}

const struct column run_columns[] = {
	{ "rep", COL_U64, 0, false, ROLE_MEASURE, "", "the run's number, 1 to N", RUN(rep) },
	{ "wall_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "wall-clock time of the timed region", RUN(wall_ns) },
	{ "user_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "user CPU time of the run's child inside the clock (the child and the processes it reaped there)", RUN(user_ns) },
	{ "sys_ns", COL_U64, 0, false, ROLE_MEASURE, "ns", "system CPU time of the run's child inside the clock (the child and the processes it reaped there)", RUN(sys_ns) },
	{ "max_rss_kb", COL_I64, 0, false, ROLE_MEASURE, "KiB", "largest resident set of the run's child process over its whole life (setup included)", RUN(max_rss_kb) },
	{ "minflt", COL_I64, 0, false, ROLE_MEASURE, "", "minor page faults of the run's child inside the clock", RUN(minflt) },
	{ "majflt", COL_I64, 0, false, ROLE_MEASURE, "", "major page faults of the run's child inside the clock", RUN(majflt) },
	{ "child_minflt", COL_I64, 0, false, ROLE_MEASURE, "", "minor page faults of the run's child over its whole life (setup and teardown included, its own children too): what the harness's work around the clock faulted in", RUN(child_minflt) },
	{ "nvcsw", COL_I64, 0, false, ROLE_MEASURE, "", "voluntary context switches of the run's child inside the clock", RUN(nvcsw) },
	{ "nivcsw", COL_I64, 0, false, ROLE_MEASURE, "", "involuntary context switches of the run's child inside the clock", RUN(nivcsw) },
	{ "resident_pct", COL_DBL, 1, false, ROLE_MEASURE, "%", "share of the source in the page cache just before the run (mincore)", RUN(resident_pct) },
	{ "file_resident_max_pct", COL_DBL, 1, true, ROLE_MEASURE, "%", "tree: the largest share of one file's pages in the page cache just before the run (resident_pct is all files together); empty for a file", .get = get_file_resident_max },
	{ "metadata", COL_STR, 0, false, ROLE_MEASURE, "", "tree: its folders and inodes when the run began, from what happened: `cached` (warm, cold without a drop, or a drop_caches write the kernel refused), `dropped` (drop_caches 3 written after the check: `--drop-caches` as root); empty for a file", .get = get_metadata },
	{ "verified", COL_BOOL, 0, false, ROLE_MEASURE, "", "1 when the output was checked and right", RUN(verified) },
	{ "syscalls", COL_U64, 0, true, ROLE_MEASURE, "", "total system calls of the case's counting run (empty when counting was unavailable)", .get = col_get_syscalls },
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
	{ "disturbed", COL_STR, 0, false, ROLE_MEASURE, "", "outside causes that took over 10 % of the run's window (docs/noise.md): `reporting`, `steal`, `test` (the COPYBENCH_TEST_DISTURB test hook), joined by +; empty for none", .get = get_disturbed },
	{ "retried", COL_BOOL, 0, false, ROLE_MEASURE, "", "1: disturbed, so left out of the statistics and run again in a later round (while the case's budget, one retry per planned run, lasts)", RUN(retried) },
	{ "outlier", COL_BOOL, 0, false, ROLE_MEASURE, "", "1: a counted run whose time is over " STATS_TEXT(STATS_OUTLIER_Z) " robust standard deviations (" STATS_TEXT(STATS_MAD_TO_SD) " MAD) from the case's median; it stays in the statistics", RUN(outlier) },
	{ "destination", COL_STR, 0, false, ROLE_MEASURE, "", "a tree's destination when the run began: `fresh` (nothing freed there since the previous run: bench keeps the outputs until the end) or `reused` (bench had just removed an earlier output of many files there: `--destination reused`, or kept outputs removed for room); empty for an output of one file", .get = get_destination },
	{ "pipe_bytes", COL_U64, 0, true, ROLE_MEASURE, "bytes", "splice: the pipe size the kernel granted in this run (F_GETPIPE_SZ; the strategy asks for its buffer, up to /proc/sys/fs/pipe-max-size); empty for other strategies", .get = get_pipe_bytes },
	{ "fixed_buffers", COL_BOOL, 0, true, ROLE_MEASURE, "", "io_uring: 1 when its buffers were registered (READ_FIXED/WRITE_FIXED) in this run, 0 when registering failed and it used plain ones; empty for other strategies", .get = get_fixed_buffers },
};

const size_t run_columns_count = sizeof(run_columns) / sizeof(run_columns[0]);
