// SPDX-License-Identifier: MIT
/*
 * plot_gnuplot.c - `bench plot`'s side of gnuplot: the data file of a chart
 * (plot-<chart>.dat beside the CSVs, one block per curve or panel), the
 * variables passed on gnuplot's command line, running gnuplot twice per
 * chart (PNG, then SVG) on plots/<chart>.gp, and finding gnuplot, the
 * scripts and the latest results folder.
 */
#include "plot_internal.h"
#include "host/paths.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---------------------------------------------------------- variables -- */

void plot_var_str(struct plot_vars *v, const char *name, const char *value)
{
	int n = snprintf(v->s + v->len, sizeof(v->s) - v->len, "%s=\"%s\";", name, value);

	if (n > 0 && (size_t)n < sizeof(v->s) - v->len)
		v->len += (size_t)n;
}

void plot_var_int(struct plot_vars *v, const char *name, long value)
{
	int n = snprintf(v->s + v->len, sizeof(v->s) - v->len, "%s=%ld;", name, value);

	if (n > 0 && (size_t)n < sizeof(v->s) - v->len)
		v->len += (size_t)n;
}

void plot_var_dbl(struct plot_vars *v, const char *name, double value)
{
	int n = snprintf(v->s + v->len, sizeof(v->s) - v->len, "%s=%.9g;", name, value);

	if (n > 0 && (size_t)n < sizeof(v->s) - v->len)
		v->len += (size_t)n;
}

/* "Title\nmachine; slice" as a gnuplot string body. */
void plot_var_heading(struct plot_vars *v, const char *what, const char *env)
{
	char title[1024];

	snprintf(title, sizeof(title), "%s\\n%s", what, env);
	plot_var_str(v, "ttl", title);
}

void plot_var_title(struct plot_vars *v, const struct plot_ctx *ctx,
		    const char *what, const struct plot_slice *s)
{
	char slice[256] = "", env[800];

	if (s)
		plot_slice_text(s, slice, sizeof(slice));
	snprintf(env, sizeof(env), "%s%s%s", ctx->env, slice[0] ? "; " : "", slice);
	plot_var_heading(v, what, env);
}

/* ------------------------------------------------------------- files -- */

static void plot_path(const struct plot_ctx *ctx, const char *name,
		      const char *ext, char *out, size_t n)
{
	snprintf(out, n, "%s/%s%s", ctx->dir, name, ext);
}

static void plot_dat_path(const struct plot_ctx *ctx, const char *chart,
			  char *out, size_t n)
{
	snprintf(out, n, "%s/plot-%s.dat", ctx->dir, chart);
}

static FILE *plot_dat_open(const struct plot_ctx *ctx, const char *chart)
{
	char path[PATH_MAX + 80];
	FILE *f;

	plot_dat_path(ctx, chart, path, sizeof(path));
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

static void plot_remove_dat(const struct plot_ctx *ctx, const char *chart)
{
	char path[PATH_MAX + 80];

	plot_dat_path(ctx, chart, path, sizeof(path));
	unlink(path);
}

/* Removes an old drawing of a chart that no longer has data. */
static void plot_remove_outputs(const struct plot_ctx *ctx, const char *chart)
{
	char path[PATH_MAX + 80];

	plot_path(ctx, chart, ".png", path, sizeof(path));
	unlink(path);
	plot_path(ctx, chart, ".svg", path, sizeof(path));
	unlink(path);
	plot_remove_dat(ctx, chart);
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
	plot_dat_path(ctx, chart, dat, sizeof(dat));
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
		/* The scripts and the data are UTF-8 (common.gp says so); under
		 * the C locale gnuplot warns that it cannot convert its degree
		 * sign. C.UTF-8 is built into glibc's locales on Debian. */
		setenv("LC_ALL", "C.UTF-8", 1);
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
static int plot_draw(const struct plot_ctx *ctx, const char *chart,
		     const struct plot_vars *vars)
{
	if (plot_run_gnuplot(ctx, chart, vars, "png") ||
	    plot_run_gnuplot(ctx, chart, vars, "svg"))
		return -1;
	printf("%s: wrote %s/%s.png and .svg\n", chart, ctx->dir, chart);
	return 0;
}

int plot_chart(struct plot_ctx *ctx, const char *chart, chart_write_fn write)
{
	struct chart_out out = { .f = plot_dat_open(ctx, chart) };
	long n;

	if (!out.f)
		goto out_error;
	n = write(ctx, &out);
	/* what the chart was drawn with, beside its data: to redraw it by hand */
	fprintf(out.f, "# variables: %s\n", out.vars.s);
	if (plot_dat_close(out.f, chart) || n < 0)
		goto out_remove;
	if (n == 0) {
		printf("%s: skipped: %s\n", chart, out.why);
		plot_remove_outputs(ctx, chart);
		return 0;
	}
	if (plot_draw(ctx, chart, &out.vars))
		goto out_error;
	return 0;
out_remove:
	plot_remove_dat(ctx, chart);
out_error:
	ctx->errors++;
	return -1;
}

/* A chart of one's own: its callback and argument beside a bare context. */
struct own_chart {
	struct plot_ctx ctx;	/* first: plot_chart's callback gets &ctx */
	plot_own_fn write;
	void *arg;
};

static long own_chart_write(struct plot_ctx *ctx, struct chart_out *out)
{
	struct own_chart *c = (struct own_chart *)ctx;

	return c->write(c->arg, out);
}

int plot_own_chart(const struct plot_place *at, const char *chart, plot_own_fn write,
		   void *arg)
{
	struct own_chart *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -1;
	snprintf(c->ctx.dir, sizeof(c->ctx.dir), "%s", at->dir);
	snprintf(c->ctx.gnuplot, sizeof(c->ctx.gnuplot), "%s", at->gnuplot);
	snprintf(c->ctx.plots_dir, sizeof(c->ctx.plots_dir), "%s", at->plots_dir);
	c->write = write;
	c->arg = arg;
	ret = plot_chart(&c->ctx, chart, own_chart_write);
	free(c);
	return ret;
}

/* --------------------------------------------------------- locations -- */

bool plot_find_gnuplot(char *out, size_t n)
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

bool plot_gnuplot_available(void)
{
	char path[PATH_MAX];

	return plot_find_gnuplot(path, sizeof(path));
}

static bool plot_dir_has_scripts(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/throughput.gp", dir);
	return access(path, R_OK) == 0;
}

/* plots/: $COPYBENCH_PLOTS_DIR, beside the executable, or the source tree. */
int plot_find_scripts(char *out, size_t n)
{
	static const char *const rel[] = { "/../plots", "/../share/copybench/plots", "/plots" };
	const char *env = getenv("COPYBENCH_PLOTS_DIR");
	char exe[PATH_MAX];

	if (env && *env) {
		snprintf(out, n, "%s", env);
		return plot_dir_has_scripts(out) ? 0 : -ENOENT;
	}
	if (paths_exe_dir(exe, sizeof(exe)) == 0) {
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(out, n, "%s%s", exe, rel[i]);
			if (plot_dir_has_scripts(out))
				return 0;
		}
	}
	if (paths_source_dir()) {
		snprintf(out, n, "%s/plots", paths_source_dir());
		if (plot_dir_has_scripts(out))
			return 0;
	}
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

bool plot_latest_results(char *out, size_t n)
{
	if (plot_latest_in("results", out, n))
		return true;
	if (paths_source_dir()) {
		char base[PATH_MAX];

		snprintf(base, sizeof(base), "%s/results", paths_source_dir());
		return plot_latest_in(base, out, n);
	}
	return false;
}
