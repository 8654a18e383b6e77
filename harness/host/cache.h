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
/* A tree's folders and inodes when a run began. */
enum cache_metadata {
	METADATA_NONE,		/* not a tree */
	METADATA_CACHED,	/* in memory: warm, or cold without a drop */
	METADATA_DROPPED,	/* drop_caches 3 written after the check */
	METADATA_UNKNOWN,	/* only measured, not set: not known */
};

/* What cache_set_report saw. */
struct cache_report {
	double resident_pct;		/* all pages of the file or tree */
	double file_resident_max_pct;	/* a tree: its most resident file */
	enum cache_metadata metadata;
};

/* "", "cached", "dropped" or "unknown". */
const char *cache_metadata_name(enum cache_metadata m);

/*
 * cache_set, and for a tree what became of its folders and inodes (from
 * what the drop_caches write returned, not from what was asked: a write
 * the kernel refused dropped nothing, so they stay cached) and the
 * largest share of one file's pages left resident. 0 or -errno.
 */
int cache_set_report(const char *path, enum cache_mode mode, bool use_drop_caches,
		     struct cache_report *rep);

/*
 * A test hook: with COPYBENCH_TEST_DROP_FAIL=1 in the environment the
 * drop_caches write is not made and fails with EIO, as a kernel that
 * refuses it would (tests/cli/tree_cold_drops_folders_and_inodes.sh).
 */
#define CACHE_DROP_FAIL_ENV "COPYBENCH_TEST_DROP_FAIL"

/* True when resident_pct is acceptable for mode (warm >= 99, cold <= 1). */
bool cache_state_ok(enum cache_mode mode, double resident_pct);

#endif
