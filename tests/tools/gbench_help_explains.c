// SPDX-License-Identifier: MIT
/*
 * gbench_help_explains.c - bench_gbench --help (and -h) says what the runner
 * measures and lists its own flags and exit status before Google
 * Benchmark's flags, and exits 0. The path of bench_gbench is the first
 * argument; without it (Google Benchmark not installed) the test is skipped.
 */
#include "support/testutil.h"

#include <string.h>

static char text[1 << 16];

/* bench_gbench FLAG's stdout into text; its exit status, or -1. */
static int help_of(const char *gbench, const char *flag)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "'%s' %s 2>/dev/null", gbench, flag);
	return test_run(cmd, text, sizeof(text));
}

static void check_help(const char *gbench, const char *flag)
{
	const char *own, *theirs;

	CHECK_EQ_U64(help_of(gbench, flag), 0);
	own = strstr(text, "--gbench_describe");
	theirs = strstr(text, "--benchmark_filter");
	CHECK(strstr(text, "usage: bench_gbench") == text);
	CHECK(strstr(text, "--dir=DIR") && strstr(text, "--gbench_test_only"));
	CHECK(strstr(text, "copy/<strategy>/size:<size>/<cache>") != NULL);
	CHECK(strstr(text, "Exit status:") != NULL);
	CHECK(own && theirs && own < theirs);
	if (!own || !theirs)
		fprintf(stderr, "bench_gbench %s printed:\n%s\n", flag, text);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		printf("gbench_help_explains: skipped: bench_gbench was not built (no libbenchmark-dev)\n");
		return 77;
	}
	check_help(argv[1], "--help");
	check_help(argv[1], "-h");
	return test_report("gbench_help_explains");
}
