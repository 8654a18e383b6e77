// SPDX-License-Identifier: MIT
/*
 * checkset_load.c - reading the cases `bench check` compares from a results
 * folder, a runs.csv, a syscalls.csv or a baseline file (checkset_baseline.c),
 * and dividing every run by the in-run memcpy reference.
 */
#include "checkset.h"
#include "checkset_internal.h"
#include "lib/csv.h"
#include "lib/stats.h"
#include "results/columns.h"
#include "workloads/workload.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool row_flag(const struct csv_table *t, size_t row, int col, bool dflt)
{
	const char *v;

	if (col < 0)
		return dflt;
	v = csv_cell(t, row, (size_t)col);
	return strcmp(v, "0") && strcmp(v, "false");
}

static int load_run_row(struct checkset *s, const struct csv_table *t,
			size_t row, const int *idc, const int *col,
			const char *path, char *why, size_t n)
{
	const char *id[COL_NIDS], *wall_s = csv_cell(t, row, (size_t)col[1]);
	const char *rep_s = csv_cell(t, row, (size_t)col[0]), *env[CHECKSET_NENV];
	struct checkset_case *c;
	uint64_t rep, total;
	double wall;

	checkset_row_ids(t, row, idc, id);
	checkset_row_env(t, row, col + 5, env);
	c = checkset_case_get_env(s, id, env);
	if (!c)
		return -ENOMEM;
	if (col[3] >= 0 && *csv_cell(t, row, (size_t)col[3])) {
		if (checkset_parse_u64(csv_cell(t, row, (size_t)col[3]), &total))
			goto bad;
		c->has_total = true;
		c->total = total;
	}
	/* a run that did not produce the right output, or that was run again
	 * because an outside cause disturbed it, does not count */
	if (!*wall_s || !row_flag(t, row, col[2], true) || row_flag(t, row, col[4], false))
		return 0;
	if (checkset_parse_u64(rep_s, &rep) || rep > UINT_MAX || checkset_parse_time(wall_s, &wall))
		goto bad;
	return checkset_add_run(c, (unsigned)rep, wall, NAN);
bad:
	snprintf(why, n, "%s: line %zu: bad rep, wall_ns or syscalls value", path, row + 2);
	return -EINVAL;
}

static int load_runs(struct checkset *s, const struct csv_table *t,
		     const char *path, char *why, size_t n)
{
	int idc[COL_NIDS], col[5 + CHECKSET_NENV], err;

	err = checkset_table_ids(t, path, idc, why, n);
	if (err)
		return err;
	col[4] = columns_csv_col(t, COLFILE_RUNS, "retried");
	checkset_table_env(t, COLFILE_RUNS, col + 5);
	col[0] = columns_csv_col(t, COLFILE_RUNS, "rep");
	col[1] = columns_csv_col(t, COLFILE_RUNS, "wall_ns");
	col[2] = columns_csv_col(t, COLFILE_RUNS, "verified");
	col[3] = columns_csv_col(t, COLFILE_RUNS, "syscalls");
	for (size_t row = 0; row < t->nrows; row++) {
		err = load_run_row(s, t, row, idc, col, path, why, n);
		if (err)
			return err;
	}
	return 0;
}

static int load_syscalls(struct checkset *s, const struct csv_table *t,
			 const char *path, char *why, size_t n)
{
	int idc[COL_NIDS], envc[CHECKSET_NENV], name_c, count_c, err;

	err = checkset_table_ids(t, path, idc, why, n);
	if (err)
		return err;
	checkset_table_env(t, COLFILE_SYSCALLS, envc);
	name_c = columns_csv_col(t, COLFILE_SYSCALLS, "syscall");
	count_c = columns_csv_col(t, COLFILE_SYSCALLS, "count");
	if (name_c < 0 || count_c < 0) {
		snprintf(why, n, "%s: no columns 'syscall' and 'count'", path);
		return -EINVAL;
	}
	for (size_t row = 0; row < t->nrows; row++) {
		const char *id[COL_NIDS], *env[CHECKSET_NENV];
		const char *cnt = csv_cell(t, row, (size_t)count_c);
		struct checkset_case *c;
		uint64_t v;

		if (!*cnt)	/* counting was unavailable for the case */
			continue;
		if (checkset_parse_u64(cnt, &v)) {
			snprintf(why, n, "%s: line %zu: bad count '%s'", path, row + 2, cnt);
			return -EINVAL;
		}
		checkset_row_ids(t, row, idc, id);
		checkset_row_env(t, row, envc, env);
		c = checkset_case_get_env(s, id, env);
		if (!c || checkset_set_count(c, csv_cell(t, row, (size_t)name_c), v))
			return -ENOMEM;
	}
	return 0;
}

