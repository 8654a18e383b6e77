// SPDX-License-Identifier: MIT
/*
 * plot_compare.c - the compare chart of `bench plot`: the strategies side by
 * side in every environment (host, kernel, filesystem, CPU) the results
 * hold, one group of bars per environment, one panel per workload, each
 * environment labelled by what tells it from the others.
 */
#include "plot_internal.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <string.h>

#define COMPARE_MAX_STRATEGIES 64

/* The strategies of slice s with a result in any environment: the main
 * environment's fastest first, then the others' in their order. rows[j]
 * is one row of names[j] (for its label). */
static size_t compare_strategies(struct plot_ctx *ctx, const struct plot_slice *s,
				 const char **names, const struct plot_row **rows)
{
	size_t n = 0;

	for (size_t k = 0; k <= ctx->nenvs; k++) {
		struct plot_slice e = *s;
		size_t nbest;

		e.by_env = true;
		e.env = k == 0 ? ctx->main_env : k - 1;
		if (k > 0 && e.env == ctx->main_env)
			continue;
		nbest = plot_best_rows(ctx, &e, ctx->w);
		for (size_t i = 0; i < nbest && n < COMPARE_MAX_STRATEGIES; i++) {
			size_t j = 0;

			while (j < n && strcmp(names[j], ctx->w[i]->strategy))
				j++;
			if (j == n) {
				rows[n] = ctx->w[i];
				names[n++] = ctx->w[i]->strategy;
			}
		}
	}
	return n;
}

/* Why strategy `name` has no bar in environment e of slice s: "cloned",
 * "unavailable", "failed", or "not run". */
static const char *compare_no_bar(const struct plot_ctx *ctx, const struct plot_slice *s,
				  size_t e, const char *name)
{
	const char *why = "not run";

	for (size_t i = 0; i < ctx->nrows; i++) {
		const struct plot_row *r = &ctx->rows[i];

		if (r->env != e || strcmp(r->strategy, name) || strcmp(r->workload, s->workload) ||
		    (s->cache && strcmp(r->cache, s->cache)) || (s->size && r->size != s->size))
			continue;
		why = plot_no_bar_note(r);
		if (!strcmp(why, "cloned"))
			return why;
	}
	return why;
}

/* The panel's blocks for gnuplot's `index`, which counts only blocks with
 * data: its bars (block<panel>) and its notes (noteblock<panel>, -1 and
 * not written when no bar is missing). *next: the next block's index. */
static void compare_blocks(struct chart_out *out, size_t panel, const char *notes,
			   long *next)
{
	char var[32];

	snprintf(var, sizeof(var), "block%zu", panel);
	plot_var_int(&out->vars, var, (*next)++);
	snprintf(var, sizeof(var), "noteblock%zu", panel);
	plot_var_int(&out->vars, var, notes[0] ? (*next)++ : -1);
	if (notes[0])
		fprintf(out->f, "# no bar: environment line, strategy column, why\n%s\n\n", notes);
}

/* Environment e has results of s's workload but none in s itself (another
 * size or dataset): it has no line in the panel, so say so, on stderr and
 * in the chart's caveat `left`. */
static void compare_left_out(const struct plot_ctx *ctx, const struct plot_slice *s, size_t e,
			     char *left, size_t n)
{
	char text[256];
	size_t len = strlen(left);

	for (size_t i = 0; i < ctx->nrows; i++) {
		const struct plot_row *r = &ctx->rows[i];

		if (r->env != e || strcmp(r->workload, s->workload))
			continue;
		plot_slice_text(s, text, sizeof(text));
		fprintf(stderr, "bench plot: compare: %s has %s results, none of %s: left out of "
			"that panel\n", ctx->envs[e].label, s->workload, text);
		if (len < n)
			snprintf(left + len, n - len, "%s%s (no %s)", len ? ", " : "left out: ",
				 ctx->envs[e].label, text);
		return;
	}
}

/* One panel: a line per environment with results in s, three columns per
 * strategy (its fastest row there: median slowest fastest MiB/s; NaN where
 * it has none), then, where a bar is missing, a block of notes:
 * "env_line column why". */
