// SPDX-License-Identifier: MIT
/*
 * report.c - turn runs into summaries and write them: runs.csv (one row per
 * measured run), summary.csv (one row per case), syscalls.csv (one row per
 * case and syscall), the terminal table and JSON. The columns of the files
 * and of the JSON come from the table in columns.c.
 */
#include "report.h"
#include "columns.h"
#include "meta.h"
#include "lib/csv.h"
#include "lib/json.h"
#include "lib/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

/* ------------------------------------------------------------ CSV ------ */

static void csv_header(struct csv_writer *w, enum col_file f)
{
	for (size_t i = 0; i < columns_count(f); i++)
		csv_str(w, columns_get(f, i)->name);
	csv_end_row(w);
}

/* One row of file f, every column from the table. */
static void csv_row(struct csv_writer *w, enum col_file f, const struct col_row *x)
{
	struct col_value v;

	for (size_t i = 0; i < columns_count(f); i++) {
		const struct column *col = columns_get(f, i);

		columns_value(col, x, &v);
		columns_csv_cell(w, col, &v);
	}
	csv_end_row(w);
}

static void write_runs(struct csv_writer *w, const struct runner *r)
{
	csv_header(w, COLFILE_RUNS);
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];

		for (size_t k = 0; k < c->nruns; k++)
			csv_row(w, COLFILE_RUNS, &(struct col_row){
				.c = c, .run = &c->runs[k], .env = case_env(r, c) });
	}
}

static void write_summary(struct csv_writer *w, const struct runner *r,
			  const struct case_summary *sums)
{
	csv_header(w, COLFILE_SUMMARY);
	for (size_t i = 0; i < r->ncases; i++)
		csv_row(w, COLFILE_SUMMARY, &(struct col_row){
			.c = &r->cases[i], .sum = &sums[i], .env = case_env(r, &r->cases[i]) });
}

static void write_syscall_row(struct csv_writer *w, const struct runner *r,
			      const struct bench_case *c, const char *name, uint64_t n)
{
	csv_row(w, COLFILE_SYSCALLS, &(struct col_row){
		.c = c, .syscall = name, .count = n, .env = case_env(r, c) });
}

static void write_syscalls(struct csv_writer *w, const struct runner *r)
{
	csv_header(w, COLFILE_SYSCALLS);
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];

		if (!c->counts.valid)
			continue;
		for (size_t k = 0; k < syscount_nnames; k++)
			if (c->counts.by_name[k])
				write_syscall_row(w, r, c, syscount_names[k], c->counts.by_name[k]);
		write_syscall_row(w, r, c, "other", c->counts.other);
		write_syscall_row(w, r, c, "total", c->counts.total);
	}
}

static int write_one(const char *dir, const char *name, const struct runner *r,
		     const struct case_summary *sums,
		     void (*fill)(struct csv_writer *, const struct runner *,
				  const struct case_summary *))
{
	struct csv_writer w;
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = csv_open(&w, path);
	if (err)
		return err;
	fill(&w, r, sums);
	if (ferror(w.f)) {
		csv_abort(&w);
		return -EIO;
	}
	return csv_commit(&w);
}

static void fill_runs(struct csv_writer *w, const struct runner *r,
		      const struct case_summary *s)
{
	(void)s;
	write_runs(w, r);
}

static void fill_syscalls(struct csv_writer *w, const struct runner *r,
			  const struct case_summary *s)
{
	(void)s;
	write_syscalls(w, r);
}

int report_write_csv(const struct runner *r, const struct case_summary *sums,
		     const char *dir)
{
	int err = write_one(dir, col_files[COLFILE_RUNS].name, r, sums, fill_runs);

	if (!err)
		err = write_one(dir, col_files[COLFILE_SUMMARY].name, r, sums, write_summary);
	if (!err)
		err = write_one(dir, col_files[COLFILE_SYSCALLS].name, r, sums, fill_syscalls);
	return err;
}

int report_print_csv(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	struct csv_writer w = { .f = f, .first_field = 1 };

	write_summary(&w, r, sums);
	return ferror(f) ? -EIO : 0;
}

/* ------------------------------------------------------------ JSON ----- */

/* `"name": value` of the columns of file f with role. */
static void json_columns(struct json_out *j, enum col_file f, enum col_role role,
			 const struct col_row *x)
{
	struct col_value v;

	for (size_t i = 0; i < columns_count(f); i++) {
		const struct column *col = columns_get(f, i);

		if (col->role != role)
			continue;
		columns_value(col, x, &v);
		json_key(j, col->name);
		columns_json_value(j->f, col, &v);
	}
}

/* One case: its identifying and summary columns, then its measured runs
 * with runs.csv's own columns, one line each. */
static void json_case(struct json_out *j, const struct runner *r, const struct bench_case *c,
		      const struct case_summary *sum)
{
	const struct col_row x = { .c = c, .sum = sum, .env = case_env(r, c) };

	json_begin_object(j, NULL);
	json_columns(j, COLFILE_SUMMARY, ROLE_ID, &x);
	json_columns(j, COLFILE_SUMMARY, ROLE_MEASURE, &x);
	if (c->env)	/* a run over several filesystems: each case says its own */
		json_columns(j, COLFILE_SUMMARY, ROLE_ENV, &x);
	json_begin_array(j, "runs");
	for (size_t k = 0; k < c->nruns; k++) {
		json_begin_inline_object(j, NULL);
		json_columns(j, COLFILE_RUNS, ROLE_MEASURE,
			     &(struct col_row){ .c = c, .run = &c->runs[k], .env = x.env });
		json_end(j);
	}
	json_end(j);
	json_end(j);
}

/* The schema version and the environment once, then one object per case. */
void report_print_json(FILE *f, const struct runner *r, const struct case_summary *sums,
		       const char *results_dir)
{
	struct json_out j = json_out_begin(f);

	json_kv_u64(&j, "schema_version", META_SCHEMA_VERSION);
	json_kv_str(&j, "results_dir", results_dir);
	json_columns(&j, COLFILE_SUMMARY, ROLE_ENV, &(struct col_row){ .env = &r->env });
	json_begin_array(&j, "cases");
	for (size_t i = 0; i < r->ncases; i++)
		json_case(&j, r, &r->cases[i], &sums[i]);
	json_end(&j);
	json_out_end(&j);
}
