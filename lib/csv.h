/* SPDX-License-Identifier: MIT */
/*
 * csv.h - RFC 4180 CSV: an atomic writer (temp file + rename) and a reader
 * (used by `bench check` and `bench plot`).
 */
#ifndef COPYBENCH_CSV_H
#define COPYBENCH_CSV_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

struct csv_writer {
	FILE *f;
	int first_field;	/* no comma before the next field */
	char tmp[PATH_MAX];
	char path[PATH_MAX];
};

/* Opens a temp file beside path; nothing appears at path until commit. */
int csv_open(struct csv_writer *w, const char *path);
void csv_str(struct csv_writer *w, const char *s);	/* quoted if needed */
void csv_u64(struct csv_writer *w, uint64_t v);
void csv_i64(struct csv_writer *w, int64_t v);
void csv_dbl(struct csv_writer *w, double v, int decimals);
void csv_end_row(struct csv_writer *w);
/* Flush, fsync, rename over path. 0 or -errno (temp removed on failure). */
int csv_commit(struct csv_writer *w);
/* Drop the temp file. Safe after commit (does nothing). */
void csv_abort(struct csv_writer *w);

struct csv_table {
	size_t ncols;
	size_t nrows;
	char **header;		/* ncols names */
	char **cells;		/* nrows * ncols, row-major */
};

/*
 * Parses CSV text. The first record is the header; every record must have
 * as many fields as the header. 0, or -EINVAL with why naming line and cause.
 */
int csv_parse(const char *buf, size_t len, struct csv_table *t,
	      char *why, size_t n);
/* csv_parse on a file's content (at most 1 GiB). 0 or -errno, why filled. */
int csv_read(const char *path, struct csv_table *t, char *why, size_t n);
/* Column index of name, or -1. */
int csv_col(const struct csv_table *t, const char *name);
static inline const char *csv_cell(const struct csv_table *t, size_t row,
				   size_t col)
{
	return t->cells[row * t->ncols + col];
}
void csv_free(struct csv_table *t);

#endif
