// SPDX-License-Identifier: MIT
/*
 * plot_data.c - `bench plot`'s data: summary.csv read into rows (the columns
 * and their types from the table in columns.c), their environments and
 * labels. The slices of them that the charts show are plot_slice.c's.
 */
#include "plot_internal.h"
#include "results/columns.h"
#include "workloads/workload.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PLOT_MIB 1048576.0

/* ------------------------------------------------------------ the data -- */

double plot_num(const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return 0;
	v = strtod(s, &end);
	return *end ? 0 : v;
}

double plot_mbs(uint64_t size, double ns)
{
	return ns > 0 ? (double)size / PLOT_MIB / (ns / 1e9) : 0;
}

/* Copies s into out without the characters that would end a gnuplot string. */
void plot_clean(const char *s, char *out, size_t n)
{
	size_t i = 0;

	for (; s && *s && i + 1 < n; s++)
		out[i++] = (*s == '"' || *s == '\\' || *s == '\'' ||
			    (unsigned char)*s < ' ') ? '_' : *s;
	out[i] = '\0';
}

/* "4K", "64M", "1G" when exact, else the byte count. */
void plot_size_label(uint64_t b, char *out, size_t n)
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

/* What a label says of a row's class: " (device I/O)", " (command)", or "". */
const char *plot_class_note(const char *cls)
{
	if (!strcmp(cls, "device"))
		return " (device I/O)";
	if (!strcmp(cls, "command"))
		return " (command)";
	return "";
}

/* "readwrite 64K" for a buffered case, "sendfile" otherwise. */
/* As the table labels a row: strategy, buffer, and a channel's batch
 * ("batch 5000", "batch buf" for a buffer's worth). */
void plot_row_label(const struct plot_row *r, char *out, size_t n)
{
	const struct workload *w = workload_find(r->workload);
	char name[128], buf[32] = "", batch[32] = "";

	plot_clean(r->strategy, name, sizeof(name));
	if (r->buffer) {
		buf[0] = ' ';
		plot_size_label(r->buffer, buf + 1, sizeof(buf) - 1);
	}
	if (w && (w->flags & WORKLOAD_CHANNELS))
		snprintf(batch, sizeof(batch), r->batch_lines ? " batch %llu" : " batch buf",
			 (unsigned long long)r->batch_lines);
	snprintf(out, n, "%s%s%s%s", name, buf, batch, plot_class_note(r->cls));
}

const char *plot_no_bar_note(const struct plot_row *r)
{
	/* the status first: reflink's rows are of class clone even where
	 * it cannot run */
	if (!strncmp(r->status, "unavailable", 11))
		return "unavailable";
	if (strcmp(r->status, "ok"))
		return "failed";
	return strcmp(r->cls, "clone") ? "not run" : "cloned";
}

/*
 * The summary.csv columns a chart reads, and where they go in a plot_row; the
 * member's type follows the column's in the table: const char * for a
 * string, double for a double, uint64_t otherwise.
 */
static const struct plot_field {
	const char *name;
	size_t offset;
	bool required;
} plot_fields[] = {
	{ "workload", offsetof(struct plot_row, workload), true },
	{ "strategy", offsetof(struct plot_row, strategy), true },
	{ "dataset", offsetof(struct plot_row, dataset), true },
	{ "size_bytes", offsetof(struct plot_row, size), true },
	{ "buffer_bytes", offsetof(struct plot_row, buffer), true },
	{ "batch_lines", offsetof(struct plot_row, batch_lines), false },
	{ "cache", offsetof(struct plot_row, cache), true },
	{ "median_ns", offsetof(struct plot_row, median_ns), true },
	{ "min_ns", offsetof(struct plot_row, min_ns), true },
	{ "max_ns", offsetof(struct plot_row, max_ns), true },
	{ "status", offsetof(struct plot_row, status), true },
	{ "median_lo_ns", offsetof(struct plot_row, ci_lo_ns), false },
	{ "median_hi_ns", offsetof(struct plot_row, ci_hi_ns), false },
	{ "syscalls_per_mib", offsetof(struct plot_row, spm), false },
	{ "user_ns", offsetof(struct plot_row, user_ns), false },
	{ "sys_ns", offsetof(struct plot_row, sys_ns), false },
	{ "class", offsetof(struct plot_row, cls), false },
	{ "limit_row", offsetof(struct plot_row, limit_row), false },
	{ "files", offsetof(struct plot_row, files), false },
	{ "file_size", offsetof(struct plot_row, file_size), false },
	{ "files_per_s", offsetof(struct plot_row, files_per_s), false },
};
#define PLOT_NFIELDS (sizeof(plot_fields) / sizeof(plot_fields[0]))

