// SPDX-License-Identifier: MIT
/*
 * plot_charts.c - the charts of `bench plot`, one function each, and their
 * table (the cpu-split, warm-vs-cold and compare charts have files of their
 * own: plot_cpu_split.c, plot_warm_cold.c, plot_compare.c). A chart
 * function decides which slice of summary.csv it shows and whether it has
 * data at all, writes the data for plots/<chart>.gp to f and the gnuplot
 * variables to vars, and returns how many blocks or points it wrote; 0 with
 * why filled skips it (see plot_chart in plot_gnuplot.c).
 */
#include "plot_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Writes one curve block; names gets the curve's title. */
static void chart_block(FILE *f, const char *title, char *names, size_t n)
{
	size_t len = strlen(names);

	fprintf(f, "# %s\n", title);
	snprintf(names + len, n - len, "'%s' ", title);
}

/* A curve of one strategy (its fastest row: best); false when it has none. */
typedef bool (*chart_curve_fn)(const struct plot_ctx *ctx, const struct plot_slice *s,
			       const struct plot_row *best, FILE *f, char *names,
			       size_t names_n);

/* What a chart of one curve per strategy draws. */
struct chart_curves {
	chart_curve_fn curve;
	const char *title;
	const char *none;	/* why the chart is skipped without a curve */
};

/* One curve per strategy of s, fastest first, and the chart's variables. */
static long chart_curves(struct plot_ctx *ctx, const struct plot_slice *s,
			 const struct chart_curves *c, struct chart_out *out)
{
	char names[4096] = "", colours[2048] = "";
	size_t nbest = plot_best_rows(ctx, s, ctx->w);
	long nblocks = 0;

	for (size_t i = 0; i < nbest; i++) {
		size_t len = strlen(colours);

		if (!c->curve(ctx, s, ctx->w[i], out->f, names, sizeof(names)))
			continue;
		nblocks++;
		snprintf(colours + len, sizeof(colours) - len, "%s ", plot_colour(ctx->w[i]->strategy));
	}
	plot_var_str(&out->vars, "colours", colours);
	if (!nblocks)
		snprintf(out->why, sizeof(out->why), "%s", c->none);
	plot_var_title(&out->vars, ctx, c->title, s);
	chart_blocks_vars(&out->vars, "names", names, nblocks);
	return nblocks;
}

/* ------------------------------------------------------ throughput -- */

/* Strategies of workload w with no bar: "name" 0 0 0 "why" (cloned,
 * unavailable, failed). How many. */
static size_t chart_unavailable_rows(const struct plot_ctx *ctx, const char *w, FILE *f)
{
	size_t lines = 0;

	for (size_t i = 0; i < ctx->nrows; i++) {
		const struct plot_row *r = &ctx->rows[i];
		struct plot_slice s = { .workload = w };
		char name[128];

		if (strcmp(r->workload, w) || r->ok || !plot_first_strategy(ctx, i))
			continue;
		for (size_t j = 0; j < ctx->nrows; j++)
			if (plot_in_slice(&ctx->rows[j], &s) &&
			    !strcmp(ctx->rows[j].strategy, r->strategy))
				goto next;
		plot_clean(r->strategy, name, sizeof(name));
		fprintf(f, "\"%s\" 0 0 0 \"%s\" %ld\n", name, plot_no_bar_note(r),
			plot_colour_int(r->strategy));
		lines++;
next:
		;
	}
	return lines;
}

/* The colours of rows v[0..n) drawn together (plot_row_colours), or NULL
 * (out of memory: each strategy's own colour). Freed by the caller. */
static long *chart_row_colours(const struct plot_row **v, size_t n)
{
	const char **names = calloc(n ? n : 1, sizeof(*names));
	long *colours = calloc(n ? n : 1, sizeof(*colours));

	if (!names || !colours)
		goto out_free_names;
	for (size_t k = 0; k < n; k++)
		names[k] = v[k]->strategy;
	plot_row_colours(names, n, colours);
	free(names);
	return colours;
out_free_names:
	free(names);
	free(colours);
	return NULL;
}

/* One panel: every row of the slice, as the table has them (each buffer,
 * each batch), fastest first; then the strategies that never ran. Its
 * lines: a panel of none is no block to gnuplot's `index`, and not drawn. */
