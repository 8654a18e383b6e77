// SPDX-License-Identifier: MIT
/*
 * gbench_fails_on_corrupt_output.c - bench_gbench verifies every copy: the
 * test-only `corrupt` strategy (one output byte flipped), registered only
 * with --gbench_test_only, fails its benchmark with the verification message
 * and makes bench_gbench exit 1; readwrite on the same case passes. The path
 * of bench_gbench is the first argument; without it the test is skipped.
 */
#include "support/testutil.h"

#include <string.h>

static char out[1 << 16];

/* Runs the benchmarks matching filter, stdout and stderr into out. */
static int run_gbench(const char *gbench, const char *dir, const char *filter)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "'%s' --dir='%s' --gbench_test_only --benchmark_min_time=0.01 --benchmark_filter='%s' 2>&1",
		 gbench, dir, filter);
	return test_run(cmd, out, sizeof(out));
}

int main(int argc, char **argv)
{
	const char *dir = test_tmpdir();

	if (argc < 2) {
		printf("gbench_fails_on_corrupt_output: skipped: bench_gbench was not built (no libbenchmark-dev)\n");
		test_cleanup_dir();
		return 77;
	}
	CHECK_EQ_U64(run_gbench(argv[1], dir, "^copy/corrupt/size:1M/warm/"), 1);
	CHECK(strstr(out, "copy/corrupt/size:1M/warm/manual_time ERROR OCCURRED: 'verification failed: output hash ") != NULL);
	CHECK(strstr(out, "differs from the source's") != NULL);
	CHECK(strstr(out, "bench_gbench: failed benchmark runs: 1 (see their error messages)") != NULL);

	CHECK_EQ_U64(run_gbench(argv[1], dir, "^copy/readwrite/size:1M/warm/"), 0);
	CHECK(strstr(out, "copy/readwrite/size:1M/warm/manual_time") != NULL);
	CHECK(strstr(out, "ERROR OCCURRED") == NULL);
	if (test_failures)
		fprintf(stderr, "bench_gbench said:\n%s", out);
	test_cleanup_dir();
	return test_report("gbench_fails_on_corrupt_output");
}
