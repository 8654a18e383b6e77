// SPDX-License-Identifier: MIT
/*
 * bench_gbench.cc - the Google Benchmark runner for copybench's strategies.
 *
 * Implements gbench_register() from gbench.h and main(). Every registered
 * case becomes a benchmark with UseManualTime(): the loop runs the case's
 * untimed setup (cache state, fresh destination), times run() alone with a
 * steady clock, and runs the untimed teardown. Bytes per second come from
 * SetBytesProcessed. All --benchmark_* flags work; --dir=DIR picks where the
 * test files are written (default $TMPDIR, else /var/tmp).
 */
#include "gbench.h"

#include <benchmark/benchmark.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void gbench_run_case(benchmark::State &state, struct gbench_case c)
{
	char msg[256] = "";

	for (auto _ : state) {
		if (c.setup(c.arg, msg, sizeof(msg))) {
			state.SkipWithError(msg);
			break;
		}
		auto start = std::chrono::steady_clock::now();
		int err = c.run(c.arg, msg, sizeof(msg));
		auto stop = std::chrono::steady_clock::now();

		c.teardown(c.arg);
		if (err) {
			state.SkipWithError(msg);
			break;
		}
		state.SetIterationTime(std::chrono::duration<double>(stop - start).count());
	}
	state.SetBytesProcessed(state.iterations() * (int64_t)c.bytes);
	uint64_t calls;
	if (c.count_syscalls && c.count_syscalls(c.arg, &calls) == 0)
		state.counters["syscalls"] = benchmark::Counter((double)calls);
}

}  // namespace

extern "C" int gbench_register(const struct gbench_case *c)
{
	struct gbench_case copy = *c;

	try {
		benchmark::RegisterBenchmark(c->name, gbench_run_case, copy)
			->UseManualTime()
			->Unit(benchmark::kMillisecond);
	} catch (...) {
		return -ENOMEM;
	}
	return 0;
}

/* Takes --dir=DIR out of argv (Google Benchmark rejects unknown flags). */
static const char *gbench_take_dir(int *argc, char **argv)
{
	const char *dir = getenv("TMPDIR");
	int k = 1;

	if (!dir || !*dir)
		dir = "/var/tmp";
	for (int i = 1; i < *argc; i++) {
		if (strncmp(argv[i], "--dir=", 6) == 0)
			dir = argv[i] + 6;
		else
			argv[k++] = argv[i];
	}
	*argc = k;
	argv[k] = nullptr;
	return dir;
}

int main(int argc, char **argv)
{
	const char *dir = gbench_take_dir(&argc, argv);
	int err;

	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	err = gbench_copy_register_all(dir);
	if (err) {
		fprintf(stderr, "bench_gbench: cannot set up the benchmarks in %s: %s\n",
			dir, strerror(-err));
		gbench_copy_cleanup();
		return 1;
	}
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	gbench_copy_cleanup();
	return 0;
}