static size_t chart_throughput_panel(const struct plot_ctx *ctx, const struct plot_slice *s,
				     FILE *f, size_t *bars)
{
	const struct plot_row **v = ctx->v;
	size_t n = plot_select(ctx, s, NULL, v);
	char label[160];
	long *colours;

	qsort(v, n, sizeof(*v), plot_cmp_median);
	colours = chart_row_colours(v, n);
	fprintf(f, "# %s\n", s->workload);
	for (size_t k = 0; k < n; k++) {
		bool ci = v[k]->ci_lo_ns > 0 && v[k]->ci_hi_ns > 0;
		double slow = ci ? v[k]->ci_hi_ns : v[k]->max_ns;
		double fast = ci ? v[k]->ci_lo_ns : v[k]->min_ns;

		plot_row_label(v[k], label, sizeof(label));
		fprintf(f, "\"%s\" %.3f %.3f %.3f \"\" %ld\n", label,
			plot_mbs(v[k]->size, v[k]->median_ns),
			plot_mbs(v[k]->size, slow ? slow : v[k]->median_ns),
			plot_mbs(v[k]->size, fast ? fast : v[k]->median_ns),
			colours ? colours[k] : plot_colour_int(v[k]->strategy));
	}
	free(colours);
	*bars = n;
	n += chart_unavailable_rows(ctx, s->workload, f);
	fputs("\n\n", f);
	return n;
}

/* 1. Median MB/s per strategy with whiskers at its 95 % interval (min-max
 * in results without one), one panel per workload. */
static long chart_throughput(struct plot_ctx *ctx, struct chart_out *out)
{
	char panels[4096] = "", text[256], var[32];
	long nblocks = 0;

	for (size_t i = 0; i < ctx->nrows; i++) {
		struct plot_slice s;
		size_t len = strlen(panels), bars;

		if (!plot_first_workload(ctx, i))
			continue;
		/* a workload none of whose rows succeeded: its notes alone */
		if (!plot_pick_slice(ctx, ctx->rows[i].workload, "warm", &s))
			s = (struct plot_slice){ .workload = ctx->rows[i].workload };
		if (!chart_throughput_panel(ctx, &s, out->f, &bars))
			continue;
		snprintf(var, sizeof(var), "bars%ld", nblocks);
		plot_var_int(&out->vars, var, (long)bars);
		if (bars)
			plot_slice_text(&s, text, sizeof(text));
		else
			snprintf(text, sizeof(text), "%s, no case ran", s.workload);
		snprintf(panels + len, sizeof(panels) - len, "'%s' ", text);
		nblocks++;
	}
	if (!nblocks)
		snprintf(out->why, sizeof(out->why), "no successful case in summary.csv");
	plot_var_title(&out->vars, ctx, "Throughput per strategy (fastest first)", NULL);
	chart_blocks_vars(&out->vars, "panels", panels, nblocks);
	return nblocks;
}

/* ---------------------------------------------------- buffer sweep -- */

/* Rows of one curve: one strategy and, for a channel, one batch. */
static bool sweep_same_curve(const struct plot_row *a, const struct plot_row *b)
{
	return !strcmp(a->strategy, b->strategy) && a->batch_lines == b->batch_lines;
}

/* The curve of rows[0]'s strategy and batch, from the n rows (fastest
 * first): one point per buffer (its fastest row), as many as buffers. */
static size_t sweep_curve(const struct plot_ctx *ctx, const struct plot_row **rows, size_t n,
			  long colour, struct chart_out *out, char *names, size_t names_n)
{
	const struct plot_row **v = ctx->w, *first = rows[0];
	struct plot_row unbuffered = *first;
	char label[160], lbl[32];
	size_t k = 0;

	for (size_t j = 0; j < n; j++)
		if (sweep_same_curve(rows[j], first))
			v[k++] = rows[j];
	k = plot_dedupe(v, k, plot_cmp_buffer);
	unbuffered.buffer = 0;	/* the label without a buffer: each point has its own */
	plot_row_label(&unbuffered, label, sizeof(label));
	chart_block(out->f, label, names, names_n);
	fprintf(out->f, "# colour %s #%06lx\n", first->strategy, colour);
	for (size_t j = 0; j < k; j++) {
		plot_size_label(v[j]->buffer, lbl, sizeof(lbl));
		fprintf(out->f, "%llu %.3f \"%s\"\n", (unsigned long long)v[j]->buffer,
			plot_mbs(v[j]->size, v[j]->median_ns), lbl);
	}
	fputs("\n\n", out->f);
	return k;
}

