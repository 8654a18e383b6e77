// SPDX-License-Identifier: MIT
/*
 * history_series.c - the history as `plot` and `changes` see it: the runs of
 * one class (host, kernel, filesystem and build: those of the latest run,
 * on the branch asked for), their commits in the order they were first
 * added, and per case and commit the median of its runs' medians with the
 * fastest and slowest rep, and its level: the median of its runs' fastest
 * reps (the figure `check` judges, history_check.c says why). Each run
 * weighs the same in a commit however many reps it has. Clones (class `clone`) are left out: their time is no
 * copy speed.
 */
#include "history_internal.h"
#include "lib/stats.h"

#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void history_env_text(const struct history_env *e, char *out, size_t n)
{
	/* only what is known: a build type older results lack is left out */
	snprintf(out, n, "host %s, Linux %s, %s%s%s%s", e->host, e->kernel, e->fs_type,
		 e->build_type[0] ? ", " : "", e->build_type, e->build_type[0] ? " build" : "");
}

void history_bind_class(sqlite3_stmt *st, const struct history_env *e, const char *branch)
{
	static const char *const names[] = { ":host", ":kernel", ":fs", ":build" };
	const char *v[] = { e->host, e->kernel, e->fs_type, e->build_type };

	for (size_t i = 0; i < 4; i++) {
		int k = sqlite3_bind_parameter_index(st, names[i]);

		if (k)
			sqlite3_bind_text(st, k, v[i], -1, SQLITE_TRANSIENT);
	}
	if (sqlite3_bind_parameter_index(st, ":branch") && branch)
		sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":branch"), branch,
				  -1, SQLITE_TRANSIENT);
}

static void column_copy(sqlite3_stmt *st, int col, char *out, size_t n)
{
	const unsigned char *s = sqlite3_column_text(st, col);

	snprintf(out, n, "%s", s ? (const char *)s : "");
}

int history_latest_class(struct history_db *h, const char *branch,
			 struct history_env *e, const struct history_io *io)
{
	sqlite3_stmt *st = history_db_prepare(h,
		"SELECT id, host, kernel, fs_type, cpu_model, build_type FROM run r"
		" WHERE (:branch IS NULL OR r.branch = :branch) ORDER BY id DESC LIMIT 1", io);
	int64_t id = 0;

	if (!st)
		return -1;
	history_bind_class(st, e, branch);
	if (sqlite3_step(st) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		column_copy(st, 1, e->host, sizeof(e->host));
		column_copy(st, 2, e->kernel, sizeof(e->kernel));
		column_copy(st, 3, e->fs_type, sizeof(e->fs_type));
		column_copy(st, 4, e->cpu_model, sizeof(e->cpu_model));
		column_copy(st, 5, e->build_type, sizeof(e->build_type));
	}
	sqlite3_finalize(st);
	if (!id && branch)
		fprintf(io->err, "%s: %s: no runs of branch %s in the history\n", io->who, h->path, branch);
	else if (!id)
		fprintf(io->err, "%s: %s: no runs in the history\n", io->who, h->path);
	return id ? 0 : -1;
}

/* ----------------------------------------------------------- commits -- */

static int load_counts(struct history_db *h, const char *branch, struct history_set *s,
		       const struct history_io *io)
{
	sqlite3_stmt *st = history_db_prepare(h,
		"SELECT COUNT(*), COALESCE(SUM(" HISTORY_CLASS_WHERE "), 0) FROM run r", io);

	if (!st)
		return -1;
	history_bind_class(st, &s->env, branch);
	if (sqlite3_step(st) == SQLITE_ROW) {
		s->nruns = (size_t)sqlite3_column_int64(st, 1);
		s->nother = (size_t)sqlite3_column_int64(st, 0) - s->nruns;
	}
	sqlite3_finalize(st);
	return 0;
}

