// SPDX-License-Identifier: MIT
/*
 * fsync_rows_verified.c - `bench --fsync` end to end: every summary and run
 * row says fsync=1, every run is verified, and the counted (timed) region of
 * each copy holds exactly one fdatasync; without --fsync it holds none.
 * Syscalls are counted by ptrace; when ptrace is not permitted the count
 * checks are skipped with a note and the rows are still checked.
 */
#include "lib/csv.h"
#include "support/testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char *const fsync_strategies[] = { "readwrite", "copy_file_range" };
#define NSTRAT (sizeof(fsync_strategies) / sizeof(fsync_strategies[0]))

static int run_bench(const char *bench, const char *tmp, const char *out, bool fsync)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd),
		 "'%s' --workload copy --strategy readwrite,copy_file_range --size 1M "
		 "--repeat 2 --warmup 1 --syscalls ptrace --no-limits %s --dir '%s' "
		 "--out '%s' --quiet >'%s/stdout' 2>'%s/stderr'",
		 bench, fsync ? "--fsync" : "", tmp, out, tmp, tmp);
	return system(cmd);
}

static const char *cell(const struct csv_table *t, size_t row, const char *name)
{
	int c = csv_col(t, name);

	return c < 0 ? "" : csv_cell(t, row, (size_t)c);
}

/* The results file name of the folder out into t: csv_read's result. */
static int read_results(const char *out, const char *name, struct csv_table *t)
{
	char path[1200], why[256];

	snprintf(path, sizeof(path), "%s/%s", out, name);
	return csv_read(path, t, why, sizeof(why));
}

/* summary.csv: one ok row per strategy with 2 counted runs and the fsync flag. */
static void check_summary(const char *out, bool fsync)
{
	struct csv_table t = { 0 };
	unsigned seen = 0;

	CHECK(read_results(out, "summary.csv", &t) == 0);
	if (t.ncols == 0)
		return;
	for (size_t r = 0; r < t.nrows; r++) {
		if (strcmp(cell(&t, r, "workload"), "copy"))
			continue;
		seen++;
		CHECK(strcmp(cell(&t, r, "fsync"), fsync ? "1" : "0") == 0);
		CHECK(strcmp(cell(&t, r, "status"), "ok") == 0);
		CHECK(strcmp(cell(&t, r, "counted_runs"), "2") == 0);
		CHECK(strcmp(cell(&t, r, "shared_extents"), "0") == 0);
	}
	CHECK_EQ_U64(seen, NSTRAT);
	csv_free(&t);
}

/* runs.csv: every copy run verified, with the fsync flag; two counted runs
 * per strategy (a run disturbed from outside is there too, retried). */
static void check_runs(const char *out, bool fsync)
{
	struct csv_table t = { 0 };
	unsigned seen = 0;

	CHECK(read_results(out, "runs.csv", &t) == 0);
	if (t.ncols == 0)
		return;
	for (size_t r = 0; r < t.nrows; r++) {
		seen += strcmp(cell(&t, r, "retried"), "0") == 0;
		CHECK(strcmp(cell(&t, r, "fsync"), fsync ? "1" : "0") == 0);
		CHECK(strcmp(cell(&t, r, "verified"), "1") == 0);
	}
	CHECK_EQ_U64(seen, 2 * NSTRAT);
	csv_free(&t);
}

/* syscalls.csv: fdatasync counted once per copy with --fsync, never without. */
static void check_fdatasync(const char *out, bool fsync)
{
	struct csv_table t = { 0 };
	unsigned counted[NSTRAT] = { 0 }, rows = 0;

	if (read_results(out, "syscalls.csv", &t) || t.nrows == 0) {
		printf("note: no syscall counts (ptrace not permitted?): fdatasync count not checked\n");
		if (t.ncols)
			csv_free(&t);
		return;
	}
	for (size_t r = 0; r < t.nrows; r++) {
		for (size_t s = 0; s < NSTRAT; s++) {
			if (strcmp(cell(&t, r, "strategy"), fsync_strategies[s]))
				continue;
			rows++;
			if (strcmp(cell(&t, r, "syscall"), "fdatasync") == 0)
				counted[s] += (unsigned)strtoul(cell(&t, r, "count"), NULL, 10);
		}
	}
	CHECK(rows > 0);
	for (size_t s = 0; s < NSTRAT; s++)
		CHECK_EQ_U64(counted[s], fsync ? 1 : 0);
	csv_free(&t);
}

int main(void)
{
	const char *bench = getenv("BENCH"), *tmp = test_tmpdir();
	char out[1024];

	if (!bench) {
		printf("fsync_rows_verified: skipped: BENCH is not set (run it through ctest)\n");
		test_cleanup_dir();
		return 77;
	}
	for (int pass = 0; pass < 2; pass++) {
		bool fsync = pass == 0;

		snprintf(out, sizeof(out), "%s/results-%s", tmp, fsync ? "fsync" : "plain");
		CHECK_EQ_U64(run_bench(bench, tmp, out, fsync), 0);
		check_summary(out, fsync);
		check_runs(out, fsync);
		check_fdatasync(out, fsync);
	}
	test_cleanup_dir();
	return test_report("fsync_rows_verified");
}
