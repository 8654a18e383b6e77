/* SPDX-License-Identifier: MIT */
/*
 * history.h - `bench history`, the door of harness/history/: results
 * folders kept in an SQLite database over commits, a new run judged against
 * the last runs of the same machine and build, trend charts, change points
 * and an export. Its command line is harness/cli/cmd_history.c.
 */
#ifndef COPYBENCH_HISTORY_H
#define COPYBENCH_HISTORY_H

#include <stdio.h>

/* Where a command's messages go, and what it calls itself in them. */
struct history_io {
	const char *who;	/* "bench history add" */
	FILE *out, *err;
};

/*
 * The subcommands of `bench history`, argv[0] being the subcommand's name;
 * each parses its options with the option table (cli_table.c). Exit codes:
 * 0 ok, 1 regression or failure, 2 bad input (check: 3 inconclusive).
 */
int history_add_cli(int argc, char **argv, const struct history_io *io);
int history_check_cli(int argc, char **argv, const struct history_io *io);
int history_changes_cli(int argc, char **argv, const struct history_io *io);
int history_plot_cli(int argc, char **argv, const struct history_io *io);
int history_export_cli(int argc, char **argv, const struct history_io *io);

#endif
