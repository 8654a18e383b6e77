// SPDX-License-Identifier: MIT
/*
 * cmd_plot.c - `bench plot [RESULTS_DIR]`: turns a results folder into charts.
 *
 * The C side reads summary.csv (and hyperfine-*.csv when present), decides
 * which slice of the results each chart shows and whether the chart has data
 * at all, and writes a small whitespace-separated data file per chart beside
 * the CSVs. Drawing is left to gnuplot and to the scripts in plots/ (one
 * <chart>.gp each), which users can read and edit. The pieces are listed in
 * plot_internal.h.
 */
#include "plot.h"
#include "plot_internal.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void plot_usage(FILE *f)
{
	fputs("usage: bench plot [RESULTS_DIR]\n"
	      "Draws the charts of a results folder (default: the latest under results/)\n"
	      "as PNG and SVG files beside its CSVs, with gnuplot and the scripts in plots/.\n"
	      "Charts without data for their question are skipped with a line saying why.\n"
	      "Environment: COPYBENCH_PLOTS_DIR overrides where the .gp scripts are found.\n", f);
}

static int plot_bad_argument(const char *arg)
{
	fprintf(stderr, "bench plot: unexpected argument '%s'\n", arg);
	plot_usage(stderr);
	return 2;
}

/* Parses argv into ctx->dir. 0, -1 after --help, or the exit code to return. */
static int plot_parse_args(struct plot_ctx *ctx, int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	optind = 0;	/* 0, not 1: glibc then forgets a half-read "-abc" */
	while ((opt = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		if (opt != 'h')
			return plot_bad_argument(argv[optind - 1]);
		plot_usage(stdout);
		return -1;
	}
	if (argc - optind > 1)
		return plot_bad_argument(argv[optind + 1]);
	if (optind < argc) {
		snprintf(ctx->dir, sizeof(ctx->dir), "%s", argv[optind]);
	} else if (!plot_latest_results(ctx->dir, sizeof(ctx->dir))) {
		fprintf(stderr, "bench plot: no results folder under results/; run bench first or name one\n");
		return 1;
	}
	if (strpbrk(ctx->dir, "\"'\\")) {
		fprintf(stderr, "bench plot: %s: quotes or backslashes in the folder name are not supported\n", ctx->dir);
		return 2;
	}
	return 0;
}

/* gnuplot and the .gp scripts of plots/. 0, or the exit code to return. */
static int plot_find_tools(struct plot_ctx *ctx)
{
	if (!plot_find_gnuplot(ctx->gnuplot, sizeof(ctx->gnuplot))) {
		fprintf(stderr, "bench plot: gnuplot not found in PATH; install it (Debian: apt install gnuplot-nox) and run bench plot again\n");
		return 2;
	}
	if (plot_find_scripts(ctx->plots_dir, sizeof(ctx->plots_dir))) {
		fprintf(stderr, "bench plot: the gnuplot scripts (plots/*.gp) were not found; set COPYBENCH_PLOTS_DIR to their folder\n");
		return 1;
	}
	return 0;
}

/* Loads the results and draws every chart. The exit code. */
static int plot_results(struct plot_ctx *ctx)
{
	size_t n;
	int ret = 1;

	if (plot_load_summary(ctx))
		goto out_free_rows;
	n = ctx->nrows ? ctx->nrows : 1;
	ctx->v = calloc(2 * n, sizeof(*ctx->v));
	ctx->w = calloc(n, sizeof(*ctx->w));
	if (!ctx->v || !ctx->w)
		goto out_free_work;
	plot_all_charts(ctx);
	ret = ctx->errors ? 1 : 0;
out_free_work:
	free(ctx->v);
	free(ctx->w);
out_free_rows:
	free(ctx->rows);
	if (ctx->sum.header)
		csv_free(&ctx->sum);
	return ret;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_ctx *ctx = calloc(1, sizeof(*ctx));
	int ret;

	if (!ctx)
		return 1;
	ret = plot_parse_args(ctx, argc, argv);
	if (!ret)
		ret = plot_find_tools(ctx);
	if (!ret)
		ret = plot_results(ctx);
	free(ctx);
	return ret < 0 ? 0 : ret;
}
