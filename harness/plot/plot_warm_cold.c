// SPDX-License-Identifier: MIT
/*
 * plot_warm_cold.c - the warm-vs-cold chart of `bench plot`: each
 * strategy's throughput with a warm and a cold page cache side by side, at
 * the largest size run in both, and a line at each limit row the bars are
 * divided by (memcpy warm, a device row cold).
 */
#include "plot_internal.h"

#include <stdio.h>
#include <string.h>

/* The largest size of workload w run in both cache states; 0 if none. */
static uint64_t chart_both_caches_size(const struct plot_ctx *ctx, const char *w)
{
	uint64_t best = 0;

	for (size_t i = 0; i < ctx->nrows; i++) {
		const struct plot_row *r = &ctx->rows[i];
		struct plot_slice cold = { .workload = w, .cache = "cold", .size = r->size };

		if (r->ok && !strcmp(r->workload, w) && !strcmp(r->cache, "warm") &&
		    r->size > best && plot_count(ctx, &cold))
			best = r->size;
	}
	return best;
}

/* For one strategy: the buffer run in both states with the best warm time. */
static bool chart_warm_cold_pair(const struct plot_ctx *ctx, const struct plot_slice *s,
				 const char *strategy, const struct plot_row *pair[2])
{
	struct plot_slice warm = *s, cold = *s;
	const struct plot_row **v = ctx->v;
	size_t nw, nc;

	warm.cache = "warm";
	cold.cache = "cold";
	pair[0] = pair[1] = NULL;
	nw = plot_select(ctx, &warm, strategy, v);
	nc = plot_select(ctx, &cold, strategy, v + nw);
	for (size_t i = 0; i < nw; i++)
		for (size_t j = nw; j < nw + nc; j++)
			if (v[i]->buffer == v[j]->buffer &&
			    (!pair[0] || v[i]->median_ns < pair[0]->median_ns)) {
				pair[0] = v[i];
				pair[1] = v[j];
			}
	return pair[0] != NULL;
}

/* The limit row `name` of slice s in cache state `cache`, or NULL. */
static const struct plot_row *chart_limit_row(const struct plot_ctx *ctx, const struct plot_slice *s,
					      const char *name, const char *cache)
{
	const struct plot_row *any = NULL;

	for (size_t i = 0; i < ctx->nrows; i++) {
		const struct plot_row *r = &ctx->rows[i];

		if (!r->ok || strcmp(r->cls, "limit") || strcmp(r->strategy, name) ||
		    strcmp(r->cache, cache) || r->size != s->size)
			continue;
		if (!strcmp(r->dataset, s->dataset))
			return r;
		any = any ? any : r;
	}
	return any;
}

/* A limit line's name is drawn just above its line, or higher when the name
 * of a lower line would be in its way: names are as tall as this share of
 * the y axis (0 to ymax). at[i]: the height of line i's name. */
#define LIMIT_NAME_SHARE 0.045
static void limit_name_heights(const double *mbs, double *at, size_t n, double ymax)
{
	size_t order[16];
	double h = LIMIT_NAME_SHARE * ymax, top = -h;

	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		while (j > 0 && mbs[order[j - 1]] > mbs[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];

		at[i] = mbs[i] + h / 2 > top + h ? mbs[i] + h / 2 : top + h;
		top = at[i];
	}
}

/* The y axis's top: the highest whisker or limit. */
static double limit_chart_top(const struct plot_row *const (*pairs)[2], size_t n,
			      const double *mbs, size_t nlim)
{
	double top = 0;

	for (size_t i = 0; i < 2 * n; i++) {
		const struct plot_row *r = pairs[i / 2][i % 2];
		double v = plot_mbs(r->size, r->min_ns ? r->min_ns : r->median_ns);

		top = v > top ? v : top;
	}
	for (size_t i = 0; i < nlim; i++)
		top = mbs[i] > top ? mbs[i] : top;
	return top;
}

/* The limit rows the rows of the chart are divided by (their limit_row),
 * each once: "cache" "name" MiB/s and the height of its name, a line
 * across the chart. How many. */
static long chart_limit_lines(const struct plot_ctx *ctx, const struct plot_slice *s,
			      const struct plot_row *const (*pairs)[2], size_t n, FILE *f)
{
	const char *seen[32];
	double mbs[16], at[16];
	size_t nseen = 0;

	fputs("# limits the rows are divided by (pct_of_limit): cache, limit row, MiB/s\n", f);
	for (size_t i = 0; i < 2 * n; i++) {
		const struct plot_row *r = pairs[i / 2][i % 2], *lim;
		size_t j = 0;

		if (!r->limit_row[0])
			continue;
		while (j < nseen && (strcmp(seen[j], r->limit_row) || strcmp(seen[j + 1], r->cache)))
			j += 2;
		if (j < nseen || nseen + 2 > sizeof(seen) / sizeof(seen[0]))
			continue;
		lim = chart_limit_row(ctx, s, r->limit_row, r->cache);
		if (!lim)
			continue;
		mbs[nseen / 2] = plot_mbs(lim->size, lim->median_ns);
		seen[nseen++] = r->limit_row;
		seen[nseen++] = r->cache;
	}
	limit_name_heights(mbs, at, nseen / 2, limit_chart_top(pairs, n, mbs, nseen / 2));
	for (size_t k = 0; k < nseen / 2; k++)
		fprintf(f, "\"%s\" \"%s\" %.3f %.3f\n", seen[2 * k + 1], seen[2 * k], mbs[k], at[k]);
	fputs("\n\n", f);
	return (long)nseen / 2;
}

#define WARM_COLD_MAX 64

/* 6. Warm and cold throughput side by side, min-max whiskers, and a line
 * at each limit row the bars are divided by (memcpy warm, a device row
 * cold). */
long chart_warm_cold(struct plot_ctx *ctx, struct chart_out *out)
{
	const struct plot_row *pairs[WARM_COLD_MAX][2];
	const char *wl = plot_main_workload(ctx);
	struct plot_slice s = { .workload = wl }, warm;
	size_t nbest, points = 0;
	char label[160];

	if (!wl) {
		snprintf(out->why, sizeof(out->why), "no successful case in summary.csv");
		return 0;
	}
	s.size = chart_both_caches_size(ctx, wl);
	if (!s.size) {
		snprintf(out->why, sizeof(out->why), "the warm and the cold cache were not both run at one size");
		return 0;
	}
	s.dataset = plot_main_dataset(ctx, &s);
	warm = s;
	warm.cache = "warm";
	nbest = plot_best_rows(ctx, &warm, ctx->w);
	fputs("# label, then warm and cold: median slowest fastest (MiB/s)\n", out->f);
	for (size_t i = 0; i < nbest && points < WARM_COLD_MAX; i++) {
		if (!chart_warm_cold_pair(ctx, &s, ctx->w[i]->strategy, pairs[points]))
			continue;
		plot_row_label(pairs[points][0], label, sizeof(label));
		fprintf(out->f, "\"%s\"", label);
		chart_bar_spread(out->f, pairs[points][0]);
		chart_bar_spread(out->f, pairs[points][1]);
		fputc('\n', out->f);
		points++;
	}
	fputs("\n\n", out->f);
	if (!points)
		snprintf(out->why, sizeof(out->why), "no strategy was run with the same buffer in both cache states");
	plot_var_int(&out->vars, "npoints", (long)points);
	plot_var_int(&out->vars, "nlimits", chart_limit_lines(ctx, &s, (const struct plot_row *const (*)[2])pairs,
							   points, out->f));
	plot_var_title(&out->vars, ctx, "Warm against cold page cache", &s);
	return (long)points;
}
