/* SPDX-License-Identifier: MIT */
/*
 * checkset_internal.h - what checkset.c (results) and checkset_baseline.c
 * (baseline files) share: cases found or added by their identifying values,
 * runs and counts added to them, and the parsing of numbers and of the
 * identifying columns of a table.
 */
#ifndef COPYBENCH_CHECKSET_INTERNAL_H
#define COPYBENCH_CHECKSET_INTERNAL_H

#include "checkset.h"
#include "csv.h"

/* The case with these identifying values, added when new; NULL on ENOMEM. */
struct checkset_case *checkset_case_get(struct checkset *s, const char *const *id);
/* The same in environment env (CHECKSET_NENV values; NULL: none recorded). */
struct checkset_case *checkset_case_get_env(struct checkset *s, const char *const *id,
					    const char *const *env);
int checkset_add_run(struct checkset_case *c, unsigned rep, double wall, double rel);
/* Sets count of name ("total": the case's total). 0 or -ENOMEM. */
int checkset_set_count(struct checkset_case *c, const char *name, uint64_t count);
/* A whole number without sign; a time > 0. 0 or -EINVAL. */
int checkset_parse_u64(const char *s, uint64_t *out);
int checkset_parse_time(const char *s, double *out);
/* Column indexes of the identifying columns; -EINVAL naming a missing one. */
int checkset_table_ids(const struct csv_table *t, const char *path, int *idc,
		       char *why, size_t n);
void checkset_row_ids(const struct csv_table *t, size_t row, const int *idc,
		      const char **id);
/* Column indexes of the environment columns (-1 when absent), and a row's. */
void checkset_table_env(const struct csv_table *t, enum col_file f, int *envc);
void checkset_row_env(const struct csv_table *t, size_t row, const int *envc,
		      const char **env);

/* checkset_baseline.c */
bool checkset_is_baseline_table(const struct csv_table *t);
int checkset_load_baseline(struct checkset *s, const struct csv_table *t,
			   const char *path, char *why, size_t n);

#endif
