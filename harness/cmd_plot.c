// SPDX-License-Identifier: MIT
/*
 * plot.c - `bench plot [RESULTS_DIR]`: turns a results folder into charts.
 *
 * The C side reads summary.csv (and hyperfine-*.csv when present), decides
 * which slice of the results each chart shows and whether the chart has data
 * at all, and writes a small whitespace-separated data file per chart
 * (plot-<chart>.dat, one block per curve or panel) beside the CSVs. Drawing
 * is left to gnuplot and to the scripts in plots/ (one <chart>.gp each), which
 * users can read and edit; gnuplot runs twice per chart, once for PNG and once
 * for SVG, with the paths and titles passed as variables on its command line.
 *
 * The slice: a chart about "the strategies" compares like with like, so it
 * takes one workload (copy when it was run), one cache state (warm when it was
 * run), the largest size and the dataset measured most at that size. Where a
 * strategy ran with several buffer sizes, it shows its fastest one and says
 * which in the label.
 */
#include "plot.h"

#include "csv.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLOT_MIB 1048576.0

/* ------------------------------------------------------------ the data -- */

/* summary.csv columns plot reads; the first PLOT_COLS_REQUIRED must exist. */
enum plot_col {
	PC_WORKLOAD, PC_STRATEGY, PC_DATASET, PC_SIZE, PC_BUFFER, PC_CACHE,
	PC_MEDIAN, PC_MIN, PC_MAX, PC_STATUS,
	PC_SPM, PC_USER, PC_SYS, PC_HOST, PC_KERNEL, PC_FS,
	PC_NCOLS
};
#define PLOT_COLS_REQUIRED (PC_STATUS + 1)

static const char *const plot_col_names[PC_NCOLS] = {
	"workload", "strategy", "dataset", "size_bytes", "buffer_bytes", "cache",
	"median_ns", "min_ns", "max_ns", "status",
	"syscalls_per_mib", "user_ns", "sys_ns", "host", "kernel", "fs_type",
};

/* One case of summary.csv, parsed. Strings point into the csv_table. */
struct plot_row {
	const char *workload;
	const char *strategy;
	const char *dataset;
	const char *cache;
	const char *status;
	uint64_t size;
	uint64_t buffer;
	double median_ns, min_ns, max_ns;
	double spm;		/* syscalls per MiB, 0 when not counted */
	double user_ns, sys_ns;
	bool ok;		/* status ok and a median to show */
};

struct plot_ctx {
	char dir[PATH_MAX];
	char plots_dir[PATH_MAX];
	char gnuplot[PATH_MAX];
	struct csv_table sum;
	struct plot_row *rows;
	size_t nrows;
	char env[512];		/* "host h, Linux k, fs ext4" */
	int errors;
};

/* The part of the results one chart looks at. NULL or 0: any. */
struct plot_slice {
	const char *workload;
	const char *dataset;
	const char *cache;
	uint64_t size;
};

static double plot_num(const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return 0;
	v = strtod(s, &end);
	return *end ? 0 : v;
}

static double plot_mbs(uint64_t size, double ns)
{
	return ns > 0 ? (double)size / PLOT_MIB / (ns / 1e9) : 0;
}

/* Copies s into out without the characters that would end a gnuplot string. */
static void plot_clean(const char *s, char *out, size_t n)
{
	size_t i = 0;

	for (; s && *s && i + 1 < n; s++)
		out[i++] = (*s == '"' || *s == '\\' || *s == '\'' ||
			    (unsigned char)*s < ' ') ? '_' : *s;
	out[i] = '\0';
}

/* "4K", "64M", "1G" when exact, else the byte count. */
static void plot_size_label(uint64_t b, char *out, size_t n)
{
	static const char units[] = "TGMK";

	for (int i = 0; i < 4; i++) {
		uint64_t unit = 1ull << (10 * (4 - i));

		if (b && b % unit == 0) {
			snprintf(out, n, "%llu%c", (unsigned long long)(b / unit), units[i]);
			return;
		}
	}
	snprintf(out, n, "%llu", (unsigned long long)b);
}

/* "readwrite 64K" for a buffered case, "sendfile" otherwise. */
static void plot_row_label(const struct plot_row *r, char *out, size_t n)
{
	char name[128], buf[32];

	plot_clean(r->strategy, name, sizeof(name));
	if (!r->buffer) {
		snprintf(out, n, "%s", name);
		return;
	}
	plot_size_label(r->buffer, buf, sizeof(buf));
	snprintf(out, n, "%s %s", name, buf);
}

static void plot_fill_row(struct plot_ctx *ctx, size_t i, const int *col)
{
	const char *v[PC_NCOLS];
	struct plot_row *r = &ctx->rows[i];

	for (int c = 0; c < PC_NCOLS; c++)
		v[c] = col[c] < 0 ? "" : csv_cell(&ctx->sum, i, (size_t)col[c]);
	r->workload = v[PC_WORKLOAD];
	r->strategy = v[PC_STRATEGY];
	r->dataset = v[PC_DATASET];
	r->cache = v[PC_CACHE];
	r->status = v[PC_STATUS];
	r->size = strtoull(v[PC_SIZE], NULL, 10);
	r->buffer = strtoull(v[PC_BUFFER], NULL, 10);
	r->median_ns = plot_num(v[PC_MEDIAN]);
	r->min_ns = plot_num(v[PC_MIN]);
	r->max_ns = plot_num(v[PC_MAX]);
	r->spm = plot_num(v[PC_SPM]);
	r->user_ns = plot_num(v[PC_USER]);
	r->sys_ns = plot_num(v[PC_SYS]);
	r->ok = strcmp(r->status, "ok") == 0 && r->median_ns > 0 && r->size > 0;
}

