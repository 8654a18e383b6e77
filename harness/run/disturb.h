/* SPDX-License-Identifier: MIT */
/*
 * disturb.h - what outside a run may have slowed it, observed, never
 * guessed from its time: the guest handing free memory back to its host
 * (virtio-balloon free-page reporting: touching that memory again costs a
 * host fault per page, paid as system time by whoever allocates it next),
 * steal time (the host ran something else on our CPUs), and the run's own
 * thread waiting for a CPU while other tasks ran.
 *
 * The runner snapshots the machine before each run and after it, and the
 * child reports its thread's run-queue wait inside the clock. A measured run
 * with an observed cause is recorded as disturbed and run again (see
 * runner.c); see docs/noise.md for the measurements behind the rules.
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
};

enum disturb_cause {
	DISTURB_REPORTING = 1u << 0,	/* free-page reporting ran during or just before */
	DISTURB_STEAL = 1u << 1,	/* the host stole CPU time during the run */
	DISTURB_CPU_WAIT = 1u << 2,	/* the run waited for a CPU > 5 % of its time */
};

void disturb_snapshot(struct disturb_probe *p);

/*
 * The causes seen for a run that started at `start` and ended at `end`,
 * `before` being the snapshot at the end of the previous run (the gap
 * between runs counts: memory reported then is what this run allocates).
 * cpu_wait_ns is the run's own thread's run-queue wait inside the clock;
 * it is not judged for work on several CPUs (its own threads' waits are
 * part of its cost).
 */
unsigned disturb_judge(const struct disturb_probe *before, const struct disturb_probe *start,
		       const struct disturb_probe *end, uint64_t wall_ns,
		       uint64_t cpu_wait_ns, bool multi_cpu);

/* "reporting+steal", or "" for none. */
void disturb_name(unsigned causes, char *out, size_t n);

/* Run-queue wait and on-CPU time of the calling thread, in ns (schedstat);
 * false when the kernel does not keep them. */
bool disturb_thread_times(uint64_t *wait_ns, uint64_t *run_ns);

#endif
