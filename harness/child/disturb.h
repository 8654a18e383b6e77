/* SPDX-License-Identifier: MIT */
/*
 * disturb.h - what outside a run may have slowed it, observed, never
 * guessed from its time: the guest handing free memory back to its host
 * (virtio-balloon free-page reporting: touching that memory again costs a
 * host fault per page, paid as system time by whoever allocates it next)
 * and steal time (the host ran something else on our CPUs), both judged
 * on the timed region alone, the same way for every case.
 *
 * The child snapshots the machine just before its clock starts and just
 * after it stops. A measured run with an observed cause is recorded as
 * disturbed and run again in a later round (see runner.c); see
 * docs/noise.md for the measurements behind the rules. The run-queue wait
 * of the timed thread is recorded (cpu_wait_ns) but is no cause: work on
 * several CPUs waits for its own threads, and a run waits for the
 * writeback it causes itself.
 */
#ifndef COPYBENCH_DISTURB_H
#define COPYBENCH_DISTURB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A machine-wide snapshot. */
struct disturb_probe {
	int64_t reported_kib;	/* memory reported to the host so far; -1: unknown */
	uint64_t steal_ticks;	/* /proc/stat steal, all CPUs */
	uint64_t written_pages;	/* /proc/vmstat nr_written: pages written back */
};

enum disturb_cause {
	DISTURB_REPORTING = 1u << 0,	/* free-page reporting ran inside the clock */
	DISTURB_STEAL = 1u << 1,	/* the host stole CPU time inside the clock */
	DISTURB_TEST = 1u << 2,		/* marked by the test hook below */
};

void disturb_snapshot(struct disturb_probe *p);

/* The causes seen for a timed region that began at `start` and ended at
 * `end` (snapshots taken by the child around its clock). */
unsigned disturb_judge(const struct disturb_probe *start, const struct disturb_probe *end);

/*
 * A test hook: with COPYBENCH_TEST_DISTURB=PCT in the environment (1 to
 * 100), about PCT % of runs, drawn from the seed and the run's place in the
 * order, are marked disturbed with the cause `test`, so the retry path runs
 * on every machine; 0 without it. The cause is recorded like any other.
 */
#define DISTURB_TEST_ENV "COPYBENCH_TEST_DISTURB"
unsigned disturb_test_mark(uint64_t seed, unsigned seq);

/* "reporting+steal", or "" for none. */
void disturb_name(unsigned causes, char *out, size_t n);

/* Run-queue wait and on-CPU time of the calling thread, in ns (schedstat);
 * false when the kernel does not keep them. */
bool disturb_thread_times(uint64_t *wait_ns, uint64_t *run_ns);

#endif