/* The machine line of every title, from the first row (or uname). */
static void plot_fill_env(struct plot_ctx *ctx, const int *col)
{
	char host[128], kernel[128], fs[64];
	struct utsname u;

	if (ctx->nrows && col[PC_HOST] >= 0) {
		plot_clean(csv_cell(&ctx->sum, 0, (size_t)col[PC_HOST]), host, sizeof(host));
		plot_clean(col[PC_KERNEL] < 0 ? "" : csv_cell(&ctx->sum, 0, (size_t)col[PC_KERNEL]),
			   kernel, sizeof(kernel));
		plot_clean(col[PC_FS] < 0 ? "" : csv_cell(&ctx->sum, 0, (size_t)col[PC_FS]),
			   fs, sizeof(fs));
		snprintf(ctx->env, sizeof(ctx->env), "host %s, Linux %s, %s", host, kernel,
			 fs[0] ? fs : "unknown filesystem");
		return;
	}
	if (uname(&u) == 0) {
		plot_clean(u.nodename, host, sizeof(host));
		plot_clean(u.release, kernel, sizeof(kernel));
		snprintf(ctx->env, sizeof(ctx->env), "host %s, Linux %s", host, kernel);
	}
}

/* Reads summary.csv if there is one. 0 (also when absent) or -errno. */
static int plot_load_summary(struct plot_ctx *ctx)
{
	char path[PATH_MAX + 16], why[256];
	int col[PC_NCOLS];
	int err;

	snprintf(path, sizeof(path), "%s/summary.csv", ctx->dir);
	if (access(path, F_OK) != 0) {
		plot_fill_env(ctx, NULL);
		return 0;
	}
	err = csv_read(path, &ctx->sum, why, sizeof(why));
	if (err) {
		fprintf(stderr, "bench plot: %s: %s\n", path, why);
		return err;
	}
	for (int c = 0; c < PC_NCOLS; c++) {
		col[c] = csv_col(&ctx->sum, plot_col_names[c]);
		if (col[c] < 0 && c < PLOT_COLS_REQUIRED) {
			fprintf(stderr, "bench plot: %s: no column %s\n", path, plot_col_names[c]);
			return -EINVAL;
		}
	}
	ctx->rows = calloc(ctx->sum.nrows ? ctx->sum.nrows : 1, sizeof(*ctx->rows));
	if (!ctx->rows)
		return -ENOMEM;
	ctx->nrows = ctx->sum.nrows;
	for (size_t i = 0; i < ctx->nrows; i++)
		plot_fill_row(ctx, i, col);
	plot_fill_env(ctx, col);
	return 0;
}

/* ------------------------------------------------------------ slicing -- */

static bool plot_str_match(const char *want, const char *have)
{
	return !want || strcmp(want, have) == 0;
}

static bool plot_in_slice(const struct plot_row *r, const struct plot_slice *s)
{
	return r->ok && plot_str_match(s->workload, r->workload) &&
	       plot_str_match(s->dataset, r->dataset) &&
	       plot_str_match(s->cache, r->cache) &&
	       (!s->size || s->size == r->size);
}

static size_t plot_count(const struct plot_ctx *ctx, const struct plot_slice *s)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->nrows; i++)
		n += plot_in_slice(&ctx->rows[i], s);
	return n;
}

/* The workload the single-panel charts show: copy when it ran. */
static const char *plot_main_workload(const struct plot_ctx *ctx)
{
	struct plot_slice copy = { .workload = "copy" };

	if (plot_count(ctx, &copy))
		return "copy";
	for (size_t i = 0; i < ctx->nrows; i++)
		if (ctx->rows[i].ok)
			return ctx->rows[i].workload;
	return NULL;
}

/* Within s, the dataset with the most successful cases. */
static const char *plot_main_dataset(const struct plot_ctx *ctx,
				     const struct plot_slice *s)
{
	const char *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < ctx->nrows; i++) {
		struct plot_slice t = *s;
		size_t n;

		if (!plot_in_slice(&ctx->rows[i], s))
			continue;
		t.dataset = ctx->rows[i].dataset;
		n = plot_count(ctx, &t);
		if (n > best_n) {
			best = t.dataset;
			best_n = n;
		}
	}
	return best;
}

/*
 * The slice of `workload` charts compare strategies in: cache `cache` when it
 * was run (else any that was), the largest size, the most measured dataset.
 * false when the workload has no successful case.
 */
