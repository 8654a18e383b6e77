// SPDX-License-Identifier: MIT
/*
 * dry_estimate_from_runs.c - the rates --dry-run, --budget and the progress
 * line plan by, learned from an earlier runs.csv (harness/run/estimate.c):
 * a run's cost is the time from its start to the start of the run after it
 * (seq + 1), less 10 ms a run; a workload's rate is its bytes (trees: its
 * files) over that. Known answers: two copy runs of 200 MiB costing 1.01 s
 * each (200 MiB/s); a tree run of 500 files costing 0.51 s (1000 files/s);
 * a cold copy run of 200 MiB costing 2.01 s, its own rate (100 MiB/s);
 * the last run and a run before a gap in seq (a warm-up there) teach
 * nothing; a workload the file lacks keeps its default. A tree run at the
 * default rate: its files at 10 000 files/s, not MiB/s; the kept outputs'
 * removal at 50 000 files/s and 28 ms an output (its folders). One of the two copy runs was run again
 * (retried): keeping 6 measured copy runs takes 12, cold ones 6. From the
 * newest folders of a host, each workload's newest rate: an older folder's
 * split rate (two runs of 100 MiB costing 1.01 s: 100 MiB/s) fills the
 * workload the newest lacks, and its copy rate (50 MiB/s) does not replace
 * the newest's 200. A run of the very workload and size measured (a tree
 * of 20 000 files costing 1.5 s) is its estimate, not the rate's 20.01 s.
 */
#include "run/estimate.h"
#include "support/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char runs_csv[] =
	"workload,strategy,size_bytes,files,seq,start_ns,cache,retried\n"
	"copy,readwrite,209715200,0,2,0,warm,1\n"
	"copy,sendfile,209715200,0,3,1010000000,warm,0\n"
	"tree,pool,2048000,500,4,2020000000,warm,0\n"
	"copy,splice,209715200,0,5,2530000000,warm,1\n"
	"copy,mmap,209715200,0,7,9000000000,warm,1\n"
	"split,readwrite,209715200,0,9,9500000000,warm,0\n"
	"copy,readwrite,209715200,0,20,20000000000,cold,0\n"
	"copy,sendfile,209715200,0,21,22010000000,warm,0\n";

static const char older_csv[] =
	"workload,strategy,size_bytes,files,seq,start_ns,cache,retried\n"
	"copy,readwrite,104857600,0,1,0,warm,0\n"
	"split,readwrite,104857600,0,2,2010000000,warm,0\n"
	"split,mmap,104857600,0,3,3020000000,warm,0\n"
	"copy,readwrite,104857600,0,4,4030000000,warm,0\n"
	"tree,pool,81920000,20000,5,5030000000,warm,0\n"
	"copy,readwrite,104857600,0,6,6530000000,warm,0\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fputs(text, f) >= 0 && fclose(f) == 0);
}

int main(void)
{
	const char *dir = test_tmpdir();
	char path[256], found[512];
	struct estimate e, plain;
	struct bench_case c;
	FILE *f;

	snprintf(path, sizeof(path), "%s/20260101T000000Z-h1", dir);
	CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/20260101T000000Z-h1/runs.csv", dir);
	f = fopen(path, "w");
	CHECK(f && fputs(runs_csv, f) >= 0 && fclose(f) == 0);
	CHECK(estimate_latest_results(dir, "h1", found, sizeof(found)));
	CHECK(!strcmp(found, path));
	CHECK(!estimate_latest_results(dir, "h2", found, sizeof(found)));

	estimate_init(&e);
	estimate_init(&plain);
	CHECK(estimate_learn(&e, path) == 0);
	CHECK(fabs(estimate_rate_of(&e, "copy")->mib_per_s - 200.0) < 1e-9);
	CHECK_EQ_U64(estimate_rate_of(&e, "copy")->runs, 2);
	CHECK(fabs(estimate_rate_of(&e, "tree")->files_per_s - 1000.0) < 1e-9);
	CHECK_EQ_U64(estimate_rate_of(&e, "tree")->runs, 1);
	CHECK(estimate_rate_of(&e, "split")->runs == 0 &&
	      estimate_rate_of(&e, "split")->mib_per_s == estimate_rate_of(&plain, "split")->mib_per_s);
	if (fabs(estimate_rate_of(&e, "copy")->mib_per_s - 200.0) >= 1e-9)
		fprintf(stderr, "copy: %.3f MiB/s from %zu runs, expected 200 from 2\n",
			estimate_rate_of(&e, "copy")->mib_per_s, estimate_rate_of(&e, "copy")->runs);
	CHECK(fabs(estimate_rate_of(&e, "copy/cold")->mib_per_s - 100.0) < 1e-9);
	CHECK_EQ_U64(estimate_rate_of(&e, "copy/cold")->runs, 1);
	/* and a case's run at those rates: 10 ms and its bytes or files */
	memset(&c, 0, sizeof(c));
	c.spec.wl = workload_find("copy");
	c.spec.size = 100ull << 20;
	CHECK(c.spec.wl && fabs(estimate_run_s(&e, &c) - 0.51) < 1e-9);
	CHECK(fabs(estimate_runs(&e, &c, 6) - 12.0) < 1e-9);	/* half run again */
	CHECK(fabs(estimate_runs(&plain, &c, 6) - 6.0) < 1e-9);
	c.cache = CACHE_COLD;
	CHECK(fabs(estimate_run_s(&e, &c) - 1.01) < 1e-9);
	CHECK(fabs(estimate_runs(&e, &c, 6) - 6.0) < 1e-9);
	/* a tree at the default rate, files/s; and its kept outputs' removal,
	 * by their entries */
	c.cache = CACHE_WARM;
	c.spec.wl = workload_find("tree");
	c.spec.files = 20000;
	c.spec.size = 20000ull * 4096;
	CHECK(c.spec.wl && fabs(estimate_run_s(&plain, &c) - 2.01) < 1e-9);
	CHECK(fabs(estimate_run_s(&e, &c) - 20.01) < 1e-9);	/* learned: 1000 files/s */
	CHECK(fabs(estimate_remove_s(&e, 200000) - 4.028) < 1e-9);
	CHECK(fabs(estimate_finish_s(&e, 200000, 10) - (0.5 + 4.0 + 0.28)) < 1e-9);

	snprintf(path, sizeof(path), "%s/20251231T000000Z-h1", dir);
	CHECK(mkdir(path, 0700) == 0);
	snprintf(path, sizeof(path), "%s/20251231T000000Z-h1/runs.csv", dir);
	write_file(path, older_csv);
	estimate_init(&e);
	CHECK_EQ_U64(estimate_learn_recent(&e, dir, "h1", 20), 2);
	CHECK(fabs(estimate_rate_of(&e, "copy")->mib_per_s - 200.0) < 1e-9);
	CHECK(fabs(estimate_rate_of(&e, "split")->mib_per_s - 100.0) < 1e-9);
	CHECK(strstr(e.from, "-h1/runs.csv and, for the workloads it lacks, 1 older result folder"));
	CHECK(fabs(estimate_run_s(&e, &c) - 1.5) < 1e-9);	/* c: the tree of 20 000 */
	c.spec.files = 19999;
	CHECK(fabs(estimate_run_s(&e, &c) - (0.01 + 19999 / 1000.0)) < 1e-9);
	estimate_init(&e);
	CHECK_EQ_U64(estimate_learn_recent(&e, dir, "h1", 1), 1);
	CHECK(estimate_rate_of(&e, "split")->runs == 0);
	test_cleanup_dir();
	return test_report("dry_estimate_from_runs");
}
