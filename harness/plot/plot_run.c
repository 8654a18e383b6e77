// SPDX-License-Identifier: MIT
/*
 * plot_run.c - `bench plot`'s engine: results folders in (several: from
 * other machines, kernels or filesystems, kept apart by their environment
 * columns), charts out.
 *
 * The C side reads summary.csv (and hyperfine-*.csv when present), decides
 * which slice of the results each chart shows and whether the chart has data
 * at all, and writes a small whitespace-separated data file per chart beside
 * the CSVs. Drawing is left to gnuplot and to the scripts in plots/ (one
 * <chart>.gp each), which users can read and edit. The pieces are listed in
 * plot_internal.h; the command line is harness/cli/cmd_plot.c.
 */
#include "plot_internal.h"
#include "lib/fsinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Where the charts go: --out (already in ctx->dir), the one folder read, or
 * a new compare folder; made when missing.
 */
static int plot_out_dir(struct plot_ctx *ctx)
{
	char stamp[32], made[PATH_MAX];
	time_t now = time(NULL);
	struct tm tm;
	int err;

	if (!ctx->dir[0] && ctx->ninputs == 1) {
		snprintf(ctx->dir, sizeof(ctx->dir), "%s", ctx->inputs[0]);
		return 0;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (!ctx->dir[0])
		snprintf(ctx->dir, sizeof(ctx->dir), "results/compare-%s", stamp);
	err = fs_make_dirs(ctx->dir, made, sizeof(made));
	if (err) {
		fprintf(stderr, "bench plot: --out '%s': %s\n", ctx->dir, strerror(-err));
		return 1;
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
static int plot_load_and_draw(struct plot_ctx *ctx)
{
	size_t n;
	int ret = 1;

	if (plot_load_summary(ctx))
		goto out_free_rows;
	n = ctx->nall ? ctx->nall : 1;
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
	plot_free_summary(ctx);
	return ret;
}

int plot_results(const char *const *inputs, size_t n, const char *out)
{
	struct plot_ctx *ctx = calloc(1, sizeof(*ctx));
	int ret;

	if (!ctx)
		return 1;
	for (size_t i = 0; i < n && i < PLOT_MAX_INPUTS; i++)
		ctx->inputs[ctx->ninputs++] = inputs[i];
	snprintf(ctx->dir, sizeof(ctx->dir), "%s", out ? out : "");
	ret = plot_find_tools(ctx);
	if (!ret)
		ret = plot_out_dir(ctx);
	if (!ret)
		ret = plot_load_and_draw(ctx);
	free(ctx);
	return ret;
}
