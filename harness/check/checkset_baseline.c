// SPDX-License-Identifier: MIT
/*
 * checkset_baseline.c - the compact baseline file meant to be committed:
 * read as a set of cases, and written from one.
 *
 * A baseline file is CSV with one row per case: the identifying columns,
 * then `runs, median_ns, wall_ns_samples, rel_samples, syscalls,
 * syscall_counts`. The sample columns hold the per-run values separated by
 * spaces (what the rank test needs, absolute and normalised to the in-run
 * memcpy reference); syscall_counts holds `name=count` pairs separated by
 * spaces. One case per line keeps the file small and its diffs readable.
 */
#include "checkset.h"
#include "checkset_internal.h"
#include "lib/csv.h"
#include "lib/stats.h"
#include "results/columns.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- in -- */

enum { BL_SAMPLES, BL_REL, BL_SYSCALLS, BL_COUNTS, BL_NCOLS };
static const char *const baseline_cols[BL_NCOLS] = {
	"wall_ns_samples", "rel_samples", "syscalls", "syscall_counts",
};

/* Space-separated positive numbers into the case's runs. */
static int baseline_samples(struct checkset_case *c, const char *wall_s,
			    const char *rel_s)
{
	char *w = strdup(wall_s), *r = strdup(rel_s), *ws, *rs, *wt, *rt;
	bool want_rel = *rel_s != '\0';
	unsigned rep = 1;
	int err = 0;

	if (!w || !r) {
		err = -ENOMEM;
		goto out_free;
	}
	rt = strtok_r(r, " ", &rs);
	for (wt = strtok_r(w, " ", &ws); !err && wt;
	     wt = strtok_r(NULL, " ", &ws), rep++) {
		double wall, rel = NAN;

		if (checkset_parse_time(wt, &wall) ||
		    (want_rel && (!rt || checkset_parse_time(rt, &rel))))
			err = -EINVAL;
		else
			err = checkset_add_run(c, rep, wall, rel);
		if (rt)
			rt = strtok_r(NULL, " ", &rs);
	}
	if (!err && rt)
		err = -EINVAL;	/* more rel samples than wall samples */
	c->rel_ok = want_rel && c->nruns > 0;
out_free:
	free(w);
	free(r);
	return err;
}

/* "read=12 write=12 other=3" into the case's counts. */
static int baseline_counts(struct checkset_case *c, const char *text)
{
	char *copy = strdup(text), *save, *tok;
	int err = copy ? 0 : -ENOMEM;

	for (tok = copy ? strtok_r(copy, " ", &save) : NULL; !err && tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		uint64_t v;

		if (!eq || eq == tok || checkset_parse_u64(eq + 1, &v)) {
			err = -EINVAL;
			break;
		}
		*eq = '\0';
		err = checkset_set_count(c, tok, v);
	}
	free(copy);
	return err;
}

static int load_baseline_row(struct checkset *s, const struct csv_table *t,
			     size_t row, const int *idc, const int *col)
{
	const char *id[COL_NIDS], *total = csv_cell(t, row, (size_t)col[BL_SYSCALLS]);
	struct checkset_case *c;
	int err;

	checkset_row_ids(t, row, idc, id);
	c = checkset_case_get(s, id);
	if (!c)
		return -ENOMEM;
	if (c->nruns)
		return -EINVAL;	/* the same case twice */
	err = baseline_samples(c, csv_cell(t, row, (size_t)col[BL_SAMPLES]),
			       csv_cell(t, row, (size_t)col[BL_REL]));
	if (!err && *total) {
		err = checkset_parse_u64(total, &c->total);
		c->has_total = !err;
	}
	if (!err)
		err = baseline_counts(c, csv_cell(t, row, (size_t)col[BL_COUNTS]));
	return err;
}

