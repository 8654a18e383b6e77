// SPDX-License-Identifier: MIT
/*
 * gbench_uses_bench_defaults.c - bench_gbench --gbench_describe lists every
 * benchmark with the knobs it copies with. The cases without a buffer in
 * their name use what `bench` uses when given no option: the strategy's
 * default buffer (none for unbuffered strategies), bench's queue depth and
 * thread count; the buffer sweep (buffered strategies only) differs from
 * them in the buffer alone, the one its name says. The path of bench_gbench
 * is the first argument; without it the test is skipped.
 */
#include "lib/units.h"
#include "options/options.h"
#include "strategies/strategy.h"
#include "support/testutil.h"

#include <stdlib.h>
#include <string.h>

static const size_t sweep[] = { 8u << 10, 64u << 10, 4u << 20 };

static char listing[1 << 18];

/* The strategy of benchmark name "copy/<strategy>/...", or NULL. */
static const struct copy_strategy *strategy_of(const char *name)
{
	char s[64];

	if (sscanf(name, "copy/%63[^/]/", s) != 1)
		return NULL;
	return strategy_find(s);
}

static bool in_sweep(size_t buffer)
{
	for (size_t i = 0; i < sizeof(sweep) / sizeof(sweep[0]); i++)
		if (sweep[i] == buffer)
			return true;
	return false;
}

/* Checks one listed benchmark; counts the cases with bench's own buffer. */
static void check_case(const char *name, size_t buffer, unsigned depth, unsigned threads,
		       const struct bench_opts *o, size_t *defaults)
{
	const struct copy_strategy *s = strategy_of(name);
	const char *named = strstr(name, "/buffer:");
	char want[32];

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ_U64(depth, o->queue_depth);
	CHECK_EQ_U64(threads, o->threads);
	if (!named) {
		CHECK_EQ_U64(buffer, s->flags & STRATEGY_BUFFERED ? strategy_default_buffer(s) : 0);
		(*defaults)++;
		return;
	}
	CHECK(s->flags & STRATEGY_BUFFERED);
	CHECK(in_sweep(buffer));
	format_size(buffer, want, sizeof(want));
	CHECK(strncmp(named + strlen("/buffer:"), want, strlen(want)) == 0);
	CHECK(named[strlen("/buffer:") + strlen(want)] == '/');
}

int main(int argc, char **argv)
{
	const char *dir = test_tmpdir();
	char cmd[1024], name[256], bench[] = "bench";
	char *bench_argv[] = { bench, NULL };
	size_t lines = 0, defaults = 0;
	struct bench_opts o;

	if (argc < 2) {
		printf("gbench_uses_bench_defaults: skipped: bench_gbench was not built (no libbenchmark-dev)\n");
		test_cleanup_dir();
		return 77;
	}
	CHECK_EQ_U64(options_parse(1, bench_argv, &o), 0);
	snprintf(cmd, sizeof(cmd), "'%s' --dir='%s' --gbench_describe", argv[1], dir);
	CHECK_EQ_U64(test_run(cmd, listing, sizeof(listing)), 0);
	for (char *line = strtok(listing, "\n"); line; line = strtok(NULL, "\n")) {
		size_t buffer;
		unsigned depth, threads;

		lines++;
		CHECK_EQ_U64(sscanf(line, "%255s buffer=%zu queue_depth=%u threads=%u",
				    name, &buffer, &depth, &threads), 4);
		check_case(name, buffer, depth, threads, &o, &defaults);
	}
	/* Every strategy has 3 sizes x warm and cold with bench's knobs. */
	CHECK(lines > 0);
	CHECK_EQ_U64(defaults % 6, 0);
	CHECK(defaults > 0);
	test_cleanup_dir();
	return test_report("gbench_uses_bench_defaults");
}
