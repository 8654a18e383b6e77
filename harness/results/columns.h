/* SPDX-License-Identifier: MIT */
/*
 * columns.h - the one table of result columns: for runs.csv, summary.csv and
 * syscalls.csv, the ordered columns with name, type, unit, a one-line
 * description, and where the value comes from. The CSV and JSON writers
 * (report.c) write rows from it, the readers (checkset.c, plot_data.c, the
 * --out check of cmd_run.c) take names from it, and results/README.md's
 * column list is generated from it (`bench columns --markdown`, checked by a
 * test).
 *
 * The column types and the runs.csv columns (what a run measures, next to
 * the code that measures it) are the run room's: run/column.h and
 * run/run_columns.c.
 *
 * Every file's columns are: the identifying columns (which case), the file's
 * own measures, then the environment columns (which machine).
 */
#ifndef COPYBENCH_COLUMNS_H
#define COPYBENCH_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "summary.h"
#include "lib/csv.h"
#include "run/column.h"
#include "run/runner.h"

enum col_file { COLFILE_RUNS, COLFILE_SUMMARY, COLFILE_SYSCALLS, COLFILE_COUNT };

/*
 * The identifying columns, in order: code that reasons about one of them
 * (the check's case label, its memcpy reference) names it by this index.
 */
enum col_id {
	CID_WORKLOAD, CID_STRATEGY, CID_DATASET, CID_SIZE, CID_BUFFER, CID_CACHE,
	CID_BATCH, CID_PART, CID_FSYNC, CID_THREADS, CID_QUEUE_DEPTH,
	CID_FILES, CID_FILE_SIZE, CID_COMMAND,
	COL_NIDS
};
/* Files written before threads and queue_depth (then files, file_size and
 * command) identified a case have only the columns before them; readers
 * take the missing ones as columns_id_absent() says ("0", or "" for
 * command). */
#define COL_NIDS_FIRST CID_THREADS
const char *columns_id_absent(enum col_id id);

struct col_file_info {
	const char *name;	/* "runs.csv" */
	const char *rows;	/* "one row per measured run" */
};

extern const struct col_file_info col_files[COLFILE_COUNT];

/* The columns of file f, in order: i from 0 to columns_count(f) - 1. */
size_t columns_count(enum col_file f);
const struct column *columns_get(enum col_file f, size_t i);
/* The identifying column id (the same in every file). */
const struct column *columns_id(enum col_id id);
/* The column of file f called name, or NULL. */
const struct column *columns_find(enum col_file f, const char *name);

void columns_value(const struct column *col, const struct col_row *x,
		   struct col_value *v);
void columns_csv_cell(struct csv_writer *w, const struct column *col,
		      const struct col_value *v);
void columns_json_value(FILE *f, const struct column *col, const struct col_value *v);

/*
 * The index in t of the column name of file f, -1 when t lacks it. name
 * must be in the table: a reader naming a column bench does not write is a
 * bug, and aborts here.
 */
int columns_csv_col(const struct csv_table *t, enum col_file f, const char *name);
/* Whether a file's first line is the start of a header bench writes. */
bool columns_is_bench_header(const char *line);

/* The column list of results/README.md, as Markdown. */
void columns_print_markdown(FILE *f);

#endif
