/* SPDX-License-Identifier: MIT */
/*
 * check_internal.h - the pieces of `bench check` shared by its files:
 *   check.c         check_compare: cases matched, syscalls, verdicts
 *   check_timing.c  the timing comparison check_compare makes
 * Private to harness/check/: another room uses check.h.
 */
#ifndef COPYBENCH_CHECK_INTERNAL_H
#define COPYBENCH_CHECK_INTERNAL_H

#ifndef COPYBENCH_ROOM_CHECK
#error "check_internal.h is private to harness/check/; include check.h"
#endif

#include "check.h"

#include <stdio.h>

/* The median of the plain ratios of the rows but self (NULL: of all rows),
 * NAN with too few of them. */
double check_common_ratio(const struct check_report *rep, const struct check_row *self);
/* Change, threshold and the raw one-sided p-values of a case. */
void check_compare_timing(const struct check_report *rep, struct check_row *r,
			  const struct check_opts *o, FILE *err);
/* The largest change of a copy case, and the spread it would need. */
void check_note_largest(struct check_report *rep, const struct check_opts *o);
/* Holm's correction over the tested rows, then each one's timing verdict.
 * 0 or -ENOMEM. */
int check_timings(struct check_report *rep, const struct check_opts *o,
		  FILE *err);

#endif
