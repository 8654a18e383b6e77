// SPDX-License-Identifier: MIT
/*
 * bench_gbench.cc - the Google Benchmark runner for copybench's strategies.
 *
 * Implements the gbench_register_fn of gbench.h and gbench_main(), the
 * whole runner (gbench_main.c is bench_gbench's main). Every registered
 * case becomes a benchmark with UseManualTime(): the loop runs the case's
 * untimed setup (cache state, fresh destination), times run() alone with a
 * steady clock, and runs the untimed teardown (which verifies the output).
 * Bytes per second come from SetBytesProcessed. A case that cannot be
 * measured here is skipped with SkipWithError("unavailable: ..."); a case
 * that fails (a copy error, an output that differs from its source) is
 * stopped with SkipWithError and its message, and the process exits 1.
 *
 * All --benchmark_* flags work, and three of our own (--help shows them,
 * what is measured, then Google Benchmark's flags):
 *   --dir=DIR            where the test files are written (default $TMPDIR,
 *                        else /var/tmp)
 *   --gbench_test_only   also register the test-only strategies
 *                        (STRATEGY_TEST_ONLY), which only a test build has
 *   --gbench_describe    print every benchmark with the knobs it runs with
 *                        (buffer, queue depth, threads) and exit
 */
#include "gbench.h"

#include <benchmark/benchmark.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

/* Every registered benchmark's name and knobs, for --gbench_describe. */
std::vector<std::pair<std::string, std::string>> gbench_described;
/* Benchmark runs that failed (not the unavailable ones): exit 1. */
unsigned gbench_failed_runs;

struct gbench_args {
	const char *dir;
	bool test_only;
	bool describe;
};

/* Stops the benchmark with msg; only -EAGAIN (unavailable) is no failure. */
void gbench_stop(benchmark::State &state, int err, const char *msg)
{
	if (err != -EAGAIN)
		gbench_failed_runs++;
	state.SkipWithError(msg);
}

/* One timed iteration between its untimed setup and teardown. 0 or -errno. */
int gbench_iteration(benchmark::State &state, const struct gbench_case &c,
		     char *msg, size_t n)
{
	int err = c.setup(c.arg, msg, n);

	if (err)
		return err;
	auto start = std::chrono::steady_clock::now();
	err = c.run(c.arg, msg, n);
	auto stop = std::chrono::steady_clock::now();

	if (err) {
		c.teardown(c.arg, true, nullptr, 0);
		return err;
	}
	err = c.teardown(c.arg, false, msg, n);
	if (!err)
		state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
	return err;
}

void gbench_run_case(benchmark::State &state, struct gbench_case c)
{
	char msg[512] = "";
	uint64_t calls;

	for (auto _ : state) {
		int err = gbench_iteration(state, c, msg, sizeof(msg));

		if (err) {
			gbench_stop(state, err, msg);
			break;
		}
	}
	if (state.error_occurred())
		return;
	state.SetBytesProcessed(state.iterations() * (int64_t)c.bytes);
	/* After the loop: Google Benchmark's clocks have stopped. */
	if (c.count_syscalls && c.count_syscalls(c.arg, &calls) == 0)
		state.counters["syscalls"] = benchmark::Counter((double)calls);
}

/* --help: what this runner measures and its own flags, then Google
 * Benchmark's (benchmark::Initialize prints this and exits 0). */
void gbench_help(void)
{
	fputs("usage: bench_gbench [--dir=DIR] [--gbench_test_only] [--gbench_describe]\n"
	      "                    [--benchmark_...]\n"
	      "\n"
	      "copybench's copy strategies as Google Benchmark benchmarks: every strategy\n"
	      "available here x 1M, 16M, 64M x warm and cold cache, with the knobs bench uses\n"
	      "when given none (the strategy's default buffer, bench's queue depth and\n"
	      "threads), named copy/<strategy>/size:<size>/<cache>; buffered strategies also\n"
	      "sweep 8K, 64K and 4M buffers (copy/<strategy>/size:<size>/buffer:<b>/<cache>).\n"
	      "Per iteration, outside the clock: the source brought into its cache state\n"
	      "(one it cannot reach, e.g. cold on tmpfs, is skipped as \"unavailable\") and a\n"
	      "fresh destination; timed: the strategy's copy alone; then the copy's XXH3 is\n"
	      "checked against the source's, as bench verifies every run. The counter\n"
	      "\"syscalls\" is the system calls one copy makes. bench itself (bench --help)\n"
	      "adds what this runner has not: its stopping rule, limit rows, noise checks.\n"
	      "\n"
	      "Options of this runner:\n"
	      "  --dir=DIR            where the test files are written\n"
	      "                       (default: $TMPDIR, else /var/tmp)\n"
	      "  --gbench_test_only   also register the test-only strategies, which only a\n"
	      "                       test build has\n"
	      "  --gbench_describe    print every benchmark with the knobs it runs with\n"
	      "                       (buffer, queue depth, threads) and exit\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "Exit status: 0 success; 1 a benchmark failed (a copy error, or an output that\n"
	      "differs from its source); 2 an unknown flag.\n"
	      "\n"
	      "Google Benchmark's flags:\n", stdout);
	benchmark::PrintDefaultHelp();
}

/* Takes our own flags out of argv (Google Benchmark rejects unknown flags). */
struct gbench_args gbench_take_args(int *argc, char **argv)
{
	struct gbench_args a = { getenv("TMPDIR"), false, false };
	int k = 1;

	if (!a.dir || !*a.dir)
		a.dir = "/var/tmp";
	for (int i = 1; i < *argc; i++) {
		if (strncmp(argv[i], "--dir=", 6) == 0)
			a.dir = argv[i] + 6;
		else if (strcmp(argv[i], "--gbench_test_only") == 0)
			a.test_only = true;
		else if (strcmp(argv[i], "--gbench_describe") == 0)
			a.describe = true;
		else if (strcmp(argv[i], "-h") == 0)
			argv[k++] = (char *)"--help";
		else
			argv[k++] = argv[i];
	}
	*argc = k;
	argv[k] = nullptr;
	return a;
}

}  // namespace

/* What gbench_copy.c registers its cases through. */
extern "C" int gbench_register(const struct gbench_case *c)
{
	struct gbench_case copy = *c;

	try {
		gbench_described.emplace_back(c->name, c->knobs ? c->knobs : "");
		benchmark::RegisterBenchmark(c->name, gbench_run_case, copy)
			->UseManualTime()
			->Unit(benchmark::kMillisecond);
	} catch (...) {
		return -ENOMEM;
	}
	return 0;
}

extern "C" int gbench_main(int argc, char **argv)
{
	struct gbench_args a = gbench_take_args(&argc, argv);
	int err;

	benchmark::Initialize(&argc, argv, gbench_help);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	err = gbench_copy_register_all(a.dir, a.test_only, gbench_register);
	if (err) {
		fprintf(stderr, "bench_gbench: cannot set up the benchmarks in %s: %s\n",
			a.dir, strerror(-err));
		gbench_copy_cleanup();
		return 1;
	}
	if (a.describe) {
		for (const auto &d : gbench_described)
			printf("%s %s\n", d.first.c_str(), d.second.c_str());
	} else {
		benchmark::RunSpecifiedBenchmarks();
	}
	benchmark::Shutdown();
	gbench_copy_cleanup();
	if (gbench_failed_runs) {
		fprintf(stderr, "bench_gbench: failed benchmark runs: %u (see their error messages)\n",
			gbench_failed_runs);
		return 1;
	}
	return 0;
}