static bool plot_pick_slice(const struct plot_ctx *ctx, const char *workload,
			    const char *cache, struct plot_slice *s)
{
	*s = (struct plot_slice){ .workload = workload, .cache = cache };
	if (!plot_count(ctx, s))
		s->cache = NULL;
	for (size_t i = 0; i < ctx->nrows; i++)
		if (plot_in_slice(&ctx->rows[i], s) && !s->cache)
			s->cache = ctx->rows[i].cache;
	if (!s->cache)
		return false;
	for (size_t i = 0; i < ctx->nrows; i++)
		if (plot_in_slice(&ctx->rows[i], &(struct plot_slice){
				.workload = workload, .cache = s->cache }) &&
		    ctx->rows[i].size > s->size)
			s->size = ctx->rows[i].size;
	s->dataset = plot_main_dataset(ctx, s);
	return true;
}

/* The rows of slice s (and of strategy, unless NULL), in file order. */
static size_t plot_select(const struct plot_ctx *ctx, const struct plot_slice *s,
			  const char *strategy, const struct plot_row **out)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->nrows; i++)
		if (plot_in_slice(&ctx->rows[i], s) &&
		    plot_str_match(strategy, ctx->rows[i].strategy))
			out[n++] = &ctx->rows[i];
	return n;
}

static int plot_cmp_median(const void *a, const void *b)
{
	const struct plot_row *x = *(const struct plot_row *const *)a;
	const struct plot_row *y = *(const struct plot_row *const *)b;

	return (x->median_ns > y->median_ns) - (x->median_ns < y->median_ns);
}

static int plot_cmp_buffer(const void *a, const void *b)
{
	const struct plot_row *x = *(const struct plot_row *const *)a;
	const struct plot_row *y = *(const struct plot_row *const *)b;

	return (x->buffer > y->buffer) - (x->buffer < y->buffer);
}

static int plot_cmp_size(const void *a, const void *b)
{
	const struct plot_row *x = *(const struct plot_row *const *)a;
	const struct plot_row *y = *(const struct plot_row *const *)b;

	return (x->size > y->size) - (x->size < y->size);
}

/*
 * Keeps the fastest of the rows that share key (buffer or size) after sorting
 * by it with cmp. Returns the new count.
 */
static size_t plot_dedupe(const struct plot_row **v, size_t n,
			  int (*cmp)(const void *, const void *))
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 0; i < n; i++) {
		if (k && cmp(&v[k - 1], &v[i]) == 0) {
			if (v[i]->median_ns < v[k - 1]->median_ns)
				v[k - 1] = v[i];
			continue;
		}
		v[k++] = v[i];
	}
	return k;
}

/* The fastest row of each strategy in s, fastest first. */
static size_t plot_best_rows(const struct plot_ctx *ctx, const struct plot_slice *s,
			     const struct plot_row **out)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->nrows; i++) {
		const struct plot_row *r = &ctx->rows[i];
		size_t j;

		if (!plot_in_slice(r, s))
			continue;
		for (j = 0; j < n && strcmp(out[j]->strategy, r->strategy); j++)
			;
		if (j == n)
			out[n++] = r;
		else if (r->median_ns < out[j]->median_ns)
			out[j] = r;
	}
	qsort(out, n, sizeof(*out), plot_cmp_median);
	return n;
}

/* True when row i is the first in the file with this workload and strategy. */
static bool plot_first_strategy(const struct plot_ctx *ctx, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(ctx->rows[j].workload, ctx->rows[i].workload) &&
		    !strcmp(ctx->rows[j].strategy, ctx->rows[i].strategy))
			return false;
	return true;
}

/* True when row i is the first in the file with this workload. */
static bool plot_first_workload(const struct plot_ctx *ctx, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(ctx->rows[j].workload, ctx->rows[i].workload))
			return false;
	return true;
}

/* "copy, 64M random, warm cache" */
static void plot_slice_text(const struct plot_slice *s, char *out, size_t n)
{
	char size[32] = "", ds[64], wl[64], cache[64];

	if (s->size)
		plot_size_label(s->size, size, sizeof(size));
	plot_clean(s->workload, wl, sizeof(wl));
	plot_clean(s->dataset ? s->dataset : "any", ds, sizeof(ds));
	plot_clean(s->cache, cache, sizeof(cache));
	snprintf(out, n, "%s, %s%s%s data%s%s%s", wl, size, size[0] ? " " : "", ds,
		 cache[0] ? ", " : "", cache, cache[0] ? " cache" : "");
}

/* ------------------------------------------------ files and gnuplot -- */

/* Variables for a gnuplot -e command line. */
struct plot_vars {
	char s[16384];
	size_t len;
};

static void plot_var_str(struct plot_vars *v, const char *name, const char *value)
{
	int n = snprintf(v->s + v->len, sizeof(v->s) - v->len, "%s=\"%s\";", name, value);

	if (n > 0 && (size_t)n < sizeof(v->s) - v->len)
		v->len += (size_t)n;
}

static void plot_var_int(struct plot_vars *v, const char *name, long value)
{
	int n = snprintf(v->s + v->len, sizeof(v->s) - v->len, "%s=%ld;", name, value);

	if (n > 0 && (size_t)n < sizeof(v->s) - v->len)
		v->len += (size_t)n;
}