/* Is v[j] the first (fastest) row of its curve? */
static bool sweep_first(const struct plot_row **v, size_t j)
{
	for (size_t i = 0; i < j; i++)
		if (sweep_same_curve(v[i], v[j]))
			return false;
	return true;
}

/* How many buffers the curve of v[j] has among v[j..n). */
static size_t sweep_buffers(const struct plot_ctx *ctx, const struct plot_row **v, size_t j,
			    size_t n)
{
	size_t k = 0;

	for (size_t i = j; i < n; i++)
		if (sweep_same_curve(v[i], v[j]))
			ctx->w[k++] = v[i];
	return plot_dedupe(ctx->w, k, plot_cmp_buffer);
}

/* Every (strategy, batch) of s with a buffer as a curve, fastest first:
 * how many; 0 (nothing written) unless one ran at two buffers or more. */
static long sweep_curves(struct plot_ctx *ctx, const struct plot_slice *s, struct chart_out *out)
{
	const struct plot_row **v = ctx->v;
	char names[4096] = "", colours[2048] = "";
	size_t n = plot_select(ctx, s, NULL, v), k = 0, widest = 0;
	long curves = 0, *shade;

	for (size_t j = 0; j < n; j++)
		if (v[j]->buffer)
			v[k++] = v[j];
	qsort(v, k, sizeof(*v), plot_cmp_median);
	for (size_t j = 0; j < k; j++) {
		size_t buffers = sweep_first(v, j) ? sweep_buffers(ctx, v, j, k) : 0;

		widest = buffers > widest ? buffers : widest;
	}
	if (widest < 2)
		return 0;
	for (size_t j = 0; j < k; j++)	/* the first row of each curve */
		if (sweep_first(v, j))
			v[k + curves++] = v[j];
	shade = chart_row_colours(v + k, (size_t)curves);
	for (size_t j = 0, c = 0; j < k; j++) {
		size_t len = strlen(colours);
		long colour;

		if (!sweep_first(v, j))
			continue;
		colour = shade ? shade[c++] : plot_colour_int(v[j]->strategy);
		sweep_curve(ctx, v + j, k - j, colour, out, names, sizeof(names));
		snprintf(colours + len, sizeof(colours) - len, "#%06lx ", colour);
	}
	free(shade);
	plot_var_str(&out->vars, "colours", colours);
	plot_var_title(&out->vars, ctx, "Buffer-size sweep", s);
	chart_blocks_vars(&out->vars, "names", names, curves);
	return curves;
}

/* 2. MB/s against buffer size: a curve for each strategy (and channel
 * batch) that took a buffer, a point for each buffer it ran with, of the
 * main workload, or else of the first workload where one ran with several
 * buffer sizes (transform's channels, in a run of --all). */
static long chart_buffer_sweep(struct plot_ctx *ctx, struct chart_out *out)
{
	const char *main_wl = plot_main_workload(ctx);
	struct plot_slice s;
	long n = 0;

	if (!chart_main_slice(ctx, &s, out))
		return 0;
	n = sweep_curves(ctx, &s, out);
	for (size_t i = 0; i < ctx->nrows && !n; i++)
		if (plot_first_workload(ctx, i) && strcmp(ctx->rows[i].workload, main_wl) &&
		    plot_pick_slice(ctx, ctx->rows[i].workload, "warm", &s))
			n = sweep_curves(ctx, &s, out);
	if (!n)
		snprintf(out->why, sizeof(out->why), "no strategy of any workload ran with more than one buffer size");
	return n;
}

/* -------------------------------------------------------- syscalls -- */

/* 3. Syscalls per MiB against MB/s, one labelled point per strategy, the
 * labels placed apart (plot_labels.c) on axes fixed here. */
