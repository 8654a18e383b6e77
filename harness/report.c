// SPDX-License-Identifier: MIT
/*
 * report.c - turn runs into summaries and write them: runs.csv (one row per
 * measured run), summary.csv (one row per case), syscalls.csv (one row per
 * case and syscall), the terminal table and JSON. The columns of the files
 * and of the JSON come from the table in columns.c.
 */
#include "report.h"
#include "columns.h"
#include "csv.h"
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

/* ------------------------------------------------------------ summary -- */

static bool same_group(const struct bench_case *a, const struct bench_case *b)
{
	return a->spec.wl == b->spec.wl && a->spec.ds->kind == b->spec.ds->kind && a->spec.size == b->spec.size &&
	       a->cache == b->cache && a->spec.part_size == b->spec.part_size;
}

/* The limit kind of case c, when it is a limit row; LIMIT_NONE otherwise. */
static enum limit_kind case_limit_kind(const struct bench_case *c)
{
	const struct workload_variant *v;

	if (!(c->spec.wl->flags & WORKLOAD_LIMITS))
		return LIMIT_NONE;
	v = workload_variant_find(c->spec.wl, c->spec.variant);
	return v ? v->bounds : LIMIT_NONE;
}

static double limit_mib_per_s(const struct runner *r, const struct case_summary *sums,
			      const struct bench_case *c)
{
	enum limit_kind bound = c->cache == CACHE_COLD ? LIMIT_DEVICE : LIMIT_MEMCPY;

	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *l = &r->cases[i];

		if (case_limit_kind(l) == bound && l->spec.size == c->spec.size &&
		    l->nruns && sums[i].mib_per_s > 0)
			return sums[i].mib_per_s;
	}
	return -1;
}

void report_summarize(const struct runner *r, struct case_summary *sums)
{
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		double *w = calloc(c->nruns + 1, sizeof(double));
		double *u = calloc(c->nruns + 1, sizeof(double));
		double *s = calloc(c->nruns + 1, sizeof(double));

		memset(&sums[i], 0, sizeof(sums[i]));
		for (size_t k = 0; w && u && s && k < c->nruns; k++) {
			w[k] = (double)c->runs[k].wall_ns;
			u[k] = (double)c->runs[k].user_ns;
			s[k] = (double)c->runs[k].sys_ns;
		}
		if (w && u && s) {
			stats_compute(w, c->nruns, &sums[i].st);
			sums[i].user_ns = stats_median(u, c->nruns);
			sums[i].sys_ns = stats_median(s, c->nruns);
		}
		if (sums[i].st.median > 0)
			sums[i].mib_per_s = (double)c->spec.size / MIB / (sums[i].st.median / 1e9);
		free(w);
		free(u);
		free(s);
	}
	for (size_t i = 0; i < r->ncases; i++) {
		double best = 0;

		for (size_t j = 0; j < r->ncases; j++)
			if (same_group(&r->cases[i], &r->cases[j]) && r->cases[j].nruns &&
			    r->cases[j].state == CASE_OK &&
			    (best == 0 || sums[j].st.median < best))
				best = sums[j].st.median;
		sums[i].ratio = best > 0 && sums[i].st.median > 0 ? sums[i].st.median / best : 0;
		sums[i].pct_of_limit = -1;
		if (sums[i].mib_per_s > 0) {
			double lim = limit_mib_per_s(r, sums, &r->cases[i]);

			if (lim > 0)
				sums[i].pct_of_limit = 100.0 * sums[i].mib_per_s / lim;
		}
	}
}

void report_status(const struct bench_case *c, char *out, size_t n)
{
	switch (c->state) {
	case CASE_UNAVAILABLE:
		snprintf(out, n, "unavailable: %s", c->why);
		break;
	case CASE_FAILED:
		snprintf(out, n, "failed: %s", c->why);
		break;
	default:
		snprintf(out, n, c->nruns ? "ok" : "not run");
	}
}

/* ------------------------------------------------------------ CSV ------ */

static void csv_header(struct csv_writer *w, enum col_file f)
{
	for (size_t i = 0; i < columns_count(f); i++)
		csv_str(w, columns_get(f, i)->name);
	csv_end_row(w);
}

/* One row of file f, every column from the table. */
static void csv_row(struct csv_writer *w, enum col_file f, const struct col_row *x)
{
	struct col_value v;

	for (size_t i = 0; i < columns_count(f); i++) {
		const struct column *col = columns_get(f, i);

		columns_value(col, x, &v);
		columns_csv_cell(w, col, &v);
	}
	csv_end_row(w);
}

static void write_runs(struct csv_writer *w, const struct runner *r)
{
	csv_header(w, COLFILE_RUNS);
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];

		for (size_t k = 0; k < c->nruns; k++)
			csv_row(w, COLFILE_RUNS, &(struct col_row){
				.c = c, .run = &c->runs[k], .env = &r->env });
	}
}

