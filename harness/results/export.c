// SPDX-License-Identifier: MIT
/*
 * export.c - --export-json, --export-csv and --export-markdown: the summary
 * written to files the user names, beside the table on stdout (as
 * hyperfine's exports are). JSON and CSV are the documents of --format
 * json|csv; Markdown is a table of the summary for a report or an issue.
 * Each file appears whole or not at all (temporary file and rename).
 */
#include "columns.h"
#include "report.h"
#include "lib/units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The summary columns of the Markdown table, by name from the column table.
 * Identifying columns are shown only when they differ between rows. */
static const char *const md_measures[] = {
	"mb_per_s", "median_ci_pct", "cv", "rank", "tied", "ratio_to_fastest", "syscalls",
	"pct_of_limit", "verified_runs", "status",
};

/* The headings of the table for the columns it shows (the others: their
 * name, without a _bytes the cells' units already say). */
static const struct {
	const char *name, *heading;
} md_headings[] = {
	{ "mb_per_s", "MiB/s" }, { "median_ci_pct", "±95%" }, { "cv", "CV" },
	{ "tied", "tie" }, { "ratio_to_fastest", "xfastest" },
	{ "pct_of_limit", "%limit" }, { "verified_runs", "verified" },
};

static void md_heading(FILE *f, const struct column *col)
{
	size_t len = strlen(col->name);

	for (size_t i = 0; i < sizeof(md_headings) / sizeof(md_headings[0]); i++)
		if (!strcmp(col->name, md_headings[i].name)) {
			fprintf(f, " %s |", md_headings[i].heading);
			return;
		}
	if (len > 6 && !strcmp(col->name + len - 6, "_bytes"))
		len -= 6;
	fprintf(f, " %.*s |", (int)len, col->name);
}

/* Does column col take more than one value over the cases? */
static bool md_varies(const struct runner *r, const struct case_summary *sums,
		      const struct column *col)
{
	struct col_value first, v;

	for (size_t i = 0; i < r->ncases; i++) {
		const struct col_row x = { .c = &r->cases[i], .sum = &sums[i], .env = &r->env };

		columns_value(col, &x, i ? &v : &first);
		if (i && (col->type == COL_STR ? strcmp(v.s, first.s) : v.u != first.u))
			return true;
	}
	return false;
}

/* One cell: sizes in bytes as 64M, strings with their pipes escaped. */
static void md_cell(FILE *f, const struct column *col, const struct col_value *v)
{
	char buf[32];

	fputs(" ", f);
	if (v->empty) {
		/* an empty cell */
	} else if (col->type == COL_U64 && !strcmp(col->unit, "bytes")) {
		format_size(v->u, buf, sizeof(buf));
		fputs(buf, f);
	} else if (col->type == COL_STR) {
		for (const char *s = v->s; *s; s++) {
			if (*s == '|')
				fputc('\\', f);
			fputc(*s, f);
		}
	} else {
		columns_json_value(f, col, v);
	}
	fputs(" |", f);
}

/* The columns shown: the identifying ones that vary, then md_measures. */
static size_t md_columns(const struct runner *r, const struct case_summary *sums,
			 const struct column **cols)
{
	size_t n = 0;

	for (enum col_id id = 0; id < COL_NIDS; id++)
		if (id <= CID_STRATEGY || md_varies(r, sums, columns_id(id)))
			cols[n++] = columns_id(id);
	for (size_t i = 0; i < sizeof(md_measures) / sizeof(md_measures[0]); i++)
		cols[n++] = columns_find(COLFILE_SUMMARY, md_measures[i]);
	return n;
}

void report_print_markdown(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	const struct column *cols[COL_NIDS + sizeof(md_measures) / sizeof(md_measures[0])];
	size_t n = md_columns(r, sums, cols), *order = calloc(r->ncases ? r->ncases : 1, sizeof(*order));
	struct col_value v;

	if (!order || report_table_order(r, sums, order)) {
		fprintf(f, "(out of memory)\n");
		free(order);
		return;
	}
	fputs("|", f);
	for (size_t k = 0; k < n; k++)
		md_heading(f, cols[k]);
	fputs("\n|", f);
	for (size_t k = 0; k < n; k++)
		fputs(cols[k]->type == COL_STR ? " --- |" : " ---: |", f);
	fputs("\n", f);
	for (size_t o = 0; o < r->ncases; o++) {
		size_t i = order[o];
		const struct col_row x = { .c = &r->cases[i], .sum = &sums[i], .env = &r->env };

		fputs("|", f);
		for (size_t k = 0; k < n; k++) {
			columns_value(cols[k], &x, &v);
			md_cell(f, cols[k], &v);
		}
		fputs("\n", f);
	}
	free(order);
}

enum export_kind { EXPORT_JSON, EXPORT_CSV, EXPORT_MARKDOWN };

static int export_one(const char *path, enum export_kind kind, const struct runner *r,
		      const struct case_summary *sums, const char *results_dir)
{
	struct csv_writer w;
	int err;

	if (!strcmp(path, "-")) {	/* stdout, in place of the table */
		if (kind == EXPORT_JSON)
			report_print_json(stdout, r, sums, results_dir);
		else if (kind == EXPORT_CSV)
			report_print_csv(stdout, r, sums);
		else
			report_print_markdown(stdout, r, sums);
		return fflush(stdout) || ferror(stdout) ? -EIO : 0;
	}
	err = csv_open(&w, path);
	if (err)
		return err;
	if (kind == EXPORT_JSON)
		report_print_json(w.f, r, sums, results_dir);
	else if (kind == EXPORT_CSV)
		report_print_csv(w.f, r, sums);
	else
		report_print_markdown(w.f, r, sums);
	if (ferror(w.f)) {
		csv_abort(&w);
		return -EIO;
	}
	return csv_commit(&w);
}

int report_write_exports(const struct runner *r, const struct case_summary *sums,
			 const char *results_dir)
{
	const struct {
		const char *opt, *path;
		enum export_kind kind;
	} exports[] = {
		{ "--export-json", r->o->export_json, EXPORT_JSON },
		{ "--export-csv", r->o->export_csv, EXPORT_CSV },
		{ "--export-markdown", r->o->export_markdown, EXPORT_MARKDOWN },
	};
	int ret = 0;

	for (size_t i = 0; i < sizeof(exports) / sizeof(exports[0]); i++) {
		int err;

		if (!exports[i].path)
			continue;
		err = export_one(exports[i].path, exports[i].kind, r, sums, results_dir);
		if (err) {
			fprintf(stderr, "bench: %s '%s': %s\n", exports[i].opt, exports[i].path,
				strerror(-err));
			ret = 1;
		}
	}
	return ret;
}