/* "Title\nmachine; slice" as a gnuplot string body. */
static void plot_var_title(struct plot_vars *v, const struct plot_ctx *ctx,
			   const char *what, const struct plot_slice *s)
{
	char slice[256] = "", title[1024];

	if (s)
		plot_slice_text(s, slice, sizeof(slice));
	snprintf(title, sizeof(title), "%s\\n%s%s%s", what, ctx->env,
		 slice[0] ? "; " : "", slice);
	plot_var_str(v, "ttl", title);
}

static void plot_path(const struct plot_ctx *ctx, const char *name,
		      const char *ext, char *out, size_t n)
{
	snprintf(out, n, "%s/%s%s", ctx->dir, name, ext);
}

static FILE *plot_dat_open(const struct plot_ctx *ctx, const char *chart)
{
	char name[64], path[PATH_MAX + 80];
	FILE *f;

	snprintf(name, sizeof(name), "plot-%s", chart);
	plot_path(ctx, name, ".dat", path, sizeof(path));
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "bench plot: %s: %s\n", path, strerror(errno));
	else
		fprintf(f, "# %s: data for plots/%s.gp, written by bench plot\n", chart, chart);
	return f;
}

static int plot_dat_close(FILE *f, const char *chart)
{
	if (ferror(f) | fclose(f)) {
		fprintf(stderr, "bench plot: writing plot-%s.dat failed\n", chart);
		return -EIO;
	}
	return 0;
}

/* Removes an old drawing of a chart that no longer has data. */
static void plot_remove_outputs(const struct plot_ctx *ctx, const char *chart)
{
	char path[PATH_MAX + 80];

	plot_path(ctx, chart, ".png", path, sizeof(path));
	unlink(path);
	plot_path(ctx, chart, ".svg", path, sizeof(path));
	unlink(path);
	snprintf(path, sizeof(path), "%s/plot-%s.dat", ctx->dir, chart);
	unlink(path);
}

static int plot_skip(const struct plot_ctx *ctx, const char *chart, const char *fmt, ...)
{
	va_list ap;

	printf("%s: skipped: ", chart);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	plot_remove_outputs(ctx, chart);
	return 1;
}

/* Runs gnuplot on plots/<chart>.gp for one output format. 0 or -1. */
static int plot_run_gnuplot(const struct plot_ctx *ctx, const char *chart,
			    const struct plot_vars *vars, const char *fmt)
{
	static struct plot_vars all;
	char script[PATH_MAX + 80], out[PATH_MAX + 80], dat[PATH_MAX + 80];
	int status;
	pid_t pid;

	snprintf(script, sizeof(script), "%s/%s.gp", ctx->plots_dir, chart);
	snprintf(out, sizeof(out), "%s/%s.%s", ctx->dir, chart, fmt);
	snprintf(dat, sizeof(dat), "%s/plot-%s.dat", ctx->dir, chart);
	all = *vars;
	plot_var_str(&all, "datafile", dat);
	plot_var_str(&all, "out", out);
	plot_var_str(&all, "fmt", fmt);
	plot_var_str(&all, "plotsdir", ctx->plots_dir);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "bench plot: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execl(ctx->gnuplot, "gnuplot", "-e", all.s, script, (char *)NULL);
		fprintf(stderr, "bench plot: %s: %s\n", ctx->gnuplot, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "bench plot: %s: gnuplot failed on %s\n", chart, script);
		unlink(out);
		return -1;
	}
	return 0;
}

/* Draws chart as PNG and SVG. 0 drawn, -1 failed. */
static int plot_draw(struct plot_ctx *ctx, const char *chart, const struct plot_vars *vars)
{
	if (plot_run_gnuplot(ctx, chart, vars, "png") ||
	    plot_run_gnuplot(ctx, chart, vars, "svg")) {
		ctx->errors++;
		return -1;
	}
	printf("%s: wrote %s/%s.png and .svg\n", chart, ctx->dir, chart);
	return 0;
}

/* ------------------------------------------------------------ charts -- */

/* Strategies of workload w that never succeeded: "name" 0 0 0 "status". */
static void chart_unavailable_rows(const struct plot_ctx *ctx, const char *w, FILE *f)
{
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
		fprintf(f, "\"%s\" 0 0 0 \"%s\"\n", name,
			strncmp(r->status, "unavailable", 11) ? "failed" : "unavailable");
next:
		;
	}
}