/* One cell into its plot_row member, parsed as the table's type says. */
static void plot_set_field(struct plot_row *r, const struct plot_field *pf,
			   const char *cell)
{
	const struct column *col = columns_find(COLFILE_SUMMARY, pf->name);
	char *p = (char *)r + pf->offset;

	if (col->type == COL_STR)
		*(const char **)p = cell;
	else if (col->type == COL_DBL)
		*(double *)p = plot_num(cell);
	else
		*(uint64_t *)p = strtoull(cell, NULL, 10);
}

static void plot_fill_row(struct plot_row *r, const struct csv_table *t, size_t row,
			  const int *col)
{
	for (size_t f = 0; f < PLOT_NFIELDS; f++)
		plot_set_field(r, &plot_fields[f],
			       col[f] < 0 ? "" : csv_cell(t, row, (size_t)col[f]));
	/* a clone's time is no copy speed: it is left out of every chart */
	r->ok = strcmp(r->status, "ok") == 0 && r->median_ns > 0 && r->size > 0 &&
		strcmp(r->cls, "clone") != 0;
}

/* Where each field's column is in the file; -EINVAL naming a missing one. */
static int plot_columns(const struct csv_table *t, const char *path, int *col)
{
	for (size_t f = 0; f < PLOT_NFIELDS; f++) {
		col[f] = columns_csv_col(t, COLFILE_SUMMARY, plot_fields[f].name);
		if (col[f] < 0 && plot_fields[f].required) {
			fprintf(stderr, "bench plot: %s: no column %s\n", path, plot_fields[f].name);
			return -EINVAL;
		}
	}
	return 0;
}

/* ----------------------------------------------------- environments -- */

static const char *const plot_env_columns[PLOT_NENV_FIELDS] = {
	[PLOT_HOST] = "host", [PLOT_KERNEL] = "kernel", [PLOT_FS] = "fs_type",
	[PLOT_CPU] = "cpu_model",
};

/*
 * How bench came to measure a filesystem, from fs_options: one it made on a
 * loop device, or one named by its path (bench --fs ext4,DIR). Two of one
 * type are two environments (a loop ext4 is not the machine's own ext4),
 * told apart by this in their labels; "" for anything else.
 */
static const char *plot_fs_origin(const char *fs_options)
{
	if (strstr(fs_options, "not made by bench"))
		return "named path";
	if (strstr(fs_options, "loop device"))
		return "loop device";
	return "";
}

/* The environment of a row of input k (its cells f and fs_options),
 * added when new. */
static int plot_env_of(struct plot_ctx *ctx, size_t k, const char *const *f,
		       const char *fs_options, size_t *out)
{
	const char *origin = plot_fs_origin(fs_options);
	struct plot_env *e;

	for (size_t i = 0; i < ctx->nenvs; i++) {
		size_t j = 0;

		while (j < PLOT_NENV_FIELDS && strcmp(ctx->envs[i].field[j], f[j]) == 0)
			j++;
		if (ctx->envs[i].input == k && j == PLOT_NENV_FIELDS &&
		    strcmp(ctx->envs[i].origin, origin) == 0) {
			*out = i;
			return 0;
		}
	}
	if (ctx->nenvs == PLOT_MAX_ENVS) {
		fprintf(stderr, "bench plot: more than %d machines, kernels and filesystems in these results\n",
			PLOT_MAX_ENVS);
		return -E2BIG;
	}
	e = &ctx->envs[ctx->nenvs];
	e->input = k;
	e->origin = origin;
	for (size_t j = 0; j < PLOT_NENV_FIELDS; j++)
		e->field[j] = f[j];
	*out = ctx->nenvs++;
	return 0;
}