/* summary.csv: each case's status (a case that failed may have no run). */
static int load_status(struct checkset *s, const char *path, char *why, size_t n)
{
	struct csv_table t;
	int idc[COL_NIDS], envc[CHECKSET_NENV], sc, err;

	err = csv_read(path, &t, why, n);
	if (err)
		return err;
	err = checkset_table_ids(&t, path, idc, why, n);
	if (err)
		goto out_free;
	checkset_table_env(&t, COLFILE_SUMMARY, envc);
	sc = columns_csv_col(&t, COLFILE_SUMMARY, "status");
	for (size_t row = 0; sc >= 0 && row < t.nrows && !err; row++) {
		const char *id[COL_NIDS], *env[CHECKSET_NENV];
		struct checkset_case *c;

		checkset_row_ids(&t, row, idc, id);
		checkset_row_env(&t, row, envc, env);
		c = checkset_case_get_env(s, id, env);
		free(c ? c->status : NULL);
		if (!c || !(c->status = strdup(csv_cell(&t, row, (size_t)sc))))
			err = -ENOMEM;
	}
out_free:
	csv_free(&t);
	return err;
}

/* ------------------------------------------------------- reference -- */

static bool same_env(const struct checkset_case *a, const struct checkset_case *b)
{
	for (size_t j = 0; j < CHECKSET_NENV; j++)
		if (strcmp(a->env[j], b->env[j]))
			return false;
	return true;
}

/*
 * The in-run reference of a case: the median wall time of all the run's
 * `limit/memcpy` runs of the same size and environment (those of the same
 * dataset when there are any). One figure per run: pairing each rep with its own memcpy run
 * adds that short run's noise to every sample (seen as p-values of 0.16 for
 * a case 3.5x slower on a loaded machine); the median keeps the machine's
 * level and drops the noise. NAN when there is none.
 */
static double reference_of(const struct checkset *s, const struct checkset_case *c)
{
	double v[256];
	size_t nv = 0;

	for (int same_ds = 1; same_ds >= 0 && nv == 0; same_ds--) {
		for (size_t i = 0; i < s->n; i++) {
			const struct checkset_case *r = &s->c[i];

			if (!checkset_is_memcpy(r) || !same_env(r, c) ||
			    strcmp(r->id[CID_SIZE], c->id[CID_SIZE]) ||
			    (same_ds && strcmp(r->id[CID_DATASET], c->id[CID_DATASET])))
				continue;
			for (size_t k = 0; k < r->nruns && nv < 256; k++)
				v[nv++] = r->wall[k];
		}
	}
	return stats_sample_median(v, nv);
}

/* Which environment columns differ between the cases; each case learns it. */
static void env_varies(struct checkset *s)
{
	s->env_varies = 0;
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = 0; j < CHECKSET_NENV; j++)
			if (strcmp(s->c[i].env[j], s->c[0].env[j]))
				s->env_varies |= 1u << j;
	for (size_t i = 0; i < s->n; i++)
		s->c[i].env_varies = s->env_varies;
}

/* Divides every run of every non-limit case by its in-run reference. */
static void normalise(struct checkset *s)
{
	env_varies(s);
	for (size_t i = 0; i < s->n; i++) {
		struct checkset_case *c = &s->c[i];
		double ref = reference_of(s, c);

		c->rel_ok = !checkset_is_limit(c) && c->nruns > 0 && !isnan(ref);
		for (size_t k = 0; c->rel_ok && k < c->nruns; k++)
			c->rel[k] = c->wall[k] / ref;
	}
}

