/* SPDX-License-Identifier: MIT */
/*
 * check.h - `bench check` (did copying get slower than the baseline, or
 * make different system calls?) and `bench baseline save`.
 */
#ifndef COPYBENCH_CHECK_H
#define COPYBENCH_CHECK_H

#include <stdio.h>

/* argv[0] is the subcommand name. Exit codes: 0 no regression, 1 regression,
 * 2 bad input, 3 inconclusive (check_internal.h). */
int cmd_check(int argc, char **argv);
int cmd_baseline(int argc, char **argv);

/* The same, with the report written to out and messages to err. */
int check_cli(int argc, char **argv, FILE *out, FILE *err);
int check_baseline_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
