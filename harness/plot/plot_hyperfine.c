// SPDX-License-Identifier: MIT
/*
 * plot_hyperfine.c - the chart of hyperfine's exports (hyperfine-warm.csv,
 * hyperfine-cold.csv, written by tools/hyperfine-compare.sh): the mean and
 * standard deviation of each command, warm and cold side by side.
 */
#include "plot_internal.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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
long chart_hyperfine(struct plot_ctx *ctx, struct chart_out *out)
{
	struct csv_table t[2] = { { 0 }, { 0 } };
	bool have[2];
	int w, c;
	long ret = -1;

	w = hf_read(ctx, "warm", &t[0]);
	c = hf_read(ctx, "cold", &t[1]);
	if (w < 0 || c < 0)
		goto out_free_tables;
	ret = w || c;
	if (!ret) {
		snprintf(out->why, sizeof(out->why), "no hyperfine-warm.csv or hyperfine-cold.csv (run tools/hyperfine-compare.sh)");
		goto out_free_tables;
	}
	have[0] = w > 0;
	have[1] = c > 0;
	hf_write_rows(out->f, t, have);
	plot_var_title(&out->vars, ctx, "Whole-process copies timed by hyperfine", NULL);
	plot_var_str(&out->vars, "states", have[0] && have[1] ? "warm cold" : have[0] ? "warm" : "cold");
out_free_tables:
	if (w > 0)
		csv_free(&t[0]);
	if (c > 0)
		csv_free(&t[1]);
	return ret;
}