static long chart_syscalls(struct plot_ctx *ctx, struct chart_out *out)
{
	const struct plot_row **v = ctx->v;
	struct plot_label *pts;
	char (*labels)[160];
	struct plot_axes axes;
	struct plot_slice s;
	size_t nbest, points = 0;

	if (!chart_main_slice(ctx, &s, out))
		return 0;
	nbest = plot_best_rows(ctx, &s, v);
	pts = calloc(nbest ? nbest : 1, sizeof(*pts));
	labels = calloc(nbest ? nbest : 1, sizeof(*labels));
	if (!pts || !labels) {
		free(pts);
		free(labels);
		return -1;
	}
	for (size_t i = 0; i < nbest; i++) {
		if (v[i]->spm <= 0)
			continue;
		plot_row_label(v[i], labels[points], sizeof(labels[points]));
		pts[points].vx = v[i]->spm;
		pts[points].vy = plot_mbs(v[i]->size, v[i]->median_ns);
		pts[points].len = strlen(labels[points]);
		points++;
	}
	plot_layout_scatter(pts, points, &axes);
	for (size_t i = 0; i < points; i++)
		fprintf(out->f, "%.4f %.3f \"%s\" %.6g %.6g %d\n", pts[i].vx, pts[i].vy, labels[i],
			pts[i].lx, pts[i].ly, pts[i].align);
	if (!points)
		snprintf(out->why, sizeof(out->why), "summary.csv has no syscall counts (syscalls_per_mib is empty)");
	plot_var_title(&out->vars, ctx, "System calls per MiB against throughput", &s);
	plot_var_dbl(&out->vars, "xmin", pow(10, axes.log_xmin));
	plot_var_dbl(&out->vars, "xmax", pow(10, axes.log_xmax));
	plot_var_dbl(&out->vars, "ymax", axes.ymax);
	free(pts);
	free(labels);
	return (long)points;
}

/* ---------------------------------------------------- size scaling -- */

/* The buffer at which the rows cover the most sizes; ties keep `prefer`. */
static uint64_t chart_scaling_buffer(const struct plot_row **v, size_t n, uint64_t prefer)
{
	uint64_t best = prefer;
	size_t best_n = 0;

	for (size_t i = 0; i < n; i++)
		best_n += v[i]->buffer == prefer;
	for (size_t i = 0; i < n; i++) {
		size_t cnt = 0;

		for (size_t j = 0; j < n; j++)
			cnt += v[j]->buffer == v[i]->buffer;
		if (cnt > best_n) {
			best = v[i]->buffer;
			best_n = cnt;
		}
	}
	return best;
}

/* The size-scaling curve of one strategy; false when under 2 sizes. */
static bool chart_scaling_curve(const struct plot_ctx *ctx, const struct plot_slice *s,
				const struct plot_row *best, FILE *f, char *names,
				size_t names_n)
{
	const struct plot_row **v = ctx->v;
	size_t n = plot_select(ctx, s, best->strategy, v), k = 0;
	uint64_t buffer = chart_scaling_buffer(v, n, best->buffer);
	char label[160], lbl[32];

	for (size_t j = 0; j < n; j++)
		if (v[j]->buffer == buffer)
			v[k++] = v[j];
	k = plot_dedupe(v, k, plot_cmp_size);
	if (k < 2)
		return false;
	plot_row_label(v[0], label, sizeof(label));
	chart_block(f, label, names, names_n);
	fprintf(f, "# colour %s %s\n", best->strategy, plot_colour(best->strategy));
	for (size_t j = 0; j < k; j++) {
		plot_size_label(v[j]->size, lbl, sizeof(lbl));
		fprintf(f, "%llu %.9f \"%s\"\n", (unsigned long long)v[j]->size,
			v[j]->median_ns / 1e9, lbl);
	}
	fputs("\n\n", f);
	return true;
}

/* 4. Time against size, log-log, one curve per strategy. */
static long chart_size_scaling(struct plot_ctx *ctx, struct chart_out *out)
{
	static const struct chart_curves curves = {
		chart_scaling_curve, "Size scaling",
		"no strategy was run at more than one size with the same buffer",
	};
	const struct plot_row **v = ctx->v;
	struct plot_slice s;
	char lbl[32];

	if (!chart_main_slice(ctx, &s, out))
		return 0;
	s.size = 0;
	if (plot_dedupe(v, plot_select(ctx, &s, NULL, v), plot_cmp_size) < 2) {
		plot_size_label(v[0]->size, lbl, sizeof(lbl));
		snprintf(out->why, sizeof(out->why), "only one size was run (%s)", lbl);
		return 0;
	}
	return chart_curves(ctx, &s, &curves, out);
}