static int load_commits(struct history_db *h, const char *branch, struct history_set *s,
			const struct history_io *io)
{
	sqlite3_stmt *st = history_db_prepare(h,
		"SELECT commit_sha, MIN(id), MIN(started_utc) FROM run r WHERE "
		HISTORY_CLASS_WHERE " GROUP BY commit_sha ORDER BY MIN(id)", io);
	size_t cap = 0;

	if (!st)
		return -1;
	history_bind_class(st, &s->env, branch);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct history_commit *c;

		if (s->ncommits == cap) {
			cap = cap ? 2 * cap : 64;
			c = realloc(s->commits, cap * sizeof(*c));
			if (!c)
				goto out_nomem;
			s->commits = c;
		}
		c = &s->commits[s->ncommits++];
		column_copy(st, 0, c->sha, sizeof(c->sha));
		c->first_run = sqlite3_column_int64(st, 1);
		column_copy(st, 2, c->date, sizeof(c->date));
		c->date[10] = '\0';
	}
	sqlite3_finalize(st);
	return 0;
out_nomem:
	sqlite3_finalize(st);
	return -1;
}

/* The commit whose first run is first (commits are sorted by it). */
static size_t commit_index(const struct history_set *s, int64_t first)
{
	size_t lo = 0, hi = s->ncommits;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->commits[mid].first_run <= first)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* ------------------------------------------------------------ series -- */

/*
 * The series of the case in the row's columns 4.. into *out (NULL when the
 * glob leaves it out). 0 or -ENOMEM.
 */
static int series_new(struct history_set *s, sqlite3_stmt *st,
		      const struct history_filter *f, size_t *cap,
		      struct history_series **out)
{
	struct checkset_case c = { 0 };
	struct history_series *se;
	char label[192];

	*out = NULL;
	for (int i = 0; i < COL_NIDS; i++)
		c.id[i] = (char *)sqlite3_column_text(st, 4 + i);
	checkset_label(&c, label, sizeof(label));
	if (f->case_glob && fnmatch(f->case_glob, label, 0))
		return 0;
	if (s->nseries == *cap) {
		size_t ncap = *cap ? 2 * *cap : 32;

		se = realloc(s->series, ncap * sizeof(*se));
		if (!se)
			return -ENOMEM;
		s->series = se;
		*cap = ncap;
	}
	se = &s->series[s->nseries];
	memset(se, 0, sizeof(*se));
	snprintf(se->label, sizeof(se->label), "%s", label);
	snprintf(se->workload, sizeof(se->workload), "%s", c.id[CID_WORKLOAD]);
	se->size = strtoull(c.id[CID_SIZE], NULL, 10);
	se->median_ns = malloc(s->ncommits * sizeof(double));
	se->min_ns = malloc(s->ncommits * sizeof(double));
	se->max_ns = malloc(s->ncommits * sizeof(double));
	se->level_ns = malloc(s->ncommits * sizeof(double));
	s->nseries++;	/* history_set_free frees what was allocated */
	if (!se->median_ns || !se->min_ns || !se->max_ns || !se->level_ns)
		return -ENOMEM;
	for (size_t k = 0; k < s->ncommits; k++)
		se->median_ns[k] = se->min_ns[k] = se->max_ns[k] = se->level_ns[k] = NAN;
	*out = se;
	return 0;
}

/* Samples of one run, then the run medians and fastest reps of one commit. */
struct series_acc {
	double *run, *med, *fast;
	size_t nrun, nmed, nfast;
	size_t runcap, medcap, fastcap;
	double lo, hi;
};

static int acc_push(double **v, size_t *n, size_t *cap, double x)
{
	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 64;
		double *p = realloc(*v, ncap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		*v = p;
		*cap = ncap;
	}
	(*v)[(*n)++] = x;
	return 0;
}

/* Folds one run into its commit. */
static int acc_end_run(struct series_acc *a)
{
	double fastest = INFINITY;

	if (!a->nrun)
		return 0;
	for (size_t i = 0; i < a->nrun; i++)
		fastest = fmin(fastest, a->run[i]);
	if (acc_push(&a->med, &a->nmed, &a->medcap, stats_sample_median(a->run, a->nrun)) ||
	    acc_push(&a->fast, &a->nfast, &a->fastcap, fastest))
		return -ENOMEM;
	a->nrun = 0;
	return 0;
}

