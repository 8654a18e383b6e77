/* SPDX-License-Identifier: MIT */
/*
 * checkset.h - the cases of one results folder, runs.csv or baseline file,
 * as `bench check` compares them: per case its identifying columns, its
 * per-run times (absolute, and relative to the in-run memcpy reference) and
 * its system-call counts. The identifying columns are those of columns.h.
 *
 * Cases are also told apart by their environment (host, kernel, fs_type,
 * cpu_model), so that results of several folders, or of a bench --fs run of
 * several filesystems, are never merged into one case. When two sets are
 * compared, a case matches on the environment columns that vary within
 * either set (and are recorded on both sides): the same filesystem against
 * the same filesystem, while a kernel that changed between the two sides
 * is what the comparison is about.
 */
#ifndef COPYBENCH_CHECKSET_H
#define COPYBENCH_CHECKSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/columns.h"

struct checkset_count {
	char *name;
	uint64_t count;
};

/* The environment columns cases are told apart by. */
enum { CHECKSET_HOST, CHECKSET_KERNEL, CHECKSET_FS, CHECKSET_CPU, CHECKSET_NENV };

struct checkset_case {
	char *id[COL_NIDS];
	char *env[CHECKSET_NENV];	/* "" when the file has no such column */
	unsigned env_varies;	/* its set's mask of varying env columns */
	unsigned *rep;		/* per run */
	double *wall;		/* per run, ns */
	double *rel;		/* per run, wall / memcpy of the same rep */
	size_t nruns, cap;
	bool rel_ok;		/* every run has rel */
	bool has_total;
	uint64_t total;		/* syscalls, all of them */
	struct checkset_count *counts;	/* per syscall name, "total" excluded */
	size_t ncounts;
	char *status;		/* summary.csv's: "ok", "failed: ...", or NULL */
};

struct checkset {
	struct checkset_case *c;
	size_t n, cap;
	unsigned env_varies;	/* 1 << CHECKSET_*: differs between cases */
};

/* Did the case fail in that run (summary.csv says so)? */
bool checkset_failed(const struct checkset_case *c);

/*
 * Loads a results folder (runs.csv, syscalls.csv, summary.csv in it), a runs.csv
 * (with the syscalls.csv beside it, when there is one), a syscalls.csv alone
 * or a baseline file. 0, or -errno with why filled.
 */
int checkset_load(struct checkset *s, const char *path, char *why, size_t n);
/* One more folder or file into s (its cases kept apart by environment). */
int checkset_load_more(struct checkset *s, const char *path, char *why, size_t n);
void checkset_free(struct checkset *s);
/* The case with the same identifying columns as c, in the same environment
 * as far as either set tells environments apart; or NULL. */
struct checkset_case *checkset_find(const struct checkset *s,
				    const struct checkset_case *c);
/* Whether the case is a machine-limit row (a WORKLOAD_LIMITS workload). */
bool checkset_is_limit(const struct checkset_case *c);
/* Whether it is the limit row flagged VARIANT_REFERENCE (memcpy): the in-run
 * reference `--vs memcpy` divides times by. */
bool checkset_is_memcpy(const struct checkset_case *c);
/*
 * Do the case's system-call counts depend on timing? Work shared between
 * CPUs (a strategy's threads or the kernel's workers, the transform's two
 * processes) waits on and wakes the other side as the run's timing has it:
 * io_uring_enter, futex, a pipe's reads.
 */
bool checkset_counts_vary(const struct checkset_case *c);
/* "copy/readwrite random 200M buf 128K warm": the case for people. */
void checkset_label(const struct checkset_case *c, char *out, size_t n);
/*
 * A set built case by case (`bench history check` makes its window so):
 * the case with these identifying values (COL_NIDS of them), added when
 * new, NULL on ENOMEM; one run of it; its count of name ("total": the
 * case's total). 0 or -ENOMEM.
 */
struct checkset_case *checkset_case_get(struct checkset *s, const char *const *id);
int checkset_add_run(struct checkset_case *c, unsigned rep, double wall, double rel);
int checkset_set_count(struct checkset_case *c, const char *name, uint64_t count);

/* The identifying columns of a table bench wrote (runs.csv, summary.csv,
 * syscalls.csv): their indexes (-EINVAL naming a missing one), and a row's
 * values. */
int checkset_table_ids(const struct csv_table *t, const char *path, int *idc,
		       char *why, size_t n);
void checkset_row_ids(const struct csv_table *t, size_t row, const int *idc,
		      const char **id);
/* A whole number without sign. 0 or -EINVAL. */
int checkset_parse_u64(const char *s, uint64_t *out);

/* Writes the baseline file (atomically). 0 or -errno, why filled. */
int checkset_save(const struct checkset *s, const char *path, char *why,
		  size_t n);

#endif
