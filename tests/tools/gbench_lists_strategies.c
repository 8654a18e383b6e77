// SPDX-License-Identifier: MIT
/*
 * gbench_lists_strategies.c - bench_gbench --benchmark_list_tests names every
 * strategy that is available here (and none that is test-only). The path of
 * bench_gbench is the first argument; without it (Google Benchmark not
 * installed) the test is skipped.
 */
#include "strategies/strategy.h"
#include "support/testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static char listing[1 << 20];

/* bench_gbench's list of benchmarks into listing; its exit status, or -1. */
static int read_listing(const char *gbench, const char *dir)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "'%s' --dir='%s' --benchmark_list_tests", gbench, dir);
	return test_run(cmd, listing, sizeof(listing));
}

int main(int argc, char **argv)
{
	const char *dir = test_tmpdir();
	char why[256], needle[128];

	if (argc < 2) {
		printf("gbench_lists_strategies: skipped: bench_gbench was not built (no libbenchmark-dev)\n");
		test_cleanup_dir();
		return 77;
	}
	CHECK_EQ_U64(read_listing(argv[1], dir), 0);
	for (size_t i = 0; i < strategy_count; i++) {
		const struct copy_strategy *s = strategy_table[i];
		bool listed;

		snprintf(needle, sizeof(needle), "copy/%s/", s->name);
		listed = strstr(listing, needle) != NULL;
		if (s->flags & STRATEGY_TEST_ONLY) {
			CHECK(!listed);
		} else if (strategy_probe(s, dir, why, sizeof(why)) == 0) {
			CHECK(listed);
			if (!listed)
				fprintf(stderr, "%s is available but not listed\n", s->name);
		}
	}
	test_cleanup_dir();
	return test_report("gbench_lists_strategies");
}
