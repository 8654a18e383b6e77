// SPDX-License-Identifier: MIT
/*
 * checkset.c - reading the cases `bench check` compares, and writing the
 * compact baseline file meant to be committed.
 *
 * A baseline file is CSV with one row per case: the identifying columns,
 * then `runs, median_ns, wall_ns_samples, rel_samples, syscalls,
 * syscall_counts`. The sample columns hold the per-run values separated by
 * spaces (what the rank test needs, absolute and normalised to the in-run
 * memcpy reference); syscall_counts holds `name=count` pairs separated by
 * spaces. One case per line keeps the file small and its diffs readable.
 */
#include "checkset.h"
#include "columns.h"
#include "stats.h"
#include "csv.h"
#include "workload.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------ cases -- */

static bool case_same(const struct checkset_case *a, const char *const *id)
{
	for (size_t i = 0; i < COL_NIDS; i++)
		if (strcmp(a->id[i], id[i]))
			return false;
	return true;
}

struct checkset_case *checkset_find(const struct checkset *s,
				    const struct checkset_case *c)
{
	for (size_t i = 0; i < s->n; i++)
		if (case_same(&s->c[i], (const char *const *)c->id))
			return &s->c[i];
	return NULL;
}

/* The case with these identifying values, added when new; NULL on ENOMEM. */
static struct checkset_case *case_get(struct checkset *s, const char *const *id)
{
	struct checkset_case *c;

	for (size_t i = 0; i < s->n; i++)
		if (case_same(&s->c[i], id))
			return &s->c[i];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct checkset_case *p = realloc(s->c, cap * sizeof(*p));

		if (!p)
			return NULL;
		s->c = p;
		s->cap = cap;
	}
	c = &s->c[s->n];
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < COL_NIDS; i++) {
		c->id[i] = strdup(id[i]);
		if (!c->id[i]) {
			while (i--)
				free(c->id[i]);
			return NULL;
		}
	}
	s->n++;
	return c;
}

static int case_add_run(struct checkset_case *c, unsigned rep, double wall,
			double rel)
{
	if (c->nruns == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		unsigned *r = realloc(c->rep, cap * sizeof(*r));
		double *w, *l;

		if (!r)
			return -ENOMEM;
		c->rep = r;
		w = realloc(c->wall, cap * sizeof(*w));
		if (!w)
			return -ENOMEM;
		c->wall = w;
		l = realloc(c->rel, cap * sizeof(*l));
		if (!l)
			return -ENOMEM;
		c->rel = l;
		c->cap = cap;
	}
	c->rep[c->nruns] = rep;
	c->wall[c->nruns] = wall;
	c->rel[c->nruns] = rel;
	c->nruns++;
	return 0;
}

