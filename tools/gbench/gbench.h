/* SPDX-License-Identifier: MIT */
/*
 * gbench.h - a C registration API for Google Benchmark.
 *
 * Google Benchmark is C++; the strategies and the harness are C. This header
 * is the whole bridge: C code describes a benchmark as callbacks and a byte
 * count, and bench_gbench.cc turns each description into a Google Benchmark
 * benchmark with manual timing: setup() and teardown() run outside the clock
 * around every iteration, only run() is timed.
 *
 * Outcomes: a callback returning -EAGAIN means "this case cannot be measured
 * here" (skipped with its message, not a failure); any other error fails the
 * benchmark with its message and makes bench_gbench exit 1.
 */
#ifndef COPYBENCH_GBENCH_H
#define COPYBENCH_GBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gbench_case {
	const char *name;	/* copied at registration */
	/* What one iteration runs with, one line for --gbench_describe;
	 * copied at registration. */
	const char *knobs;
	uint64_t bytes;		/* moved per iteration: SetBytesProcessed */
	void *arg;		/* handed to every callback; owned by the caller */
	/* Untimed, before each iteration. 0 or -errno, msg filled. */
	int (*setup)(void *arg, char *msg, size_t n);
	/* Timed: the work itself. 0 or -errno, msg filled. */
	int (*run)(void *arg, char *msg, size_t n);
	/* Untimed, after each iteration, also after a failed run (with
	 * run_failed set: then it only cleans up). Checks the output:
	 * 0 or -errno, msg filled. */
	int (*teardown)(void *arg, bool run_failed, char *msg, size_t n);
	/*
	 * Optional, untimed, after the timed loop of a benchmark that did not
	 * fail: system calls one iteration makes, reported as the counter
	 * "syscalls". NULL: no counter.
	 */
	int (*count_syscalls)(void *arg, uint64_t *count);
};

/* Registers one benchmark. 0 or -ENOMEM. bench_gbench.cc implements it and
 * hands it to the C side, which never calls up into C++ by name. */
typedef int (*gbench_register_fn)(const struct gbench_case *c);

/* gbench_copy.c: the copy benchmarks. */
/*
 * Registers, through reg, every available strategy x size x cache state with
 * bench's default knobs, and the buffer sweep of the buffered ones, with the
 * files kept in a new directory under dir. test_only: the test-only
 * strategies too. 0 or -errno.
 */
int gbench_copy_register_all(const char *dir, bool test_only, gbench_register_fn reg);
/* Removes the files and the directory. */
void gbench_copy_cleanup(void);

/*
 * bench_gbench.cc: the whole runner, its flags and Google Benchmark's; the
 * process exit status. bench_gbench's main() is this alone (gbench_main.c);
 * a test build adds strategies first (strategy_register_extra,
 * strategies/strategy.h).
 */
int gbench_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