unsigned plot_env_differs(const struct plot_ctx *ctx)
{
	unsigned mask = 0;

	for (size_t i = 1; i < ctx->nenvs; i++)
		for (size_t j = 0; j < PLOT_NENV_FIELDS; j++)
			if (strcmp(ctx->envs[i].field[j], ctx->envs[0].field[j]))
				mask |= 1u << j;
	return mask;
}

/* Environment i's label: the values of the fields in mask. */
static void plot_env_label(struct plot_env *e, unsigned mask)
{
	char clean[160];
	size_t len = 0;

	e->label[0] = '\0';
	for (size_t j = 0; j < PLOT_NENV_FIELDS && len < sizeof(e->label); j++) {
		if (!(mask & (1u << j)))
			continue;
		plot_clean(e->field[j][0] ? e->field[j] : "?", clean, sizeof(clean));
		len += (size_t)snprintf(e->label + len, sizeof(e->label) - len, "%s%s",
					len ? ", " : "", clean);
	}
}

/* Marks in alike[] the environments whose labels another one shares. */
static void plot_env_alike(const struct plot_ctx *ctx, bool *alike)
{
	for (size_t i = 0; i < ctx->nenvs; i++) {
		alike[i] = false;
		for (size_t j = 0; j < ctx->nenvs; j++)
			alike[i] |= i != j && !strcmp(ctx->envs[i].label, ctx->envs[j].label);
	}
}

/*
 * Each environment's label: the fields that differ between them; how bench
 * got the filesystem where that leaves two alike (a loop ext4 beside the
 * machine's own), then the results folder's name (two runs of one machine
 * and filesystem).
 */
static void plot_env_labels(struct plot_ctx *ctx)
{
	unsigned mask = plot_env_differs(ctx);
	bool alike[PLOT_MAX_ENVS];

	for (size_t i = 0; i < ctx->nenvs; i++)
		plot_env_label(&ctx->envs[i], mask);
	plot_env_alike(ctx, alike);
	for (size_t i = 0; i < ctx->nenvs; i++) {
		struct plot_env *e = &ctx->envs[i];
		size_t len = strlen(e->label);

		if (alike[i] && e->origin[0])
			snprintf(e->label + len, sizeof(e->label) - len, "%s%s", len ? ", " : "",
				 e->origin);
	}
	plot_env_alike(ctx, alike);
	for (size_t i = 0; i < ctx->nenvs; i++) {
		struct plot_env *e = &ctx->envs[i];
		const char *base = strrchr(ctx->inputs[e->input], '/');
		size_t len = strlen(e->label);
		char clean[160];

		if (!alike[i])
			continue;
		plot_clean(base && base[1] ? base + 1 : ctx->inputs[e->input], clean, sizeof(clean));
		snprintf(e->label + len, sizeof(e->label) - len, "%s%s", len ? " " : "", clean);
	}
}

/* Among several folders, the one a chart of one environment was drawn from:
 * "; from results/A" after the machine (the compare chart draws them all). */
static void plot_env_from(struct plot_ctx *ctx, const struct plot_env *e)
{
	size_t len = strlen(ctx->env);
	char clean[PATH_MAX];

	if (ctx->ninputs < 2)
		return;
	plot_clean(ctx->inputs[e->input], clean, sizeof(clean));
	snprintf(ctx->env + len, sizeof(ctx->env) - len, "; from %s", clean);
}

/* The machine line of every title: the main environment's (or uname). */
static void plot_fill_env(struct plot_ctx *ctx)
{
	char host[128], kernel[128], fs[64];
	struct utsname u;

	if (ctx->nenvs && ctx->envs[ctx->main_env].field[PLOT_HOST][0]) {
		const struct plot_env *e = &ctx->envs[ctx->main_env];

		plot_clean(e->field[PLOT_HOST], host, sizeof(host));
		plot_clean(e->field[PLOT_KERNEL], kernel, sizeof(kernel));
		plot_clean(e->field[PLOT_FS], fs, sizeof(fs));
		snprintf(ctx->env, sizeof(ctx->env), "host %s, Linux %s, %s", host, kernel,
			 fs[0] ? fs : "unknown filesystem");
		plot_env_from(ctx, e);
		return;
	}
	if (uname(&u) == 0) {
		plot_clean(u.nodename, host, sizeof(host));
		plot_clean(u.release, kernel, sizeof(kernel));
		snprintf(ctx->env, sizeof(ctx->env), "host %s, Linux %s", host, kernel);
	}
}

