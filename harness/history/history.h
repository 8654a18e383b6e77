/* SPDX-License-Identifier: MIT */
/*
 * history.h - `bench history`, the door of harness/history/: results
 * folders kept in an SQLite database over commits, a new run judged against
 * the last runs of the same machine and build, trend charts, change points
 * and an export. Its command line (options, usage, dispatch) is
 * harness/cli/cmd_history.c; each function here is one subcommand's work
 * and returns its exit code: 0 ok, 1 regression or failure, 2 bad input
 * (check: 3 inconclusive).
 */
#ifndef COPYBENCH_HISTORY_H
#define COPYBENCH_HISTORY_H

#include "check/check.h"

#include <stddef.h>
#include <stdio.h>

#define HISTORY_DEFAULT_DB "results/history.sqlite"
/* --label KEY=VALUE pairs one add takes at most. */
#define HISTORY_MAX_LABELS 32

/* Where a command's messages go, and what it calls itself in them. */
struct history_io {
	const char *who;	/* "bench history add" */
	FILE *out, *err;
};

/* Which runs a command looks at. NULL: any. */
struct history_filter {
	const char *branch;
	const char *case_glob;	/* fnmatch on the case label */
};

/* `bench history add DIR...`: the folders, whole or nothing. A commit or
 * branch not given is asked of git (into git_commit, git_branch). */
struct history_add_opts {
	const char *db, *commit, *branch;
	const char *label[HISTORY_MAX_LABELS];	/* "KEY=VALUE" */
	size_t nlabels;
	char **dirs;
	size_t ndirs;
	char git_commit[80], git_branch[256];
};
int history_add(struct history_add_opts *o, const struct history_io *io);

/* `bench history check --current DIR`: c.cur[0] against its window. */
struct history_check_opts {
	const char *db;
	const char *branch;
	int window;
	double z;		/* --spread */
	struct check_opts c;
};
int history_check(const struct history_check_opts *o, const struct history_io *io);

/* `bench history changes`: the level shifts of each case. */
struct history_changes_opts {
	const char *db;
	struct history_filter f;
	double alpha, min_shift;
};
int history_changes(const struct history_changes_opts *o, const struct history_io *io);

/* `bench history plot`: each case over the commits, into out (NULL: a
 * folder `history` beside the database). */
struct history_plot_opts {
	const char *db, *out;
	struct history_filter f;
	double alpha, min_shift;
};
int history_plot(const struct history_plot_opts *o, const struct history_io *io);

/* `bench history export`: one table (cli_table.c's export tables, in
 * order) as CSV to out (NULL: io->out), a file that must not exist. */
struct history_export_opts {
	const char *db, *out;
	size_t table;
};
int history_export(const struct history_export_opts *o, const struct history_io *io);

#endif