static void write_summary(struct csv_writer *w, const struct runner *r,
			  const struct case_summary *sums)
{
	csv_header(w, COLFILE_SUMMARY);
	for (size_t i = 0; i < r->ncases; i++)
		csv_row(w, COLFILE_SUMMARY, &(struct col_row){
			.c = &r->cases[i], .sum = &sums[i], .env = &r->env });
}

static void write_syscall_row(struct csv_writer *w, const struct runner *r,
			      const struct bench_case *c, const char *name, uint64_t n)
{
	csv_row(w, COLFILE_SYSCALLS, &(struct col_row){
		.c = c, .syscall = name, .count = n, .env = &r->env });
}

static void write_syscalls(struct csv_writer *w, const struct runner *r)
{
	csv_header(w, COLFILE_SYSCALLS);
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];

		if (!c->counts.valid)
			continue;
		for (size_t k = 0; k < syscount_nnames; k++)
			if (c->counts.by_name[k])
				write_syscall_row(w, r, c, syscount_names[k], c->counts.by_name[k]);
		write_syscall_row(w, r, c, "other", c->counts.other);
		write_syscall_row(w, r, c, "total", c->counts.total);
	}
}

static int write_one(const char *dir, const char *name, const struct runner *r,
		     const struct case_summary *sums,
		     void (*fill)(struct csv_writer *, const struct runner *,
				  const struct case_summary *))
{
	struct csv_writer w;
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = csv_open(&w, path);
	if (err)
		return err;
	fill(&w, r, sums);
	if (ferror(w.f)) {
		csv_abort(&w);
		return -EIO;
	}
	return csv_commit(&w);
}

static void fill_runs(struct csv_writer *w, const struct runner *r,
		      const struct case_summary *s)
{
	(void)s;
	write_runs(w, r);
}

static void fill_syscalls(struct csv_writer *w, const struct runner *r,
			  const struct case_summary *s)
{
	(void)s;
	write_syscalls(w, r);
}

int report_write_csv(const struct runner *r, const struct case_summary *sums,
		     const char *dir)
{
	int err = write_one(dir, col_files[COLFILE_RUNS].name, r, sums, fill_runs);

	if (!err)
		err = write_one(dir, col_files[COLFILE_SUMMARY].name, r, sums, write_summary);
	if (!err)
		err = write_one(dir, col_files[COLFILE_SYSCALLS].name, r, sums, fill_syscalls);
	return err;
}

int report_print_csv(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	struct csv_writer w = { .f = f, .first_field = 1 };

	write_summary(&w, r, sums);
	return ferror(f) ? -EIO : 0;
}

/* ------------------------------------------------------------ table ---- */


struct row_ref {
	const struct runner *r;
	const struct case_summary *sums;
	size_t i;
};

static int row_cmp(const void *a, const void *b)
{
	const struct row_ref *x = a, *y = b;
	const struct bench_case *cx = &x->r->cases[x->i], *cy = &y->r->cases[y->i];
	double mx = x->sums[x->i].st.median, my = y->sums[y->i].st.median;
	int okx = cx->state == CASE_OK && cx->nruns, oky = cy->state == CASE_OK && cy->nruns;

	if (okx != oky)
		return oky - okx;
	return (mx > my) - (mx < my);
}

static void print_group_header(FILE *f, const struct bench_case *c)
{
	char size[32], part[32];

	format_size(c->spec.size, size, sizeof(size));
	fprintf(f, "\n%s · %s · %s · %s cache", c->spec.wl->name,
		dataset_kind_name(c->spec.ds->kind), size, cache_mode_name(c->cache));
	if (c->spec.part_size) {
		format_size(c->spec.part_size, part, sizeof(part));
		fprintf(f, " · parts of %s", part);
	}
	fprintf(f, "\n  %-16s %7s %6s %10s %19s %6s %8s %9s %8s %7s %s\n",
		"strategy", "buffer", "batch", "MiB/s", "min-max MiB/s", "CV", "xfastest",
		"syscalls", "per MiB", "%limit", "verified");
}