/* ------------------------------------------------------------ loading -- */

/* Appends the rows of input k's table t. 0 or -errno. */
static int plot_add_rows(struct plot_ctx *ctx, size_t k, const char *path)
{
	const struct csv_table *t = &ctx->sums[k];
	struct plot_row *rows;
	int col[PLOT_NFIELDS], envc[PLOT_NENV_FIELDS], optc;
	int err = plot_columns(t, path, col);

	if (err)
		return err;
	for (size_t j = 0; j < PLOT_NENV_FIELDS; j++)
		envc[j] = columns_csv_col(t, COLFILE_SUMMARY, plot_env_columns[j]);
	optc = columns_csv_col(t, COLFILE_SUMMARY, "fs_options");
	rows = realloc(ctx->rows, (ctx->nall + t->nrows + 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	ctx->rows = rows;
	for (size_t i = 0; i < t->nrows; i++) {
		struct plot_row *r = &ctx->rows[ctx->nall];
		const char *f[PLOT_NENV_FIELDS];

		memset(r, 0, sizeof(*r));
		plot_fill_row(r, t, i, col);
		for (size_t j = 0; j < PLOT_NENV_FIELDS; j++)
			f[j] = envc[j] < 0 ? "" : csv_cell(t, i, (size_t)envc[j]);
		err = plot_env_of(ctx, k, f, optc < 0 ? "" : csv_cell(t, i, (size_t)optc), &r->env);
		if (err)
			return err;
		ctx->nall++;
	}
	return 0;
}

/* Reads input k's summary.csv. Absent: 0 for a single folder (its
 * hyperfine chart may still be drawn), an error among several. */
static int plot_load_one(struct plot_ctx *ctx, size_t k)
{
	char path[PATH_MAX + 16], why[256];
	int err;

	snprintf(path, sizeof(path), "%s/%s", ctx->inputs[k], col_files[COLFILE_SUMMARY].name);
	if (access(path, F_OK) != 0) {
		if (ctx->ninputs == 1)
			return 0;
		fprintf(stderr, "bench plot: %s: no %s in this folder\n", ctx->inputs[k],
			col_files[COLFILE_SUMMARY].name);
		return -ENOENT;
	}
	err = csv_read(path, &ctx->sums[k], why, sizeof(why));
	if (err) {
		fprintf(stderr, "bench plot: %s: %s\n", path, why);
		return err;
	}
	return plot_add_rows(ctx, k, path);
}

/* The environment with the most successful rows (the first on a tie)
 * becomes the main one; its rows move first, in file order. */
static int plot_pick_main_env(struct plot_ctx *ctx)
{
	size_t best = 0, best_n = 0, k = 0;
	struct plot_row *sorted;

	for (size_t e = 0; e < ctx->nenvs; e++) {
		size_t n = 0;

		for (size_t i = 0; i < ctx->nall; i++)
			n += ctx->rows[i].env == e && ctx->rows[i].ok;
		if (n > best_n) {
			best = e;
			best_n = n;
		}
	}
	ctx->main_env = best;
	sorted = calloc(ctx->nall + 1, sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < ctx->nall; i++)
			if ((ctx->rows[i].env == best) == (pass == 0))
				sorted[k++] = ctx->rows[i];
	free(ctx->rows);
	ctx->rows = sorted;
	ctx->nrows = 0;
	while (ctx->nrows < ctx->nall && ctx->rows[ctx->nrows].env == best)
		ctx->nrows++;
	return 0;
}

int plot_load_summary(struct plot_ctx *ctx)
{
	int err = 0;

	for (size_t k = 0; k < ctx->ninputs && !err; k++)
		err = plot_load_one(ctx, k);
	if (!err && ctx->nall)
		err = plot_pick_main_env(ctx);
	if (err)
		return err;
	plot_env_labels(ctx);
	plot_fill_env(ctx);
	return 0;
}

void plot_free_summary(struct plot_ctx *ctx)
{
	free(ctx->rows);
	ctx->rows = NULL;
	for (size_t k = 0; k < ctx->ninputs; k++)
		if (ctx->sums[k].header)
			csv_free(&ctx->sums[k]);
}
