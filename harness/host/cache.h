/* SPDX-License-Identifier: MIT */
/* cache.h - set and check the page-cache state of a file. */
#ifndef COPYBENCH_CACHE_H
#define COPYBENCH_CACHE_H

#include <stdbool.h>
#include <stddef.h>

enum cache_mode { CACHE_WARM, CACHE_COLD };

const char *cache_mode_name(enum cache_mode m);

/*
 * Brings `path` into the state `mode` asks for: warm reads it fully into the
 * page cache; cold does fdatasync + POSIX_FADV_DONTNEED (and, when
 * use_drop_caches and root, writes 1 to /proc/sys/vm/drop_caches).
 * Then measures residency with mincore into *resident_pct (0..100).
 * 0 or -errno.
 */
int cache_set(const char *path, enum cache_mode mode, bool use_drop_caches,
	      double *resident_pct);
/* Residency of `path` in the page cache, 0..100, via mmap + mincore. */
int cache_residency(const char *path, double *resident_pct);
/* True when resident_pct is acceptable for mode (warm >= 99, cold <= 1). */
bool cache_state_ok(enum cache_mode mode, double resident_pct);

#endif