int checkset_load_baseline(struct checkset *s, const struct csv_table *t,
			   const char *path, char *why, size_t n)
{
	int idc[COL_NIDS], col[BL_NCOLS], err;

	err = checkset_table_ids(t, path, idc, why, n);
	if (err)
		return err;
	for (size_t i = 0; i < BL_NCOLS; i++) {
		col[i] = csv_col(t, baseline_cols[i]);
		if (col[i] < 0) {
			snprintf(why, n, "%s: no column '%s'", path, baseline_cols[i]);
			return -EINVAL;
		}
	}
	for (size_t row = 0; row < t->nrows; row++) {
		err = load_baseline_row(s, t, row, idc, col);
		if (err == -EINVAL)
			snprintf(why, n, "%s: line %zu: bad samples or counts (or a repeated case)", path, row + 2);
		if (err)
			return err;
	}
	return 0;
}

bool checkset_is_baseline_table(const struct csv_table *t)
{
	return csv_col(t, baseline_cols[BL_SAMPLES]) >= 0;
}

/* --------------------------------------------------------------- out -- */

/* Values separated by spaces into one cell; false when it did not fit. */
static bool join_samples(const double *v, size_t nv, const char *fmt,
			 char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < nv && len < n; i++)
		len += (size_t)snprintf(out + len, n - len, fmt,
					i ? " " : "", v[i]);
	return len < n;
}

static bool join_counts(const struct checkset_case *c, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < c->ncounts && len < n; i++)
		len += (size_t)snprintf(out + len, n - len, "%s%s=%" PRIu64,
					i ? " " : "", c->counts[i].name,
					c->counts[i].count);
	return len < n;
}

static int save_case(struct csv_writer *w, const struct checkset_case *c,
		     char *cell, size_t cellsz)
{
	for (size_t i = 0; i < COL_NIDS; i++)
		csv_str(w, c->id[i]);
	csv_u64(w, c->nruns);
	if (c->nruns)
		csv_dbl(w, stats_sample_median(c->wall, c->nruns), 0);
	else
		csv_str(w, "");
	if (!join_samples(c->wall, c->nruns, "%s%.0f", cell, cellsz))
		return -E2BIG;
	csv_str(w, cell);
	if (!join_samples(c->rel, c->rel_ok ? c->nruns : 0, "%s%.7g", cell, cellsz))
		return -E2BIG;
	csv_str(w, cell);
	if (c->has_total)
		csv_u64(w, c->total);
	else
		csv_str(w, "");
	if (!join_counts(c, cell, cellsz))
		return -E2BIG;
	csv_str(w, cell);
	csv_end_row(w);
	return 0;
}

int checkset_save(const struct checkset *s, const char *path, char *why,
		  size_t n)
{
	static const char *const extra[] = { "runs", "median_ns" };
	const size_t cellsz = 1 << 20;
	struct csv_writer w;
	char *cell;
	int err;

	if (s->env_varies) {	/* a baseline file has no environment columns */
		snprintf(why, n, "the results hold several machines, kernels or filesystems; save a baseline from the results of one");
		return -EINVAL;
	}
	cell = malloc(cellsz);
	if (!cell)
		return -ENOMEM;
	err = csv_open(&w, path);
	if (err) {
		snprintf(why, n, "%s: %s", path, strerror(-err));
		goto out_free;
	}
	for (size_t i = 0; i < COL_NIDS; i++)
		csv_str(&w, columns_id(i)->name);
	for (size_t i = 0; i < 2; i++)
		csv_str(&w, extra[i]);
	for (size_t i = 0; i < BL_NCOLS; i++)
		csv_str(&w, baseline_cols[i]);
	csv_end_row(&w);
	for (size_t i = 0; i < s->n && !err; i++)
		err = save_case(&w, &s->c[i], cell, cellsz);
	if (err) {
		snprintf(why, n, "%s: a case has too many runs for one cell", path);
		csv_abort(&w);
		goto out_free;
	}
	err = csv_commit(&w);
	if (err)
		snprintf(why, n, "%s: %s", path, strerror(-err));
out_free:
	free(cell);
	return err;
}

