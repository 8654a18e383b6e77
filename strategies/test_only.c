// SPDX-License-Identifier: MIT
/*
 * test_only.c - strategies that exist to test the harness, hidden from
 * `bench list` and --all (STRATEGY_TEST_ONLY), run only when named:
 *
 *   corrupt       copies like readwrite, then flips one byte of the output:
 *                 verification must catch it and bench must exit 1;
 *   throttled     copies like readwrite, then spins for COPYBENCH_THROTTLE_PCT
 *                 percent of the copy's own time (default 0: exactly
 *                 readwrite), a known slowdown under one case name for
 *                 `bench check`, with readwrite's system calls; with
 *                 COPYBENCH_THROTTLE_EVERY_OTHER_MS=N
 *                 it also sleeps N ms after the copy in every other run
 *                 (those whose output, `out-SEQ`, has an odd SEQ: the
 *                 run's place in the invocation's order), so a case's runs
 *                 fall into exactly two modes;
 *   touch-source  copies like readwrite, then adds one to the source's first
 *                 byte: a file changed during the run (--source must refuse
 *                 the results). Not an inversion: a disturbed run and its
 *                 rerun would change it twice, back to what it was;
 *   holes         copies like readwrite, then punches a hole over the
 *                 output's first 64 KiB, keeping its size: on zero data the
 *                 bytes stay right, and the hole must fail verification.
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern const struct copy_strategy strategy_readwrite;

static int corrupt_copy(const struct copy_job *job)
{
	unsigned char byte;
	uint64_t at = job->dst_off + job->len / 2;
	int err = strategy_readwrite.copy(job);

	if (err || job->len == 0)
		return err;
	if (full_pread(job->dst_fd, &byte, 1, at) != 1)
		return -EIO;
	byte ^= 0x5a;
	return full_pwrite(job->dst_fd, &byte, 1, at);
}

/* The calling thread's CPU time (a system call: used only before any copy). */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A clock read without a system call (the vDSO). */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void spin(uint64_t iterations)
{
	for (volatile uint64_t i = 0; i < iterations; i++)
		;
}

/* Spin iterations per ns of CPU time, measured once per process when a
 * throttle is asked for, before any copy: the spin is then a fixed amount of
 * CPU work, whatever else the machine runs, and makes no system call, so
 * the throttled case's system calls are readwrite's at every percentage. */
static double spin_per_ns;

__attribute__((constructor)) static void throttle_calibrate(void)
{
	const char *env = getenv("COPYBENCH_THROTTLE_PCT");
	uint64_t n = 1u << 16, t0, t;

	if (!env || strtod(env, NULL) <= 0)
		return;
	for (;;) {
		t0 = thread_cpu_ns();
		spin(n);
		t = thread_cpu_ns() - t0;
		if (t >= 2000000 || n >= (1ull << 40))
			break;
		n *= 2;
	}
	spin_per_ns = (double)n / (double)(t ? t : 1);
}

/* The run's place in the order, from its output's name (`.../out-SEQ`);
 * 0 when the name says none. */
static unsigned output_seq(int dst_fd)
{
	char link[64], path[4096];
	const char *dash;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", dst_fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	dash = strrchr(path, '-');
	return dash ? (unsigned)strtoul(dash + 1, NULL, 10) : 0;
}

/* COPYBENCH_THROTTLE_EVERY_OTHER_MS: a sleep in every other run. */
static void sleep_every_other(const struct copy_job *job)
{
	const char *env = getenv("COPYBENCH_THROTTLE_EVERY_OTHER_MS");
	long ms = env ? strtol(env, NULL, 10) : 0;
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 };

	if (ms <= 0 || output_seq(job->dst_fd) % 2 == 0)
		return;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* readwrite, then CPU work of PCT % of the copy's time (its clock, read
 * through the vDSO), then the every-other-run sleep when asked. */
static int throttled_copy(const struct copy_job *job)
{
	const char *env = getenv("COPYBENCH_THROTTLE_PCT");
	double pct = env ? strtod(env, NULL) : 0;
	uint64_t t0;
	int err;

	if (pct <= 0 || spin_per_ns <= 0) {
		err = strategy_readwrite.copy(job);
		if (!err)
			sleep_every_other(job);
		return err;
	}
	t0 = mono_ns();
	err = strategy_readwrite.copy(job);
	if (err)
		return err;
	spin((uint64_t)((double)(mono_ns() - t0) * pct / 100.0 * spin_per_ns));
	sleep_every_other(job);
	return 0;
}

/* The source's first byte inverted through a descriptor opened for writing
 * (the job's is read-only). */
static int touch_source(int src_fd)
{
	char path[64];
	unsigned char byte;
	int fd, err = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", src_fd);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (full_pread(src_fd, &byte, 1, 0) != 1)
		err = -EIO;
	byte = (unsigned char)(byte + 1);
	if (!err && full_pwrite(fd, &byte, 1, 0))
		err = -EIO;
	close(fd);
	return err;
}

static int touch_source_copy(const struct copy_job *job)
{
	int err = strategy_readwrite.copy(job);

	if (err || job->len == 0)
		return err;
	return touch_source(job->src_fd);
}

#define HOLE_BYTES (64 * 1024)

static int holes_copy(const struct copy_job *job)
{
	int err = strategy_readwrite.copy(job);

	if (err || job->len < HOLE_BYTES)
		return err;
	if (fallocate(job->dst_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)job->dst_off, HOLE_BYTES))
		return -errno;
	return 0;
}

const struct copy_strategy strategy_corrupt = {
	.name = "corrupt",
	.description = "test only: readwrite, then one output byte flipped (verification must fail)",
	.syscalls = "pread64,pwrite64,fadvise64",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE | STRATEGY_TEST_ONLY,
	.copy = corrupt_copy,
};

const struct copy_strategy strategy_throttled = {
	.name = "throttled",
	.description = "test only: readwrite, then a spin of COPYBENCH_THROTTLE_PCT % of its time",
	.syscalls = "pread64,pwrite64,fadvise64",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE | STRATEGY_TEST_ONLY,
	.copy = throttled_copy,
};

const struct copy_strategy strategy_touch_source = {
	.name = "touch-source",
	.description = "test only: readwrite, then the source's first byte inverted",
	.syscalls = "pread64,pwrite64,fadvise64,openat,close",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE | STRATEGY_TEST_ONLY,
	.copy = touch_source_copy,
};

const struct copy_strategy strategy_holes = {
	.name = "holes",
	.description = "test only: readwrite, then a hole punched over the output's first 64 KiB",
	.syscalls = "pread64,pwrite64,fadvise64,fallocate",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE | STRATEGY_TEST_ONLY,
	.copy = holes_copy,
};
