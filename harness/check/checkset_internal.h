/* SPDX-License-Identifier: MIT */
/*
 * checkset_internal.h - what checkset.c, checkset_load.c (results) and
 * checkset_baseline.c (baseline files) share beyond checkset.h: cases kept
 * apart by environment, times parsed, the environment columns of a table
 * and baseline files. Private to harness/check/: another room uses
 * checkset.h.
 */
#ifndef COPYBENCH_CHECKSET_INTERNAL_H
#define COPYBENCH_CHECKSET_INTERNAL_H

#ifndef COPYBENCH_ROOM_CHECK
#error "checkset_internal.h is private to harness/check/; include checkset.h"
#endif

#include "checkset.h"
#include "lib/csv.h"

/* The same in environment env (CHECKSET_NENV values; NULL: none recorded). */
struct checkset_case *checkset_case_get_env(struct checkset *s, const char *const *id,
					    const char *const *env);
/* A time > 0. 0 or -EINVAL. */
int checkset_parse_time(const char *s, double *out);
/* Column indexes of the environment columns (-1 when absent), and a row's. */
void checkset_table_env(const struct csv_table *t, enum col_file f, int *envc);
void checkset_row_env(const struct csv_table *t, size_t row, const int *envc,
		      const char **env);

/* checkset_baseline.c */
bool checkset_is_baseline_table(const struct csv_table *t);
int checkset_load_baseline(struct checkset *s, const struct csv_table *t,
			   const char *path, char *why, size_t n);

#endif