static int case_set_count(struct checkset_case *c, const char *name,
			  uint64_t count)
{
	struct checkset_count *p;

	if (strcmp(name, "total") == 0) {
		c->has_total = true;
		c->total = count;
		return 0;
	}
	for (size_t i = 0; i < c->ncounts; i++) {
		if (strcmp(c->counts[i].name, name) == 0) {
			c->counts[i].count = count;
			return 0;
		}
	}
	p = realloc(c->counts, (c->ncounts + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	c->counts = p;
	p[c->ncounts].name = strdup(name);
	if (!p[c->ncounts].name)
		return -ENOMEM;
	p[c->ncounts++].count = count;
	return 0;
}

bool checkset_is_limit(const struct checkset_case *c)
{
	const struct workload *wl = workload_find(c->id[CID_WORKLOAD]);

	return wl && (wl->flags & WORKLOAD_LIMITS);
}

bool checkset_is_memcpy(const struct checkset_case *c)
{
	const struct workload_variant *v;

	if (!checkset_is_limit(c))
		return false;
	v = workload_variant_find(workload_find(c->id[CID_WORKLOAD]), c->id[CID_STRATEGY]);
	return v && v->bounds == LIMIT_MEMCPY;
}

static void case_free(struct checkset_case *c)
{
	for (size_t i = 0; i < COL_NIDS; i++)
		free(c->id[i]);
	for (size_t i = 0; i < c->ncounts; i++)
		free(c->counts[i].name);
	free(c->counts);
	free(c->rep);
	free(c->wall);
	free(c->rel);
}

void checkset_free(struct checkset *s)
{
	for (size_t i = 0; i < s->n; i++)
		case_free(&s->c[i]);
	free(s->c);
	memset(s, 0, sizeof(*s));
}

/* --------------------------------------------------------- numbers -- */

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

static int parse_time(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -EINVAL;
	*out = strtod(s, &end);
	return *end || !isfinite(*out) || *out <= 0 ? -EINVAL : 0;
}

static void format_bytes(const char *bytes, char *out, size_t n)
{
	static const char units[] = "KMGT";
	uint64_t v;
	int u = -1;

	if (parse_u64(bytes, &v) || v == 0) {
		snprintf(out, n, "%s", bytes);
		return;
	}
	while (u < 3 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(out, n, "%" PRIu64, v);
	else
		snprintf(out, n, "%" PRIu64 "%c", v, units[u]);
}

void checkset_label(const struct checkset_case *c, char *out, size_t n)
{
	char size[32], buf[32];
	size_t len;

	format_bytes(c->id[CID_SIZE], size, sizeof(size));
	format_bytes(c->id[CID_BUFFER], buf, sizeof(buf));
	len = (size_t)snprintf(out, n, "%s/%s %s %s", c->id[CID_WORKLOAD],
			       c->id[CID_STRATEGY], c->id[CID_DATASET], size);
	if (len < n && strcmp(c->id[CID_BUFFER], "0"))
		len += (size_t)snprintf(out + len, n - len, " buf %s", buf);
	if (len < n)
		len += (size_t)snprintf(out + len, n - len, " %s", c->id[CID_CACHE]);
	if (len < n && strcmp(c->id[CID_BATCH], "0"))
		len += (size_t)snprintf(out + len, n - len, " batch %s", c->id[CID_BATCH]);
	if (len < n && strcmp(c->id[CID_PART], "0")) {
		format_bytes(c->id[CID_PART], buf, sizeof(buf));
		len += (size_t)snprintf(out + len, n - len, " part %s", buf);
	}
	if (len < n && strcmp(c->id[CID_FSYNC], "1") == 0)
		snprintf(out + len, n - len, " fsync");
}

/* ---------------------------------------------------------- tables -- */

/* Column indexes of the identifying columns; -EINVAL naming a missing one. */
static int table_ids(const struct csv_table *t, const char *path,
		     int *idc, char *why, size_t n)
{
	for (size_t i = 0; i < COL_NIDS; i++) {
		idc[i] = csv_col(t, columns_id(i)->name);
		if (idc[i] < 0) {
			snprintf(why, n, "%s: no column '%s'", path, columns_id(i)->name);
			return -EINVAL;
		}
	}
	return 0;
}

static void row_ids(const struct csv_table *t, size_t row, const int *idc,
		    const char **id)
{
	for (size_t i = 0; i < COL_NIDS; i++)
		id[i] = csv_cell(t, row, (size_t)idc[i]);
}

/* A run that did not produce the right output does not count. */
static bool run_verified(const struct csv_table *t, size_t row, int col)
{
	const char *v = col < 0 ? "1" : csv_cell(t, row, (size_t)col);

	return strcmp(v, "0") && strcmp(v, "false");
}

static int load_run_row(struct checkset *s, const struct csv_table *t,
			size_t row, const int *idc, const int *col,
			const char *path, char *why, size_t n)
{
	const char *id[COL_NIDS], *wall_s = csv_cell(t, row, (size_t)col[1]);
	const char *rep_s = csv_cell(t, row, (size_t)col[0]);
	struct checkset_case *c;
	uint64_t rep, total;
	double wall;

	row_ids(t, row, idc, id);
	c = case_get(s, id);
	if (!c)
		return -ENOMEM;
	if (col[3] >= 0 && *csv_cell(t, row, (size_t)col[3])) {
		if (parse_u64(csv_cell(t, row, (size_t)col[3]), &total))
			goto bad;
		c->has_total = true;
		c->total = total;
	}
	if (!*wall_s || !run_verified(t, row, col[2]))
		return 0;
	if (parse_u64(rep_s, &rep) || rep > UINT_MAX || parse_time(wall_s, &wall))
		goto bad;
	return case_add_run(c, (unsigned)rep, wall, NAN);
bad:
	snprintf(why, n, "%s: line %zu: bad rep, wall_ns or syscalls value", path, row + 2);
	return -EINVAL;
}

static int load_runs(struct checkset *s, const struct csv_table *t,
		     const char *path, char *why, size_t n)
{
	int idc[COL_NIDS], col[4], err;

	err = table_ids(t, path, idc, why, n);
	if (err)
		return err;
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
	int idc[COL_NIDS], name_c, count_c, err;

	err = table_ids(t, path, idc, why, n);
	if (err)
		return err;
	name_c = columns_csv_col(t, COLFILE_SYSCALLS, "syscall");
	count_c = columns_csv_col(t, COLFILE_SYSCALLS, "count");
	if (name_c < 0 || count_c < 0) {
		snprintf(why, n, "%s: no columns 'syscall' and 'count'", path);
		return -EINVAL;
	}
	for (size_t row = 0; row < t->nrows; row++) {
		const char *id[COL_NIDS];
		const char *cnt = csv_cell(t, row, (size_t)count_c);
		struct checkset_case *c;
		uint64_t v;

		if (!*cnt)	/* counting was unavailable for the case */
			continue;
		if (parse_u64(cnt, &v)) {
			snprintf(why, n, "%s: line %zu: bad count '%s'", path, row + 2, cnt);
			return -EINVAL;
		}
		row_ids(t, row, idc, id);
		c = case_get(s, id);
		if (!c || case_set_count(c, csv_cell(t, row, (size_t)name_c), v))
			return -ENOMEM;
	}
	return 0;
}

/* ------------------------------------------------------ baseline in -- */

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

		if (parse_time(wt, &wall) ||
		    (want_rel && (!rt || parse_time(rt, &rel))))
			err = -EINVAL;
		else
			err = case_add_run(c, rep, wall, rel);
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

		if (!eq || eq == tok || parse_u64(eq + 1, &v)) {
			err = -EINVAL;
			break;
		}
		*eq = '\0';
		err = case_set_count(c, tok, v);
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

	row_ids(t, row, idc, id);
	c = case_get(s, id);
	if (!c)
		return -ENOMEM;
	if (c->nruns)
		return -EINVAL;	/* the same case twice */
	err = baseline_samples(c, csv_cell(t, row, (size_t)col[BL_SAMPLES]),
			       csv_cell(t, row, (size_t)col[BL_REL]));
	if (!err && *total) {
		err = parse_u64(total, &c->total);
		c->has_total = !err;
	}
	if (!err)
		err = baseline_counts(c, csv_cell(t, row, (size_t)col[BL_COUNTS]));
	return err;
}

static int load_baseline(struct checkset *s, const struct csv_table *t,
			 const char *path, char *why, size_t n)
{
	int idc[COL_NIDS], col[BL_NCOLS], err;

	err = table_ids(t, path, idc, why, n);
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

/* ------------------------------------------------------- reference -- */

/*
 * The in-run reference of a case: the median wall time of all the run's
 * `limit/memcpy` runs of the same size (those of the same dataset when there
 * are any). One figure per run: pairing each rep with its own memcpy run
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

			if (!checkset_is_memcpy(r) ||
			    strcmp(r->id[CID_SIZE], c->id[CID_SIZE]) ||
			    (same_ds && strcmp(r->id[CID_DATASET], c->id[CID_DATASET])))
				continue;
			for (size_t k = 0; k < r->nruns && nv < 256; k++)
				v[nv++] = r->wall[k];
		}
	}
	return sample_median(v, nv);
}

/* Divides every run of every non-limit case by its in-run reference. */
static void normalise(struct checkset *s)
{
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
	if (csv_col(t, "wall_ns_samples") >= 0)
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
		err = load_baseline(s, &t, path, why, n);
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
	char runs[PATH_MAX], sys[PATH_MAX];
	enum file_kind kind;
	int err = 0;

	snprintf(runs, sizeof(runs), "%s/runs.csv", dir);
	snprintf(sys, sizeof(sys), "%s/syscalls.csv", dir);
	if (!is_file(runs) && !is_file(sys)) {
		snprintf(why, n, "%s: no runs.csv or syscalls.csv in this folder", dir);
		return -ENOENT;
	}
	if (is_file(runs))
		err = load_file(s, runs, &kind, why, n);
	if (!err && is_file(sys))
		err = load_file(s, sys, &kind, why, n);
	if (!err)
		normalise(s);
	return err;
}

int checkset_load(struct checkset *s, const char *path, char *why, size_t n)
{
	struct stat st;
	enum file_kind kind;
	char sys[PATH_MAX];
	const char *slash;
	int err;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st)) {
		snprintf(why, n, "%s: %s", path, strerror(errno));
		return -errno;
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
	if (!err)
		normalise(s);
out:
	if (err)
		checkset_free(s);
	return err;
}

/* ------------------------------------------------------ baseline out -- */

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
		csv_dbl(w, sample_median(c->wall, c->nruns), 0);
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
	char *cell = malloc(cellsz);
	int err;

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
