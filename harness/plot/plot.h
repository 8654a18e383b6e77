/* SPDX-License-Identifier: MIT */
/*
 * plot.h - `bench plot [RESULTS_DIR]`: charts of a results folder, drawn by
 * gnuplot from the scripts in plots/ (one .gp per chart), written as PNG and
 * SVG next to the CSVs.
 */
#ifndef COPYBENCH_PLOT_H
#define COPYBENCH_PLOT_H

#include <stdbool.h>

/*
 * argv[0] is "plot". Returns the process exit code: 0 when every chart with
 * data was drawn (charts without data are skipped with a line saying why),
 * 1 on an error, 2 on a usage error or when gnuplot is not installed.
 */
int cmd_plot(int argc, char **argv);

/*
 * Removes the charts bench plot draws in dir (<chart>.png, .svg and
 * plot-<chart>.dat of every chart it knows), so that new results are never
 * shown beside charts of old ones. Absent files are fine.
 */
void plot_remove_charts(const char *dir);

/* Is gnuplot in PATH (what bench plot needs)? */
bool plot_gnuplot_available(void);

#endif