/* ------------------------------------------------------------ trees -- */

/* A tree row's bytes per file; 0 for the source-tree mix and other rows. */
static uint64_t tree_file_bytes(const struct plot_row *r)
{
	return r->files && r->file_size ? strtoull(r->file_size, NULL, 10) : 0;
}

static int cmp_file_bytes(const void *a, const void *b)
{
	uint64_t x = tree_file_bytes(*(const struct plot_row *const *)a);
	uint64_t y = tree_file_bytes(*(const struct plot_row *const *)b);

	return (x > y) - (x < y);
}

/* The tree curve of one strategy: files/s and MiB/s at each file size. */
static bool chart_tree_curve(const struct plot_ctx *ctx, const struct plot_slice *s,
			     const struct plot_row *best, FILE *f, char *names, size_t names_n)
{
	const struct plot_row **v = ctx->v;
	size_t n = plot_select(ctx, s, best->strategy, v), k = 0;
	char lbl[32];

	for (size_t j = 0; j < n; j++)
		if (tree_file_bytes(v[j]))
			v[k++] = v[j];
	k = plot_dedupe(v, k, cmp_file_bytes);
	if (k < 1)
		return false;
	chart_block(f, best->strategy, names, names_n);
	fprintf(f, "# colour %s %s\n", best->strategy, plot_colour(best->strategy));
	for (size_t j = 0; j < k; j++) {
		plot_size_label(tree_file_bytes(v[j]), lbl, sizeof(lbl));
		fprintf(f, "%llu %.3f %.3f \"%s\"\n", (unsigned long long)tree_file_bytes(v[j]),
			v[j]->files_per_s, plot_mbs(v[j]->size, v[j]->median_ns), lbl);
	}
	fputs("\n\n", f);
	return true;
}

/* 8. Trees: files/s and MiB/s against the size of each file, per strategy. */
static long chart_tree(struct plot_ctx *ctx, struct chart_out *out)
{
	static const struct chart_curves curves = {
		chart_tree_curve, "Trees of files: files/s and MiB/s by file size",
		"no tree row of a fixed file size succeeded",
	};
	const char *w = NULL;
	struct plot_slice s;

	for (size_t i = 0; i < ctx->nrows && !w; i++)
		if (ctx->rows[i].ok && tree_file_bytes(&ctx->rows[i]))
			w = ctx->rows[i].workload;
	if (!w || !plot_pick_slice(ctx, w, "warm", &s)) {
		snprintf(out->why, sizeof(out->why), "no tree row of a fixed file size in summary.csv");
		return 0;
	}
	s.size = 0;	/* every file size: a tree's size_bytes is all its files' */
	return chart_curves(ctx, &s, &curves, out);
}

/* ----------------------------------------------------------- table -- */

static const struct {
	const char *name;	/* plots/<name>.gp, <name>.png, <name>.svg */
	bool needs_summary;
	chart_write_fn write;
} charts[] = {
	{ "throughput", true, chart_throughput },
	{ "buffer-sweep", true, chart_buffer_sweep },
	{ "syscalls-vs-speed", true, chart_syscalls },
	{ "size-scaling", true, chart_size_scaling },
	{ "cpu-split", true, chart_cpu_split },
	{ "warm-vs-cold", true, chart_warm_cold },
	{ "compare", true, chart_compare },
	{ "tree-files", true, chart_tree },
	{ "hyperfine", false, chart_hyperfine },
};

void plot_remove_charts(const char *dir)
{
	static const char *const forms[] = { "%s/%s.png", "%s/%s.svg", "%s/plot-%s.dat" };
	char path[PATH_MAX + 80];

	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++) {
		for (size_t f = 0; f < 3; f++) {
			snprintf(path, sizeof(path), forms[f], dir, charts[i].name);
			unlink(path);
		}
	}
}

void plot_all_charts(struct plot_ctx *ctx)
{
	if (!ctx->nall)
		printf("summary.csv: absent or empty in %s; only the hyperfine chart can be drawn\n", ctx->dir);
	for (size_t i = 0; i < sizeof(charts) / sizeof(charts[0]); i++)
		if (ctx->nall || !charts[i].needs_summary)
			plot_chart(ctx, charts[i].name, charts[i].write);
}
