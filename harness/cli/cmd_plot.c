// SPDX-License-Identifier: MIT
/*
 * cmd_plot.c - `bench plot [--out DIR] [RESULTS_DIR...]`: turns results
 * folders into charts (several: from other machines, kernels or
 * filesystems, kept apart by their environment columns).
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

#include "cli.h"
#include "fsinfo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	err = make_dirs(ctx->dir, made, sizeof(made));
	if (err) {
		fprintf(stderr, "bench plot: --out '%s': %s\n", ctx->dir, strerror(-err));
		return 1;
	}
	return 0;
}

static int plot_apply(struct cli_parser *p, const struct cli_option *opt,
		      const struct cli_value *v)
{
	if (opt->id == OPT_PLOT_OUT)
		*(const char **)p->ctx = v->str;
	return 0;
}

/* Parses argv into ctx->inputs and ctx->dir (--out, or ""). 0, -1 after
 * --help, or the exit code to return. */
static int plot_parse_args(struct plot_ctx *ctx, int argc, char **argv)
{
	static char latest[PATH_MAX];
	const char *out = NULL;
	struct cli_parser p = { .cmd = CMD_PLOT, .apply = plot_apply, .ctx = &out,
				.max_operands = PLOT_MAX_INPUTS };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret;
	for (int i = 0; i < p.noperands; i++) {
		struct stat st;

		if (stat(p.operands[i], &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "bench plot: '%s' is not a results folder\n", p.operands[i]);
			return 2;
		}
		ctx->inputs[ctx->ninputs++] = p.operands[i];
	}
	if (!ctx->ninputs) {
		if (!plot_latest_results(latest, sizeof(latest))) {
			fprintf(stderr, "bench plot: no results folder under results/; run bench first or name one\n");
			return 2;
		}
		ctx->inputs[ctx->ninputs++] = latest;
	}
	for (size_t i = 0; i <= ctx->ninputs; i++) {
		const char *name = i < ctx->ninputs ? ctx->inputs[i] : out;

		if (name && strpbrk(name, "\"'\\")) {
			fprintf(stderr, "bench plot: %s: quotes or backslashes in the folder name are not supported\n", name);
			return 2;
		}
	}
	snprintf(ctx->dir, sizeof(ctx->dir), "%s", out ? out : "");
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
		ret = plot_out_dir(ctx);
	if (!ret)
		ret = plot_results(ctx);
	free(ctx);
	return ret < 0 ? 0 : ret;
}
