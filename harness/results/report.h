/* SPDX-License-Identifier: MIT */
/* report.h - per-case summaries, the terminal table, CSV and JSON output. */
#ifndef COPYBENCH_REPORT_H
#define COPYBENCH_REPORT_H

#include <stdio.h>

#include "summary.h"
#include "lib/stats.h"
#include "run/runner.h"

/* Writes runs.csv, summary.csv and syscalls.csv into dir. 0 or -errno. */
int report_write_csv(const struct runner *r, const struct case_summary *sums,
		     const char *dir);
void report_print_table(FILE *f, const struct runner *r, const struct case_summary *sums);
/* The cases in the order the table prints them (its groups, each ranked),
 * the unavailable ones last, into order[0..r->ncases). 0, or -ENOMEM. */
int report_table_order(const struct runner *r, const struct case_summary *sums, size_t *order);
/* The JSON document of --format json and --export-json: schema_version,
 * the results folder, the environment, and per case its summary and runs. */
void report_print_json(FILE *f, const struct runner *r, const struct case_summary *sums,
		       const char *results_dir);
/* The summary as a Markdown table (--export-markdown). */
void report_print_markdown(FILE *f, const struct runner *r, const struct case_summary *sums);
/* Writes each --export-* file the options name, through a temporary file.
 * 0, or 1 after one line on stderr. */
int report_write_exports(const struct runner *r, const struct case_summary *sums,
			 const char *results_dir);
/* summary.csv's content on f (for --format csv). */
int report_print_csv(FILE *f, const struct runner *r, const struct case_summary *sums);

#endif
