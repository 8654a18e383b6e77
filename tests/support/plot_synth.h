/* SPDX-License-Identifier: MIT */
/*
 * plot_synth.h - synthetic results folders for the plot tests: a summary.csv
 * of warm rows, bench plot run on them, and what gnuplot reads of a data
 * file's blocks.
 */
#ifndef COPYBENCH_PLOT_SYNTH_H
#define COPYBENCH_PLOT_SYNTH_H

#include <stdio.h>

/* One warm row: its times in ms (CPU: user and system, per run). */
struct synth_row {
	const char *workload, *strategy, *dataset, *fs, *status;	/* NULL: text, ext4, ok */
	unsigned long long size, buffer;
	unsigned batch;
	double median_ms, user_ms, sys_ms;
};

/* dir/summary.csv (dir made) opened with its header; NULL (a failed check)
 * when it cannot be. */
FILE *synth_summary(const char *dir);
/* The same with a header line of the caller's (columns, ending in \n). */
FILE *synth_summary_header(const char *dir, const char *columns);
void synth_put(FILE *f, const struct synth_row *r);
/* test_tmpdir()/name, as a static buffer. */
char *synth_dir(const char *name);
/* test_tmpdir()/name made to hold rows[0..n) as its summary.csv, then bench
 * plot of it (stdout into test_tmpdir()/name.out): its exit code, -1 when
 * the folder cannot be written. The folder's path in dir. */
int synth_plot_rows(const char *name, const struct synth_row *rows, size_t n,
		    char *dir, size_t dir_len);
/* cmd_plot(argc, argv) with fd (1 or 2) into path; its exit code. */
int synth_plot_to(int fd, int argc, char **argv, const char *path);
/* cmd_plot(argc, argv) with stdout into out_path; its exit code. */
int synth_plot(int argc, char **argv, const char *out_path);
/* The file's text (up to 16K), as a static buffer. */
char *synth_slurp(const char *path);
/* What gnuplot reads from `index block` of dat: "column1 column2|" a line. */
void synth_block_labels(const char *dat, long block, char *out, size_t n);

#endif