/* Stores a commit's figures into the series. */
static void acc_end_commit(struct series_acc *a, struct history_series *se, size_t k)
{
	if (se && a->nmed) {
		se->median_ns[k] = stats_sample_median(a->med, a->nmed);
		se->level_ns[k] = stats_sample_median(a->fast, a->nfast);
		se->min_ns[k] = a->lo;
		se->max_ns[k] = a->hi;
		se->npoints++;
	}
	a->nmed = a->nfast = 0;
	a->lo = INFINITY;
	a->hi = -INFINITY;
}

static const char series_sql[] =
	"WITH c AS (SELECT commit_sha, MIN(id) AS first FROM run r WHERE "
	HISTORY_CLASS_WHERE " GROUP BY commit_sha)"
	" SELECT s.case_id, c.first, s.run_id, s.wall_ns, " HISTORY_CASE_COLS_B
	" FROM sample s JOIN run r ON r.id = s.run_id JOIN c ON c.commit_sha = r.commit_sha"
	" JOIN bcase b ON b.id = s.case_id"
	" LEFT JOIN outcome o ON o.run_id = s.run_id AND o.case_id = s.case_id"
	" WHERE " HISTORY_CLASS_WHERE " AND COALESCE(o.class, '') <> 'clone'"
	" ORDER BY b.workload, s.case_id, c.first, s.run_id";

/* Walks the samples (by case, commit, run) into series. */
static int load_series(struct history_db *h, const struct history_filter *f,
		       struct history_set *s, const struct history_io *io)
{
	struct series_acc a = { .lo = INFINITY, .hi = -INFINITY };
	struct history_series *se = NULL;
	int64_t cur_case = -1, cur_first = -1, cur_run = -1;
	size_t cap = 0;
	sqlite3_stmt *st = history_db_prepare(h, series_sql, io);
	int err = 0;

	if (!st)
		return -1;
	history_bind_class(st, &s->env, f->branch);
	while (!err && sqlite3_step(st) == SQLITE_ROW) {
		int64_t cid = sqlite3_column_int64(st, 0), first = sqlite3_column_int64(st, 1);
		int64_t run = sqlite3_column_int64(st, 2);
		double wall = sqlite3_column_double(st, 3);

		if (run != cur_run || first != cur_first || cid != cur_case)
			err = acc_end_run(&a);
		if (first != cur_first || cid != cur_case)
			acc_end_commit(&a, se, commit_index(s, cur_first));
		if (!err && cid != cur_case)
			err = series_new(s, st, f, &cap, &se);
		cur_case = cid;
		cur_first = first;
		cur_run = run;
		a.lo = fmin(a.lo, wall);
		a.hi = fmax(a.hi, wall);
		if (!err)
			err = acc_push(&a.run, &a.nrun, &a.runcap, wall);
	}
	if (!err)
		err = acc_end_run(&a);
	acc_end_commit(&a, se, commit_index(s, cur_first));
	sqlite3_finalize(st);
	free(a.run);
	free(a.med);
	free(a.fast);
	return err ? -1 : 0;
}

int history_set_load(struct history_db *h, const struct history_filter *f,
		     struct history_set *s, const struct history_io *io)
{
	memset(s, 0, sizeof(*s));
	if (history_latest_class(h, f->branch, &s->env, io))
		return -1;
	if (load_counts(h, f->branch, s, io) || load_commits(h, f->branch, s, io) ||
	    load_series(h, f, s, io)) {
		history_set_free(s);
		fprintf(io->err, "%s: %s: reading the history failed\n", io->who, h->path);
		return -1;
	}
	return 0;
}

void history_set_free(struct history_set *s)
{
	for (size_t i = 0; i < s->nseries; i++) {
		free(s->series[i].median_ns);
		free(s->series[i].min_ns);
		free(s->series[i].max_ns);
		free(s->series[i].level_ns);
	}
	free(s->series);
	free(s->commits);
	memset(s, 0, sizeof(*s));
}
