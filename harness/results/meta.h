/* SPDX-License-Identifier: MIT */
/*
 * meta.h - meta.json, the record of how a results folder was made: which
 * bench (version, commit, build), which command line, when, on which
 * machine and filesystem. Written with the CSVs, atomically; its fields and
 * their versioning rule are documented in results/README.md.
 */
#ifndef COPYBENCH_META_H
#define COPYBENCH_META_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "run/runner.h"

/*
 * The version of meta.json's layout and of every JSON document bench prints
 * (--export-json/--format json, bench list and bench check --format json).
 * Adding a field keeps it; renaming, removing or changing the meaning of
 * one bumps it, and so does any change of the identifying columns (which
 * cases are told apart). Readers accept every older version (the policy:
 * docs/history.md, "Schema versions"). 2: the identifying columns grew from
 * 9 to 14 (threads, queue_depth, files, file_size, command).
 */
#define META_SCHEMA_VERSION 2

/* Writes dir/meta.json through a temporary file. 0 or -errno. */
int meta_write(const char *dir, const struct runner *r, const struct meta_times *t);
/* Is dir/meta.json absent, or one bench wrote (its first line)? */
bool meta_is_ours(const char *dir);
/* meta.json's content on f. */
void meta_print(FILE *f, const struct runner *r, const struct meta_times *t);
/* Why this build's times are not those of a release build, or NULL. */
const char *meta_build_note(void);
/* "2025-01-31T12:00:00.123Z" */
void meta_utc(const struct timespec *ts, char *out, size_t n);

#endif
