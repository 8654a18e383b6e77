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
 * after it stops. A cause disturbs a run only when it took a meaningful
 * share of the run's window (DISTURB_SHARE, below), never for being seen
 * at all: a long run sees more ticks of any background steal than a short
 * one, so an any-tick rule left out the long runs of a case (a slow mode)
 * far more often than its short ones. A measured run so disturbed is
 * recorded and run again in a later round (see runner_rounds.c); see
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
	uint64_t t_ns;		/* CLOCK_MONOTONIC when it was taken */
	int64_t reported_kib;	/* memory reported to the host so far; -1: unknown */
	uint64_t steal_ticks;	/* /proc/stat steal, all CPUs */
	uint64_t written_pages;	/* /proc/vmstat nr_written: pages written back */
	uint64_t tick_ns;	/* one /proc/stat tick (USER_HZ) */
	unsigned ncpu;		/* CPUs the steal is summed over */
};

/*
 * The share rule. A window of w ns on n CPUs had n * w ns of CPU time; a
 * cause disturbs it when the time it took is more than DISTURB_SHARE of
 * that (steal) or of w (reporting):
 * - steal is read in ticks, each CPU's count floored, so what was surely
 *   stolen is (ticks seen - n) ticks; a run of a few ticks cannot be shown
 *   to have lost a share and is kept, its time in the spread;
 * - reporting hands memory back to the host, and each reported page costs
 *   a host fault when it is touched again: the time is estimated as
 *   REPORTED_NS_PER_PAGE for each reported 4 KiB page (the cost of a fresh
 *   page touched again: docs/noise.md, "What bench does about it").
 * 10 %: smaller losses are inside the per-run spread (CV 11-13 % at 64M
 * here), which the median absorbs; larger ones move a run beyond it.
 */
#define DISTURB_SHARE 0.10
#define REPORTED_NS_PER_PAGE 5000u

enum disturb_cause {
	DISTURB_REPORTING = 1u << 0,	/* free-page reporting ran inside the clock */
	DISTURB_STEAL = 1u << 1,	/* the host stole CPU time inside the clock */
	DISTURB_TEST = 1u << 2,		/* marked by the test hook below */
};

void disturb_snapshot(struct disturb_probe *p);

/* The causes that took their share (above) of a timed region that began
 * at `start` and ended at `end` (snapshots taken around its clock). */
unsigned disturb_judge(const struct disturb_probe *start, const struct disturb_probe *end);

/*
 * A test hook: with COPYBENCH_TEST_DISTURB=PCT in the environment (1 to
 * 100), about PCT % of runs, drawn from the seed and the run's place in the
 * order, are marked disturbed with the cause `test`, so the retry path runs
 * on every machine; 0 without it. The cause is recorded like any other.
 */
#define DISTURB_TEST_ENV "COPYBENCH_TEST_DISTURB"
unsigned disturb_test_mark(uint64_t seed, unsigned seq);

/*
 * Test hooks for the share rule: with COPYBENCH_TEST_STEAL=TICKS (steal
 * ticks a second) or COPYBENCH_TEST_REPORTING=KIB (KiB reported a second,
 * in 2 MiB passes) every snapshot reads made-up counters that grow with
 * CLOCK_MONOTONIC instead of the machine's (the unset one stays still): a
 * steady outside load whose chance to be seen grows with a run's length,
 * judged by the real rule, the same on every machine. Set to 0, a hook
 * makes a test's runs undisturbed whatever the machine does.
 */
#define DISTURB_STEAL_ENV "COPYBENCH_TEST_STEAL"
#define DISTURB_REPORTING_ENV "COPYBENCH_TEST_REPORTING"

/* "reporting+steal", or "" for none. */
void disturb_name(unsigned causes, char *out, size_t n);

/* Run-queue wait and on-CPU time of the calling thread, in ns (schedstat);
 * false when the kernel does not keep them. */
bool disturb_thread_times(uint64_t *wait_ns, uint64_t *run_ns);

#endif
