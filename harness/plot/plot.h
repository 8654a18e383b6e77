/* SPDX-License-Identifier: MIT */
/*
 * plot.h - `bench plot`'s engine, the door of harness/plot/: charts of
 * results folders, drawn by gnuplot from the scripts in plots/ (one .gp per
 * chart), written as PNG and SVG next to the CSVs; and the same machinery
 * for a chart of another room's data (`bench history plot`). Its command
 * line is harness/cli/cmd_plot.c.
 */
#ifndef COPYBENCH_PLOT_H
#define COPYBENCH_PLOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Results folders one `bench plot` reads at most. */
#define PLOT_MAX_INPUTS 64

/*
 * Draws the charts of the n results folders inputs (1 to PLOT_MAX_INPUTS)
 * into out (NULL: the one folder read, or a new results/compare-<stamp>,
 * made when missing). Returns the process exit code: 0 when every chart
 * with data was drawn (charts without data are skipped with a line saying
 * why), 1 on an error, 2 when gnuplot is not installed.
 */
int plot_results(const char *const *inputs, size_t n, const char *out);

/* The newest results folder under results/ into out; false when none. */
bool plot_latest_results(char *out, size_t n);

/*
 * Removes the charts bench plot draws in dir (<chart>.png, .svg and
 * plot-<chart>.dat of every chart it knows), so that new results are never
 * shown beside charts of old ones. Absent files are fine.
 */
void plot_remove_charts(const char *dir);

/* Is gnuplot in PATH (what bench plot needs)? */
bool plot_gnuplot_available(void);

/* ------------------------------------------------- a chart of one's own -- */

/* Variables for a gnuplot -e command line. */
struct plot_vars {
	char s[16384];
	size_t len;
};

void plot_var_str(struct plot_vars *v, const char *name, const char *value);
void plot_var_int(struct plot_vars *v, const char *name, long value);
void plot_var_dbl(struct plot_vars *v, const char *name, double value);
/* The title variable: what, over the line that says where it ran (env). */
void plot_var_heading(struct plot_vars *v, const char *what, const char *env);

/* Where a chart function writes: its data file, its variables, and why it
 * has nothing to draw. */
struct chart_out {
	FILE *f;
	struct plot_vars vars;
	char why[256];
};

/* Where a chart of one's own is drawn: its folder, gnuplot and the scripts'
 * folder (found by plot_find_gnuplot and plot_find_scripts). */
struct plot_place {
	char dir[PATH_MAX];
	char gnuplot[PATH_MAX];
	char plots_dir[PATH_MAX];
};

/* Writes a chart's data to out->f and its variables: how many blocks or
 * points it wrote; 0 when there is nothing to draw (out->why says so); <0
 * on an error. */
typedef long (*plot_own_fn)(void *arg, struct chart_out *out);

/*
 * Draws the chart plots/<chart>.gp in at->dir from what write(arg, out)
 * writes, as bench plot draws its own: plot-<chart>.dat, then gnuplot; a
 * chart with nothing to draw is skipped with a line saying why. 0 drawn or
 * skipped, -1 on an error.
 */
int plot_own_chart(const struct plot_place *at, const char *chart, plot_own_fn write,
		   void *arg);

/* The full path of gnuplot in PATH into out; false when there is none. */
bool plot_find_gnuplot(char *out, size_t n);
/* The folder of the gnuplot scripts into out ($COPYBENCH_PLOTS_DIR, beside
 * the executable, or the source tree). 0, or -ENOENT when not found. */
int plot_find_scripts(char *out, size_t n);
/* MiB/s of size bytes copied in ns nanoseconds; 0 without a time. */
double plot_mbs(uint64_t size, double ns);
/* s into out[n] without the characters that would end a gnuplot string. */
void plot_clean(const char *s, char *out, size_t n);

#endif
