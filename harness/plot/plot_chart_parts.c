// SPDX-License-Identifier: MIT
/*
 * plot_chart_parts.c - what several charts share: the slice most of them
 * show, a bar with its whisker, the variables of a chart of several blocks.
 * The charts (plot_charts.c and the files of the larger ones) use these;
 * these use no chart.
 */
#include "plot_internal.h"

#include <stdio.h>

/* The variables of a chart of several curves or panels. */
void chart_blocks_vars(struct plot_vars *vars, const char *list_name,
		       const char *list, long nblocks)
{
	plot_var_str(vars, list_name, list);
	plot_var_int(vars, "nblocks", nblocks);
}

/* "median slowest fastest" in MiB/s: a bar and its min-max whisker. */
void chart_bar_spread(FILE *f, const struct plot_row *r)
{
	fprintf(f, " %.3f %.3f %.3f", plot_mbs(r->size, r->median_ns),
		plot_mbs(r->size, r->max_ns ? r->max_ns : r->median_ns),
		plot_mbs(r->size, r->min_ns ? r->min_ns : r->median_ns));
}

/* The slice most charts show; false (why filled) when nothing succeeded. */
bool chart_main_slice(const struct plot_ctx *ctx, struct plot_slice *s,
		      struct chart_out *out)
{
	if (plot_pick_slice(ctx, plot_main_workload(ctx), "warm", s))
		return true;
	snprintf(out->why, sizeof(out->why), "no successful case in summary.csv");
	return false;
}