static void print_row(FILE *f, const struct bench_case *c, const struct case_summary *s)
{
	char buf[32] = "-", sc[32] = "n/a", per[32] = "n/a", lim[16] = "-", batch[16] = "-";
	double lo = s->st.max > 0 ? (double)c->spec.size / MIB / (s->st.max / 1e9) : 0;
	double hi = s->st.min > 0 ? (double)c->spec.size / MIB / (s->st.min / 1e9) : 0;
	char range[40];
	size_t verified = 0;

	for (size_t k = 0; k < c->nruns; k++)
		verified += c->runs[k].verified;
	if (c->spec.buffer)
		format_size(c->spec.buffer, buf, sizeof(buf));
	if (c->spec.channel)
		snprintf(batch, sizeof(batch), c->spec.batch_lines ? "%u" : "buf", c->spec.batch_lines);
	if (c->spec.wl->flags & WORKLOAD_UNCOUNTED) {
		snprintf(sc, sizeof(sc), "-");
		snprintf(per, sizeof(per), "-");
	} else if (c->counts.valid) {
		snprintf(sc, sizeof(sc), "%llu", (unsigned long long)c->counts.total);
		if (c->spec.size)
			snprintf(per, sizeof(per), "%.2f", (double)c->counts.total / ((double)c->spec.size / MIB));
	}
	if (s->pct_of_limit >= 0)
		snprintf(lim, sizeof(lim), "%.0f%%", s->pct_of_limit);
	snprintf(range, sizeof(range), "%.0f-%.0f", lo, hi);
	if (c->state == CASE_FAILED) {
		fprintf(f, "  %-16s %7s %6s FAILED: %s\n", c->spec.variant, buf, batch, c->why);
		return;
	}
	fprintf(f, "  %-16s %7s %6s %10.0f %19s %5.1f%% %7.2fx %9s %8s %7s %zu/%zu%s\n",
		c->spec.variant, buf, batch, s->mib_per_s, range, 100.0 * s->st.cv, s->ratio,
		sc, per, lim, verified, c->nruns,
		c->shared_extents ? "  shared extents: cloned, not a copy speed" : "");
}

static void print_unavailable(FILE *f, const struct runner *r)
{
	bool any = false;

	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		bool seen = false;

		if (c->state != CASE_UNAVAILABLE)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = r->cases[j].state == CASE_UNAVAILABLE && r->cases[j].spec.wl == c->spec.wl &&
			       strcmp(r->cases[j].spec.variant, c->spec.variant) == 0 &&
			       strcmp(r->cases[j].why, c->why) == 0;
		if (seen)
			continue;
		if (!any)
			fprintf(f, "\nunavailable here:\n");
		any = true;
		fprintf(f, "  %-10s %-16s unavailable: %s\n", c->spec.wl->name, c->spec.variant, c->why);
	}
}

void report_print_table(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	struct row_ref *rows = calloc(r->ncases, sizeof(*rows));
	bool *done = calloc(r->ncases, sizeof(*done));

	if (!rows || !done)
		goto out_free;
	fprintf(f, "copybench on %s · %s · %s under test · %s\n", r->env.host,
		r->env.kernel, r->env.fs_type, r->env.cpu_model);
	for (size_t i = 0; i < r->ncases; i++) {
		size_t n = 0;

		if (done[i] || r->cases[i].state == CASE_UNAVAILABLE)
			continue;
		for (size_t j = i; j < r->ncases; j++) {
			if (done[j] || r->cases[j].state == CASE_UNAVAILABLE ||
			    !same_group(&r->cases[i], &r->cases[j]))
				continue;
			done[j] = true;
			rows[n++] = (struct row_ref){ r, sums, j };
		}
		qsort(rows, n, sizeof(*rows), row_cmp);
		print_group_header(f, &r->cases[i]);
		for (size_t k = 0; k < n; k++)
			print_row(f, &r->cases[rows[k].i], &sums[rows[k].i]);
	}
	print_unavailable(f, r);
out_free:
	free(rows);
	free(done);
}

/* ------------------------------------------------------------ JSON ----- */

/* `"name": value` of the columns of summary.csv with role, after sep. */
static void json_columns(FILE *f, enum col_role role, const struct col_row *x,
			 const char *sep)
{
	struct col_value v;

	for (size_t i = 0; i < columns_count(COLFILE_SUMMARY); i++) {
		const struct column *col = columns_get(COLFILE_SUMMARY, i);

		if (col->role != role)
			continue;
		columns_value(col, x, &v);
		fprintf(f, "%s\"%s\": ", sep, col->name);
		columns_json_value(f, col, &v);
		sep = ", ";
	}
}

/* The environment once, then one object per case with its summary columns. */
void report_print_json(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	fputs("{\n  ", f);
	json_columns(f, ROLE_ENV, &(struct col_row){ .env = &r->env }, "");
	fprintf(f, ",\n  \"cases\": [\n");
	for (size_t i = 0; i < r->ncases; i++) {
		const struct col_row x = { .c = &r->cases[i], .sum = &sums[i], .env = &r->env };

		json_columns(f, ROLE_ID, &x, "    {");
		json_columns(f, ROLE_MEASURE, &x, ", ");
		fprintf(f, "}%s\n", i + 1 < r->ncases ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}
