/* SPDX-License-Identifier: MIT */
/*
 * history.h - `bench history`: results folders kept in an SQLite database
 * over commits, a new run judged against the last runs of the same machine
 * and build, trend charts, change points and an export.
 */
#ifndef COPYBENCH_HISTORY_H
#define COPYBENCH_HISTORY_H

#include <stdio.h>

/* argv[0] is "history". Exit codes: 0 ok, 1 regression or failure, 2 bad input. */
int cmd_history(int argc, char **argv);
/* The same, with the report written to out and messages to err. */
int history_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
