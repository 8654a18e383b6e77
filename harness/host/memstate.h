/* SPDX-License-Identifier: MIT */
/*
 * memstate.h - the kernel's dirty and writeback page counts (/proc/meminfo)
 * and the dirty-background threshold, so that no run starts while the
 * flusher still writes back an earlier run's pages, and each run records
 * what was pending when it started.
 */
#ifndef COPYBENCH_MEMSTATE_H
#define COPYBENCH_MEMSTATE_H

#include <stdbool.h>
#include <stdint.h>

struct memstate {
	uint64_t dirty_kb;		/* Dirty: */
	uint64_t writeback_kb;		/* Writeback: */
	uint64_t available_kb;		/* MemAvailable: */
};

/* Reads /proc/meminfo. 0 or -errno. */
int memstate_read(struct memstate *m);

/*
 * Waits until no page is under writeback (Writeback below 1 MiB) or
 * timeout_ms passes; *m holds the last reading. true when the wait ended
 * because writeback finished.
 */
bool memstate_wait_writeback(unsigned timeout_ms, struct memstate *m);

/*
 * The number of dirty bytes above which the kernel starts background
 * writeback: vm.dirty_background_bytes, or vm.dirty_background_ratio of the
 * memory available for the page cache (MemAvailable approximates it). 0 when
 * it cannot tell. The environment variable COPYBENCH_DIRTY_BACKGROUND (bytes)
 * overrides it, so that tests can cross it with small files; bench then only
 * says so, the kernel's own threshold is unchanged.
 */
#define MEMSTATE_THRESHOLD_ENV "COPYBENCH_DIRTY_BACKGROUND"
uint64_t memstate_background_threshold(void);

#endif