/* 1. Median MB/s per strategy with min-max whiskers, one panel per workload. */
static int chart_throughput(struct plot_ctx *ctx, const struct plot_row **v)
{
	struct plot_vars vars = { .len = 0 };
	char panels[4096] = "", label[160], text[256];
	long nblocks = 0;
	FILE *f = plot_dat_open(ctx, "throughput");

	if (!f)
		return -1;
	for (size_t i = 0; i < ctx->nrows; i++) {
		struct plot_slice s;
		size_t n, len = strlen(panels);

		if (!plot_first_workload(ctx, i) ||
		    !plot_pick_slice(ctx, ctx->rows[i].workload, "warm", &s))
			continue;
		n = plot_best_rows(ctx, &s, v);
		fprintf(f, "# %s\n", s.workload);
		for (size_t k = 0; k < n; k++) {
			plot_row_label(v[k], label, sizeof(label));
			fprintf(f, "\"%s\" %.3f %.3f %.3f \"\"\n", label,
				plot_mbs(v[k]->size, v[k]->median_ns),
				plot_mbs(v[k]->size, v[k]->max_ns ? v[k]->max_ns : v[k]->median_ns),
				plot_mbs(v[k]->size, v[k]->min_ns ? v[k]->min_ns : v[k]->median_ns));
		}
		chart_unavailable_rows(ctx, s.workload, f);
		fputs("\n\n", f);
		plot_slice_text(&s, text, sizeof(text));
		snprintf(panels + len, sizeof(panels) - len, "'%s' ", text);
		nblocks++;
	}
	if (plot_dat_close(f, "throughput"))
		return -1;
	if (!nblocks)
		return plot_skip(ctx, "throughput", "no successful case in summary.csv");
	plot_var_title(&vars, ctx, "Throughput per strategy (fastest first)", NULL);
	plot_var_str(&vars, "panels", panels);
	plot_var_int(&vars, "nblocks", nblocks);
	return plot_draw(ctx, "throughput", &vars);
}

/* Writes one curve block; names gets the curve's title. */
static void chart_block(FILE *f, const char *title, char *names, size_t n)
{
	size_t len = strlen(names);

	fprintf(f, "# %s\n", title);
	snprintf(names + len, n - len, "'%s' ", title);
}

/* 2. MB/s against buffer size for each buffered strategy. */
static int chart_buffer_sweep(struct plot_ctx *ctx, const struct plot_row **v,
			      const struct plot_row **w)
{
	struct plot_vars vars = { .len = 0 };
	char names[4096] = "", name[128], lbl[32];
	struct plot_slice s;
	long nblocks = 0;
	size_t nbest;
	FILE *f;

	if (!plot_pick_slice(ctx, plot_main_workload(ctx), "warm", &s))
		return plot_skip(ctx, "buffer-sweep", "no successful case in summary.csv");
	f = plot_dat_open(ctx, "buffer-sweep");
	if (!f)
		return -1;
	nbest = plot_best_rows(ctx, &s, w);
	for (size_t i = 0; i < nbest; i++) {
		size_t n = plot_select(ctx, &s, w[i]->strategy, v), k = 0;

		for (size_t j = 0; j < n; j++)
			if (v[j]->buffer)
				v[k++] = v[j];
		k = plot_dedupe(v, k, plot_cmp_buffer);
		if (k < 2)
			continue;
		plot_clean(w[i]->strategy, name, sizeof(name));
		chart_block(f, name, names, sizeof(names));
		for (size_t j = 0; j < k; j++) {
			plot_size_label(v[j]->buffer, lbl, sizeof(lbl));
			fprintf(f, "%llu %.3f \"%s\"\n", (unsigned long long)v[j]->buffer,
				plot_mbs(v[j]->size, v[j]->median_ns), lbl);
		}
		fputs("\n\n", f);
		nblocks++;
	}
	if (plot_dat_close(f, "buffer-sweep"))
		return -1;
	if (!nblocks)
		return plot_skip(ctx, "buffer-sweep", "no buffered strategy was run with more than one buffer size");
	plot_var_title(&vars, ctx, "Buffer-size sweep", &s);
	plot_var_str(&vars, "names", names);
	plot_var_int(&vars, "nblocks", nblocks);
	return plot_draw(ctx, "buffer-sweep", &vars);
}

/* 3. Syscalls per MiB against MB/s, one labelled point per strategy. */
static int chart_syscalls(struct plot_ctx *ctx, const struct plot_row **v)
{
	struct plot_vars vars = { .len = 0 };
	char label[160];
	struct plot_slice s;
	size_t n, points = 0;
	FILE *f;

	if (!plot_pick_slice(ctx, plot_main_workload(ctx), "warm", &s))
		return plot_skip(ctx, "syscalls-vs-speed", "no successful case in summary.csv");
	n = plot_best_rows(ctx, &s, v);
	for (size_t i = 0; i < n; i++)
		points += v[i]->spm > 0;
	if (!points)
		return plot_skip(ctx, "syscalls-vs-speed", "summary.csv has no syscall counts (syscalls_per_mib is empty)");
	f = plot_dat_open(ctx, "syscalls-vs-speed");
	if (!f)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (v[i]->spm <= 0)
			continue;
		plot_row_label(v[i], label, sizeof(label));
		fprintf(f, "%.4f %.3f \"%s\"\n", v[i]->spm,
			plot_mbs(v[i]->size, v[i]->median_ns), label);
	}
	if (plot_dat_close(f, "syscalls-vs-speed"))
		return -1;
	plot_var_title(&vars, ctx, "System calls per MiB against throughput", &s);
	return plot_draw(ctx, "syscalls-vs-speed", &vars);
}

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

