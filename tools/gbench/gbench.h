/* SPDX-License-Identifier: MIT */
/*
 * gbench.h - a C registration API for Google Benchmark.
 *
 * Google Benchmark is C++; the strategies and the harness are C. This header
 * is the whole bridge: C code describes a benchmark as three callbacks and a
 * byte count, and bench_gbench.cc turns each description into a Google
 * Benchmark benchmark with manual timing: setup() and teardown() run outside
 * the clock around every iteration, only run() is timed.
 */
#ifndef COPYBENCH_GBENCH_H
#define COPYBENCH_GBENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gbench_case {
	const char *name;	/* copied at registration */
	uint64_t bytes;		/* moved per iteration: SetBytesProcessed */
	void *arg;		/* handed to every callback; owned by the caller */
	/* Untimed, before each iteration. 0 or -errno, msg filled. */
	int (*setup)(void *arg, char *msg, size_t n);
	/* Timed: the work itself. 0 or -errno, msg filled. */
	int (*run)(void *arg, char *msg, size_t n);
	/* Untimed, after each iteration (also after a failed run). */
	void (*teardown)(void *arg);
	/*
	 * Optional, untimed, once after the timed loop: system calls one
	 * iteration makes, reported as the counter "syscalls". NULL: no counter.
	 */
	int (*count_syscalls)(void *arg, uint64_t *count);
};

/* Registers one benchmark. 0 or -ENOMEM. */
int gbench_register(const struct gbench_case *c);

/* gbench_copy.c: the copy benchmarks. */
/* Registers every available strategy x size x buffer x cache state, with the
 * files kept in a new directory under dir. 0 or -errno. */
int gbench_copy_register_all(const char *dir);
/* Removes the files and the directory. */
void gbench_copy_cleanup(void);

#ifdef __cplusplus
}
#endif

#endif