static void compare_panel(struct plot_ctx *ctx, const struct plot_slice *s, size_t panel,
			  long *next, char *left, size_t nleft, struct chart_out *out)
{
	const char *names[COMPARE_MAX_STRATEGIES];
	const struct plot_row *rows[COMPARE_MAX_STRATEGIES];
	size_t n = compare_strategies(ctx, s, names, rows), line = 0, nnotes = 0;
	char list[4096] = "", clean[128], var[32], notes[4096] = "";
	char colours[1024] = "";

	for (size_t j = 0, len = 0, clen = 0; j < n && len < sizeof(list); j++) {
		if (clen < sizeof(colours))
			clen += (size_t)snprintf(colours + clen, sizeof(colours) - clen, "%s ",
						 plot_colour(names[j]));
		plot_clean(names[j], clean, sizeof(clean));
		len += (size_t)snprintf(list + len, sizeof(list) - len, "'%s%s' ", clean,
					plot_class_note(rows[j]->cls));
	}
	fprintf(out->f, "# %s\n# colours %s\n", s->workload, colours);
	for (size_t e = 0; e < ctx->nenvs; e++) {
		struct plot_slice es = *s;
		size_t nbest;

		es.by_env = true;
		es.env = e;
		nbest = plot_best_rows(ctx, &es, ctx->w);
		if (!nbest) {
			compare_left_out(ctx, s, e, left, nleft);
			continue;
		}
		fprintf(out->f, "\"%s\"", ctx->envs[e].label);
		for (size_t j = 0; j < n; j++) {
			size_t i = 0, len = strlen(notes);

			while (i < nbest && strcmp(ctx->w[i]->strategy, names[j]))
				i++;
			if (i < nbest) {
				chart_bar_spread(out->f, ctx->w[i]);
				continue;
			}
			fputs(" NaN NaN NaN", out->f);
			snprintf(notes + len, sizeof(notes) - len, "%zu %zu \"%s\"\n", line, j,
				 compare_no_bar(ctx, s, e, names[j]));
			nnotes++;
		}
		fputc('\n', out->f);
		line++;
	}
	fputs("\n\n", out->f);
	snprintf(var, sizeof(var), "names%zu", panel);
	plot_var_str(&out->vars, var, list);
	snprintf(var, sizeof(var), "nnames%zu", panel);
	plot_var_int(&out->vars, var, (long)n);
	snprintf(var, sizeof(var), "colours%zu", panel);
	plot_var_str(&out->vars, var, colours);
	snprintf(var, sizeof(var), "nnotes%zu", panel);
	plot_var_int(&out->vars, var, (long)nnotes);
	compare_blocks(out, panel, notes, next);
}

/* "Strategies across filesystems and kernels", and what they share. */
static void compare_title(const struct plot_ctx *ctx, struct plot_vars *vars)
{
	static const char *const what[PLOT_NENV_FIELDS] = {
		[PLOT_HOST] = "hosts", [PLOT_KERNEL] = "kernels", [PLOT_FS] = "filesystems",
		[PLOT_CPU] = "CPUs",
	};
	static const char *const shared[PLOT_NENV_FIELDS] = {
		[PLOT_HOST] = "host ", [PLOT_KERNEL] = "Linux ", [PLOT_FS] = "", [PLOT_CPU] = "",
	};
	unsigned mask = plot_env_differs(ctx);
	char title[1024], clean[160];
	size_t len = (size_t)snprintf(title, sizeof(title), "Strategies across ");

	for (size_t j = 0, k = 0; j < PLOT_NENV_FIELDS && len < sizeof(title); j++)
		if (mask & (1u << j))
			len += (size_t)snprintf(title + len, sizeof(title) - len, "%s%s",
						k++ ? " and " : "", what[j]);
	if (!mask && len < sizeof(title))
		len += (size_t)snprintf(title + len, sizeof(title) - len, "runs");
	if (len < sizeof(title))
		len += (size_t)snprintf(title + len, sizeof(title) - len, " (median MiB/s)\\n");
	for (size_t j = 0, k = 0; j < PLOT_NENV_FIELDS && len < sizeof(title); j++) {
		if ((mask & (1u << j)) || !ctx->envs[0].field[j][0])
			continue;
		plot_clean(ctx->envs[0].field[j], clean, sizeof(clean));
		len += (size_t)snprintf(title + len, sizeof(title) - len, "%s%s%s",
					k++ ? ", " : "", shared[j], clean);
	}
	plot_var_str(vars, "ttl", title);
}

static bool compare_skips_workload(const char *name)
{
	const struct workload *wl = workload_find(name);

	return wl && (wl->flags & WORKLOAD_LIMITS);
}

/* 7. Strategies side by side in every environment: one group of bars per
 * filesystem (host, kernel), one panel per workload. */
long chart_compare(struct plot_ctx *ctx, struct chart_out *out)
{
	size_t nrows = ctx->nrows;
	char panels[4096] = "", text[256], left[1024] = "";
	long nblocks = 0, next = 0;

	if (ctx->nenvs < 2) {
		snprintf(out->why, sizeof(out->why), "the results come from one machine, kernel and filesystem");
		return 0;
	}
	ctx->nrows = ctx->nall;
	for (size_t i = 0; i < ctx->nrows; i++) {
		struct plot_slice s;
		size_t len = strlen(panels);

		if (!plot_first_workload(ctx, i) || compare_skips_workload(ctx->rows[i].workload) ||
		    !plot_pick_slice(ctx, ctx->rows[i].workload, "warm", &s))
			continue;
		compare_panel(ctx, &s, (size_t)nblocks, &next, left, sizeof(left), out);
		plot_slice_text(&s, text, sizeof(text));
		snprintf(panels + len, sizeof(panels) - len, "'%s' ", text);
		nblocks++;
	}
	ctx->nrows = nrows;
	if (!nblocks)
		snprintf(out->why, sizeof(out->why), "no successful case in summary.csv");
	compare_title(ctx, &out->vars);
	plot_var_str(&out->vars, "caveat", left);
	chart_blocks_vars(&out->vars, "panels", panels, nblocks);
	return nblocks;
}