/* ------------------------------------------------------------ load -- */

enum file_kind { KIND_UNKNOWN, KIND_RUNS, KIND_SYSCALLS, KIND_BASELINE };

static enum file_kind table_kind(const struct csv_table *t)
{
	if (checkset_is_baseline_table(t))
		return KIND_BASELINE;
	if (columns_csv_col(t, COLFILE_RUNS, "rep") >= 0 &&
	    columns_csv_col(t, COLFILE_RUNS, "wall_ns") >= 0)
		return KIND_RUNS;
	if (columns_csv_col(t, COLFILE_SYSCALLS, "syscall") >= 0 &&
	    columns_csv_col(t, COLFILE_SYSCALLS, "count") >= 0)
		return KIND_SYSCALLS;
	return KIND_UNKNOWN;
}

static int load_file(struct checkset *s, const char *path, enum file_kind *kind,
		     char *why, size_t n)
{
	struct csv_table t;
	int err;

	err = csv_read(path, &t, why, n);
	if (err)
		return err;
	*kind = table_kind(&t);
	switch (*kind) {
	case KIND_BASELINE:
		err = checkset_load_baseline(s, &t, path, why, n);
		break;
	case KIND_RUNS:
		err = load_runs(s, &t, path, why, n);
		break;
	case KIND_SYSCALLS:
		err = load_syscalls(s, &t, path, why, n);
		break;
	default:
		snprintf(why, n, "%s: not a runs.csv, syscalls.csv or baseline file", path);
		err = -EINVAL;
	}
	csv_free(&t);
	return err;
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A folder: its runs.csv and syscalls.csv, whichever exist (one must). */
static int load_dir(struct checkset *s, const char *dir, char *why, size_t n)
{
	char runs[PATH_MAX], sys[PATH_MAX], sum[PATH_MAX];
	enum file_kind kind;
	int err = 0;

	snprintf(runs, sizeof(runs), "%s/runs.csv", dir);
	snprintf(sys, sizeof(sys), "%s/syscalls.csv", dir);
	snprintf(sum, sizeof(sum), "%s/summary.csv", dir);
	if (!is_file(runs) && !is_file(sys)) {
		snprintf(why, n, "%s: no runs.csv or syscalls.csv in this folder", dir);
		return -ENOENT;
	}
	if (is_file(runs))
		err = load_file(s, runs, &kind, why, n);
	if (!err && is_file(sys))
		err = load_file(s, sys, &kind, why, n);
	if (!err && is_file(sum))
		err = load_status(s, sum, why, n);
	return err;
}

int checkset_load_more(struct checkset *s, const char *path, char *why, size_t n)
{
	struct stat st;
	enum file_kind kind;
	char sys[PATH_MAX];
	const char *slash;
	int err;

	if (stat(path, &st)) {
		err = -errno;
		snprintf(why, n, "%s: %s", path, strerror(-err));
		goto out;
	}
	if (S_ISDIR(st.st_mode))
		err = load_dir(s, path, why, n);
	else
		err = load_file(s, path, &kind, why, n);
	if (err || S_ISDIR(st.st_mode) || kind != KIND_RUNS)
		goto out;
	/* A runs.csv: the syscalls.csv beside it, when there is one. */
	slash = strrchr(path, '/');
	if (slash)
		snprintf(sys, sizeof(sys), "%.*s/syscalls.csv", (int)(slash - path), path);
	else
		snprintf(sys, sizeof(sys), "syscalls.csv");
	if (is_file(sys))
		err = load_file(s, sys, &kind, why, n);
out:
	if (err)
		checkset_free(s);
	else
		normalise(s);
	return err;
}

int checkset_load(struct checkset *s, const char *path, char *why, size_t n)
{
	memset(s, 0, sizeof(*s));
	return checkset_load_more(s, path, why, n);
}