/* Writes a size-scaling curve of one strategy; false when under 2 sizes. */
static bool chart_scaling_curve(FILE *f, const struct plot_row **v, size_t n,
				uint64_t prefer, char *names, size_t names_n)
{
	uint64_t buffer = chart_scaling_buffer(v, n, prefer);
	char label[160], lbl[32];
	size_t k = 0;

	for (size_t j = 0; j < n; j++)
		if (v[j]->buffer == buffer)
			v[k++] = v[j];
	k = plot_dedupe(v, k, plot_cmp_size);
	if (k < 2)
		return false;
	plot_row_label(v[0], label, sizeof(label));
	chart_block(f, label, names, names_n);
	for (size_t j = 0; j < k; j++) {
		plot_size_label(v[j]->size, lbl, sizeof(lbl));
		fprintf(f, "%llu %.9f \"%s\"\n", (unsigned long long)v[j]->size,
			v[j]->median_ns / 1e9, lbl);
	}
	fputs("\n\n", f);
	return true;
}

/* 4. Time against size, log-log, one curve per strategy. */
static int chart_size_scaling(struct plot_ctx *ctx, const struct plot_row **v,
			      const struct plot_row **w)
{
	struct plot_vars vars = { .len = 0 };
	char names[4096] = "", lbl[32];
	struct plot_slice s;
	size_t nbest, nsizes;
	long nblocks = 0;
	FILE *f;

	if (!plot_pick_slice(ctx, plot_main_workload(ctx), "warm", &s))
		return plot_skip(ctx, "size-scaling", "no successful case in summary.csv");
	s.size = 0;
	nsizes = plot_dedupe(v, plot_select(ctx, &s, NULL, v), plot_cmp_size);
	if (nsizes < 2) {
		plot_size_label(v[0]->size, lbl, sizeof(lbl));
		return plot_skip(ctx, "size-scaling", "only one size was run (%s)", lbl);
	}
	f = plot_dat_open(ctx, "size-scaling");
	if (!f)
		return -1;
	nbest = plot_best_rows(ctx, &s, w);
	for (size_t i = 0; i < nbest; i++)
		nblocks += chart_scaling_curve(f, v, plot_select(ctx, &s, w[i]->strategy, v),
					       w[i]->buffer, names, sizeof(names));
	if (plot_dat_close(f, "size-scaling"))
		return -1;
	if (!nblocks)
		return plot_skip(ctx, "size-scaling", "no strategy was run at more than one size with the same buffer");
	plot_var_title(&vars, ctx, "Size scaling", &s);
	plot_var_str(&vars, "names", names);
	plot_var_int(&vars, "nblocks", nblocks);
	return plot_draw(ctx, "size-scaling", &vars);
}

/* 5. User and system CPU time per strategy, stacked. */
static int chart_cpu_split(struct plot_ctx *ctx, const struct plot_row **v)
{
	struct plot_vars vars = { .len = 0 };
	char label[160];
	struct plot_slice s;
	double total = 0;
	size_t n;
	FILE *f;

	if (!plot_pick_slice(ctx, plot_main_workload(ctx), "warm", &s))
		return plot_skip(ctx, "cpu-split", "no successful case in summary.csv");
	n = plot_best_rows(ctx, &s, v);
	for (size_t i = 0; i < n; i++)
		total += v[i]->user_ns + v[i]->sys_ns;
	if (total <= 0)
		return plot_skip(ctx, "cpu-split", "summary.csv has no CPU times (user_ns and sys_ns are empty or zero)");
	f = plot_dat_open(ctx, "cpu-split");
	if (!f)
		return -1;
	for (size_t i = 0; i < n; i++) {
		plot_row_label(v[i], label, sizeof(label));
		fprintf(f, "\"%s\" %.4f %.4f %.4f\n", label, v[i]->user_ns / 1e6,
			v[i]->sys_ns / 1e6, v[i]->median_ns / 1e6);
	}
	if (plot_dat_close(f, "cpu-split"))
		return -1;
	plot_var_title(&vars, ctx, "CPU time split: user and system", &s);
	return plot_draw(ctx, "cpu-split", &vars);
}

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
				 const char *strategy, const struct plot_row **v,
				 const struct plot_row *pair[2])
{
	struct plot_slice warm = *s, cold = *s;
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

/* 6. Warm and cold throughput side by side. */
static int chart_warm_cold(struct plot_ctx *ctx, const struct plot_row **v,
			   const struct plot_row **w)
{
	struct plot_vars vars = { .len = 0 };
	const struct plot_row *pair[2];
	const char *wl = plot_main_workload(ctx);
	struct plot_slice s = { .workload = wl };
	size_t nbest, points = 0;
	char label[160];
	FILE *f;

	if (!wl)
		return plot_skip(ctx, "warm-vs-cold", "no successful case in summary.csv");
	s.size = chart_both_caches_size(ctx, wl);
	if (!s.size)
		return plot_skip(ctx, "warm-vs-cold", "the warm and the cold cache were not both run at one size");
	s.dataset = plot_main_dataset(ctx, &s);
	f = plot_dat_open(ctx, "warm-vs-cold");
	if (!f)
		return -1;
	nbest = plot_best_rows(ctx, &(struct plot_slice){ .workload = wl, .cache = "warm",
				.size = s.size, .dataset = s.dataset }, w);
	for (size_t i = 0; i < nbest; i++) {
		if (!chart_warm_cold_pair(ctx, &s, w[i]->strategy, v, pair))
			continue;
		plot_row_label(pair[0], label, sizeof(label));
		fprintf(f, "\"%s\" %.3f %.3f\n", label, plot_mbs(pair[0]->size, pair[0]->median_ns),
			plot_mbs(pair[1]->size, pair[1]->median_ns));
		points++;
	}
	if (plot_dat_close(f, "warm-vs-cold"))
		return -1;
	if (!points)
		return plot_skip(ctx, "warm-vs-cold", "no strategy was run with the same buffer in both cache states");
	plot_var_title(&vars, ctx, "Warm against cold page cache", &s);
	return plot_draw(ctx, "warm-vs-cold", &vars);
}

/* ---------------------------------------------------------- hyperfine -- */

/* hyperfine-<state>.csv as exported by hyperfine, if present. 1 read, 0 absent, <0 error. */
static int hf_read(const struct plot_ctx *ctx, const char *state, struct csv_table *t)
{
	char path[PATH_MAX + 32], why[256];
	int err;

	snprintf(path, sizeof(path), "%s/hyperfine-%s.csv", ctx->dir, state);
	if (access(path, F_OK) != 0)
		return 0;
	err = csv_read(path, t, why, sizeof(why));
	if (!err && (csv_col(t, "command") < 0 || csv_col(t, "mean") < 0 ||
		     csv_col(t, "stddev") < 0)) {
		snprintf(why, sizeof(why), "no command, mean or stddev column");
		csv_free(t);
		err = -EINVAL;
	}
	if (err) {
		fprintf(stderr, "bench plot: %s: %s\n", path, why);
		return err;
	}
	return 1;
}

/* "mean_ms stddev_ms" of command in t, or "NaN NaN". */
static void hf_write_cell(FILE *f, const struct csv_table *t, bool have, const char *cmd)
{
	int c = have ? csv_col(t, "command") : -1;

	for (size_t r = 0; have && r < t->nrows; r++) {
		if (strcmp(csv_cell(t, r, (size_t)c), cmd))
			continue;
		fprintf(f, " %.4f %.4f",
			plot_num(csv_cell(t, r, (size_t)csv_col(t, "mean"))) * 1e3,
			plot_num(csv_cell(t, r, (size_t)csv_col(t, "stddev"))) * 1e3);
		return;
	}
	fputs(" NaN NaN", f);
}

static bool hf_listed(const struct csv_table *t, size_t upto, const char *cmd)
{
	int c = csv_col(t, "command");

	for (size_t r = 0; r < upto; r++)
		if (!strcmp(csv_cell(t, r, (size_t)c), cmd))
			return true;
	return false;
}

/* One row per command, warm commands first in hyperfine's order. */
static void hf_write_rows(FILE *f, struct csv_table t[2], const bool have[2])
{
	char name[160];

	for (int k = 0; k < 2; k++) {
		int c = have[k] ? csv_col(&t[k], "command") : -1;

		for (size_t r = 0; have[k] && r < t[k].nrows; r++) {
			const char *cmd = csv_cell(&t[k], r, (size_t)c);

			if (hf_listed(&t[k], r, cmd) || (k == 1 && have[0] && hf_listed(&t[0], t[0].nrows, cmd)))
				continue;
			plot_clean(cmd, name, sizeof(name));
			fprintf(f, "\"%s\"", name);
			hf_write_cell(f, &t[0], have[0], cmd);
			hf_write_cell(f, &t[1], have[1], cmd);
			fputc('\n', f);
		}
	}
}

/* 7. hyperfine's whole-process timings, warm and cold. */
static int chart_hyperfine(struct plot_ctx *ctx)
{
	struct plot_vars vars = { .len = 0 };
	struct csv_table t[2] = { { 0 }, { 0 } };
	bool have[2];
	int w, c, ret = -1;
	FILE *f;

	w = hf_read(ctx, "warm", &t[0]);
	c = hf_read(ctx, "cold", &t[1]);
	if (w < 0 || c < 0)
		goto out_free_tables;
	if (!w && !c) {
		ret = plot_skip(ctx, "hyperfine", "no hyperfine-warm.csv or hyperfine-cold.csv (run tools/hyperfine-compare.sh)");
		goto out_free_tables;
	}
	have[0] = w > 0;
	have[1] = c > 0;
	f = plot_dat_open(ctx, "hyperfine");
	if (!f)
		goto out_free_tables;
	hf_write_rows(f, t, have);
	if (plot_dat_close(f, "hyperfine"))
		goto out_free_tables;
	plot_var_title(&vars, ctx, "Whole-process copies timed by hyperfine", NULL);
	plot_var_str(&vars, "states", have[0] && have[1] ? "warm cold" : have[0] ? "warm" : "cold");
	ret = plot_draw(ctx, "hyperfine", &vars);
out_free_tables:
	if (w > 0)
		csv_free(&t[0]);
	if (c > 0)
		csv_free(&t[1]);
	if (ret < 0)
		ctx->errors++;
	return ret;
}

/* --------------------------------------------------------- locations -- */

/* The full path of gnuplot in PATH into out; false when there is none. */
static bool plot_find_gnuplot(char *out, size_t n)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		size_t len = strcspn(path, ":");

		if (len && (size_t)snprintf(out, n, "%.*s/gnuplot", (int)len, path) < n &&
		    access(out, X_OK) == 0)
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

static bool plot_dir_has_scripts(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/throughput.gp", dir);
	return access(path, R_OK) == 0;
}

/* plots/: $COPYBENCH_PLOTS_DIR, beside the executable, or the source tree. */
static int plot_find_scripts(char *out, size_t n)
{
	static const char *const rel[] = { "/../plots", "/../share/copybench/plots", "/plots" };
	const char *env = getenv("COPYBENCH_PLOTS_DIR");
	char exe[PATH_MAX];
	ssize_t len;

	if (env && *env) {
		snprintf(out, n, "%s", env);
		return plot_dir_has_scripts(out) ? 0 : -ENOENT;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		*strrchr(exe, '/') = '\0';
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(out, n, "%s%s", exe, rel[i]);
			if (plot_dir_has_scripts(out))
				return 0;
		}
	}
#ifdef COPYBENCH_SOURCE_DIR
	snprintf(out, n, "%s/plots", COPYBENCH_SOURCE_DIR);
	if (plot_dir_has_scripts(out))
		return 0;
#endif
	return -ENOENT;
}

/* The last results/<stamp>-<host>/ in name order, under base. */
static bool plot_latest_in(const char *base, char *out, size_t n)
{
	struct dirent **names;
	bool found = false;
	int count = scandir(base, &names, NULL, alphasort);

	if (count < 0)
		return false;
	for (int i = count - 1; i >= 0; i--) {
		char path[PATH_MAX + 256];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", base, names[i]->d_name);
		if (!found && names[i]->d_name[0] >= '0' && names[i]->d_name[0] <= '9' &&
		    strlen(path) < n && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			memcpy(out, path, strlen(path) + 1);
			found = true;
		}
		free(names[i]);
	}
	free(names);
	return found;
}

static bool plot_latest_results(char *out, size_t n)
{
	if (plot_latest_in("results", out, n))
		return true;
#ifdef COPYBENCH_SOURCE_DIR
	if (plot_latest_in(COPYBENCH_SOURCE_DIR "/results", out, n))
		return true;
#endif
	return false;
}

/* ------------------------------------------------------------ command -- */

static void plot_usage(FILE *f)
{
	fputs("usage: bench plot [RESULTS_DIR]\n"
	      "Draws the charts of a results folder (default: the latest under results/)\n"
	      "as PNG and SVG files beside its CSVs, with gnuplot and the scripts in plots/.\n"
	      "Charts without data for their question are skipped with a line saying why.\n"
	      "Environment: COPYBENCH_PLOTS_DIR overrides where the .gp scripts are found.\n", f);
}

/* Parses argv into ctx->dir. 0, or the exit code to return. */
static int plot_parse_args(struct plot_ctx *ctx, int argc, char **argv)
{
	const char *dir = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			plot_usage(stdout);
			return -1;
		}
		if (argv[i][0] == '-' || dir) {
			fprintf(stderr, "bench plot: unexpected argument '%s'\n", argv[i]);
			plot_usage(stderr);
			return 2;
		}
		dir = argv[i];
	}
	if (dir) {
		snprintf(ctx->dir, sizeof(ctx->dir), "%s", dir);
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

/* Draws every chart; the counts of rows bound the work arrays. */
static int plot_all(struct plot_ctx *ctx)
{
	size_t n = ctx->nrows ? ctx->nrows : 1;
	const struct plot_row **v = calloc(2 * n, sizeof(*v));
	const struct plot_row **w = calloc(n, sizeof(*w));

	if (!v || !w) {
		free(v);
		free(w);
		return -ENOMEM;
	}
	if (ctx->nrows) {
		chart_throughput(ctx, v);
		chart_buffer_sweep(ctx, v, w);
		chart_syscalls(ctx, v);
		chart_size_scaling(ctx, v, w);
		chart_cpu_split(ctx, v);
		chart_warm_cold(ctx, v, w);
	} else {
		printf("summary.csv: absent or empty in %s; only the hyperfine chart can be drawn\n", ctx->dir);
	}
	chart_hyperfine(ctx);
	free(v);
	free(w);
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_ctx *ctx = calloc(1, sizeof(*ctx));
	int ret;

	if (!ctx)
		return 1;
	ret = plot_parse_args(ctx, argc, argv);
	if (ret)
		goto out_free_ctx;
	if (!plot_find_gnuplot(ctx->gnuplot, sizeof(ctx->gnuplot))) {
		fprintf(stderr, "bench plot: gnuplot not found in PATH; install it (Debian: apt install gnuplot-nox) and run bench plot again\n");
		ret = 2;
		goto out_free_ctx;
	}
	if (plot_find_scripts(ctx->plots_dir, sizeof(ctx->plots_dir))) {
		fprintf(stderr, "bench plot: the gnuplot scripts (plots/*.gp) were not found; set COPYBENCH_PLOTS_DIR to their folder\n");
		ret = 1;
		goto out_free_ctx;
	}
	ret = 1;
	if (plot_load_summary(ctx))
		goto out_free_table;
	if (plot_all(ctx) == 0 && !ctx->errors)
		ret = 0;
out_free_table:
	free(ctx->rows);
	if (ctx->sum.header)
		csv_free(&ctx->sum);
out_free_ctx:
	free(ctx);
	return ret < 0 ? 0 : ret;
}
