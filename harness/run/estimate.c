// SPDX-License-Identifier: MIT
/*
 * estimate.c - the time a run takes, from rates per workload (estimate.h).
 * The default rates are this project's 2-vCPU VM's at 200M, warm
 * (docs/budget.md: `bench --all --size 200M`'s runs); a measured rate
 * replaces them.
 */
#include "estimate.h"

#include "lib/csv.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024.0 * 1024.0)
/* A run's cost that no byte explains: fork, exec of a checker, fsyncs.
 * `bench --size 4M` on the 2-vCPU VM: 150 runs of 4 MiB in 2.0 s, 13 ms a
 * run with its copy (docs/budget.md). */
#define ESTIMATE_RUN_OVERHEAD_S 0.01

static const struct estimate_rate defaults[] = {
	{ "copy", 850, 0, 0, 0 },
	{ "split", 700, 0, 0, 0 },
	{ "transform", 620, 0, 0, 0 },
	{ "tree", 0, 10000, 0, 0 },
	{ "limit", 900, 0, 0, 0 },
	{ "copy/cold", 700, 0, 0, 0 },
	{ "split/cold", 575, 0, 0, 0 },
	{ "transform/cold", 510, 0, 0, 0 },
	{ "tree/cold", 0, 10000, 0, 0 },
	{ "limit/cold", 770, 0, 0, 0 },
};

void estimate_init(struct estimate *e)
{
	memset(e, 0, sizeof(*e));
	memcpy(e->rates, defaults, sizeof(defaults));
	e->nrates = sizeof(defaults) / sizeof(defaults[0]);
}

const struct estimate_rate *estimate_rate_of(const struct estimate *e, const char *wl)
{
	for (size_t i = 0; i < e->nrates; i++)
		if (!strcmp(e->rates[i].workload, wl))
			return &e->rates[i];
	return &defaults[0];
}

/* The name of a case's rate: its workload's, cold runs apart (they read
 * the disk and drop caches: docs/budget.md). */
static const char *case_rate_name(const struct bench_case *c, char *name, size_t n)
{
	snprintf(name, n, "%s%s", c->spec.wl->name, c->cache == CACHE_COLD ? "/cold" : "");
	return name;
}

static const struct estimate_rate *rate_of_case(const struct estimate *e,
						const struct bench_case *c)
{
	char name[48];

	return estimate_rate_of(e, case_rate_name(c, name, sizeof(name)));
}

static const struct estimate_sized *sized_of(const struct estimate *e, const char *name,
					     uint64_t size, uint64_t files)
{
	for (size_t i = 0; i < e->nsized; i++)
		if (e->sized[i].size == size && e->sized[i].files == files &&
		    !strcmp(e->sized[i].workload, name))
			return &e->sized[i];
	return NULL;
}

double estimate_run_s(const struct estimate *e, const struct bench_case *c)
{
	const struct estimate_rate *r = rate_of_case(e, c);
	char name[48];
	const struct estimate_sized *z = sized_of(e, case_rate_name(c, name, sizeof(name)),
						  c->spec.size, c->spec.files);

	if (z)
		return z->run_s;

	if (c->spec.files && r->files_per_s > 0)
		return ESTIMATE_RUN_OVERHEAD_S + (double)c->spec.files / r->files_per_s;
	return ESTIMATE_RUN_OVERHEAD_S + (double)c->spec.size / MIB / r->mib_per_s;
}

double estimate_runs(const struct estimate *e, const struct bench_case *c, unsigned measured)
{
	double share = rate_of_case(e, c)->retried;

	if (share > ESTIMATE_RETRIED_MAX)
		share = ESTIMATE_RETRIED_MAX;
	return share > 0 ? measured / (1 - share) : measured;
}

double estimate_remove_s(const struct estimate *e, uint64_t files)
{
	(void)e;
	return (double)files / ESTIMATE_REMOVE_PER_S + ESTIMATE_REMOVE_OUTPUT_S;
}

double estimate_finish_s(const struct estimate *e, uint64_t kept_files, uint64_t kept_outputs)
{
	(void)e;
	return ESTIMATE_FINISH_S + (double)kept_files / ESTIMATE_REMOVE_PER_S +
	       (double)kept_outputs * ESTIMATE_REMOVE_OUTPUT_S;
}

/* What runs.csv's runs of one workload added up to. */
struct learned {
	char workload[32];
	double bytes, files, cost_s;
	size_t runs, retried;
};

static struct learned *learned_of(struct learned *l, size_t *n, const char *wl)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(l[i].workload, wl))
			return &l[i];
	if (*n == ESTIMATE_WORKLOADS)
		return NULL;
	snprintf(l[*n].workload, sizeof(l[*n].workload), "%.31s", wl);
	return &l[(*n)++];
}

/* The row of runs.csv whose seq is seq + 1, or -1: rows are in case order,
 * so look them all up once, by seq. */
static ssize_t *rows_by_seq(const struct csv_table *t, int col_seq, uint64_t *most)
{
	ssize_t *by;

	*most = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		uint64_t s = strtoull(csv_cell(t, i, (size_t)col_seq), NULL, 10);

		if (s > *most && s < 10000000)
			*most = s;
	}
	by = malloc((*most + 2) * sizeof(*by));
	if (!by)
		return NULL;
	for (uint64_t s = 0; s <= *most + 1; s++)
		by[s] = -1;
	for (size_t i = 0; i < t->nrows; i++) {
		uint64_t s = strtoull(csv_cell(t, i, (size_t)col_seq), NULL, 10);

		if (s <= *most)
			by[s] = (ssize_t)i;
	}
	return by;
}

/* A workload's measured rate in place of its default (only_new: not in
 * place of one measured already). */
static void estimate_set(struct estimate *e, const struct learned *l, bool only_new)
{
	double net = l->cost_s - (double)l->runs * ESTIMATE_RUN_OVERHEAD_S;
	struct estimate_rate *r = NULL;

	if (!l->runs || !(net > 0))
		return;
	for (size_t i = 0; i < e->nrates && !r; i++)
		if (!strcmp(e->rates[i].workload, l->workload))
			r = &e->rates[i];
	if (only_new && r && r->runs)
		return;
	if (!r && e->nrates == ESTIMATE_WORKLOADS)
		return;
	if (!r) {
		r = &e->rates[e->nrates++];
		snprintf(r->workload, sizeof(r->workload), "%.31s", l->workload);
	}
	r->mib_per_s = l->bytes / MIB / net;
	r->files_per_s = l->files > 0 ? l->files / net : 0;
	r->runs = l->runs;
	r->retried = (double)l->retried / (double)l->runs;
}

/* The rate's name of row i: its workload, "/cold" added for a cold run. */
static const char *learned_name(const struct csv_table *t, size_t i, const int *col,
				char *out, size_t n)
{
	const char *wl = csv_cell(t, i, (size_t)col[0]);
	bool cold = col[5] >= 0 && !strcmp(csv_cell(t, i, (size_t)col[5]), "cold");

	snprintf(out, n, "%.31s%s", wl, cold ? "/cold" : "");
	return out;
}

/* Runs of one workload and size, added up (learn_rows). */
static void add_sized(struct estimate_sized *z, size_t *n, const char *name, uint64_t size,
		      uint64_t files, double cost)
{
	size_t k = 0;

	while (k < *n && (z[k].size != size || z[k].files != files || strcmp(z[k].workload, name)))
		k++;
	if (k == *n) {
		if (*n == ESTIMATE_SIZED)
			return;
		memset(&z[k], 0, sizeof(z[k]));
		snprintf(z[k].workload, sizeof(z[k].workload), "%s", name);
		z[k].size = size;
		z[k].files = files;
		(*n)++;
	}
	z[k].run_s += cost;	/* the sum until set_sized divides it */
	z[k].runs++;
}

/* The sizes learned into e (only_new: not in place of one it has). */
static void set_sized(struct estimate *e, struct estimate_sized *z, size_t n, bool only_new)
{
	for (size_t k = 0; k < n; k++) {
		struct estimate_sized *have =
			(struct estimate_sized *)sized_of(e, z[k].workload, z[k].size, z[k].files);

		z[k].run_s /= (double)z[k].runs;
		if (have && !only_new)
			*have = z[k];
		else if (!have && e->nsized < ESTIMATE_SIZED)
			e->sized[e->nsized++] = z[k];
	}
}

static void learn_rows(struct estimate *e, const struct csv_table *t, const int *col,
		       bool only_new)
{
	struct estimate_sized z[ESTIMATE_SIZED];
	size_t nz = 0;
	struct learned l[ESTIMATE_WORKLOADS];
	uint64_t most;
	ssize_t *by = rows_by_seq(t, col[3], &most);
	size_t n = 0;

	if (!by)
		return;
	memset(l, 0, sizeof(l));
	for (uint64_t s = 1; s < most; s++) {
		ssize_t i = by[s], j = by[s + 1];
		struct learned *w;
		char name[48];
		double cost;

		if (i < 0 || j < 0)
			continue;
		cost = (strtod(csv_cell(t, (size_t)j, (size_t)col[4]), NULL) -
			strtod(csv_cell(t, (size_t)i, (size_t)col[4]), NULL)) / 1e9;
		w = learned_of(l, &n, learned_name(t, (size_t)i, col, name, sizeof(name)));
		if (!w || !(cost > 0))
			continue;
		w->bytes += strtod(csv_cell(t, (size_t)i, (size_t)col[1]), NULL);
		w->files += strtod(csv_cell(t, (size_t)i, (size_t)col[2]), NULL);
		add_sized(z, &nz, name, strtoull(csv_cell(t, (size_t)i, (size_t)col[1]), NULL, 10),
			  strtoull(csv_cell(t, (size_t)i, (size_t)col[2]), NULL, 10), cost);
		w->cost_s += cost;
		w->runs++;
		w->retried += col[6] >= 0 && !strcmp(csv_cell(t, (size_t)i, (size_t)col[6]), "1");
	}
	free(by);
	for (size_t k = 0; k < n; k++)
		estimate_set(e, &l[k], only_new);
	set_sized(e, z, nz, only_new);
}

static int learn_file(struct estimate *e, const char *runs_csv, bool only_new)
{
	static const char *const names[] = { "workload", "size_bytes", "files", "seq", "start_ns" };
	struct csv_table t;
	char why[256];
	int col[7], err = csv_read(runs_csv, &t, why, sizeof(why));

	if (err)
		return err;
	col[5] = csv_col(&t, "cache");	/* optional: warm when absent */
	col[6] = csv_col(&t, "retried");	/* optional: none run again */
	for (size_t k = 0; k < 5; k++) {
		col[k] = csv_col(&t, names[k]);
		if (col[k] < 0) {
			csv_free(&t);
			return -EINVAL;
		}
	}
	learn_rows(e, &t, col, only_new);
	csv_free(&t);
	return 0;
}

int estimate_learn(struct estimate *e, const char *runs_csv)
{
	int err = learn_file(e, runs_csv, false);

	if (!err)
		snprintf(e->from, sizeof(e->from), "%s", runs_csv);
	return err;
}

/* Is name a results folder of host (<stamp>-<host>) with a runs.csv? */
static bool results_of_host(const char *root, const char *name, const char *host)
{
	size_t len = strlen(name), hl = strlen(host);
	char path[4096];

	if (len <= hl + 1 || strcmp(name + len - hl, host) || name[len - hl - 1] != '-')
		return false;
	snprintf(path, sizeof(path), "%s/%s/runs.csv", root, name);
	return access(path, R_OK) == 0;
}

static int newest_first(const void *a, const void *b)
{
	return strcmp(*(char *const *)b, *(char *const *)a);
}

/* The results folders of host under root, newest first, into *names
 * (the caller frees each and the array); how many. */
static size_t host_results(const char *root, const char *host, char ***names)
{
	DIR *d = opendir(root);
	struct dirent *de;
	size_t n = 0, cap = 0;
	char **v = NULL, **grown;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!results_of_host(root, de->d_name, host))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			grown = realloc(v, cap * sizeof(*v));
			if (!grown)
				break;
			v = grown;
		}
		v[n] = strdup(de->d_name);
		n += v[n] != NULL;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), newest_first);
	*names = v;
	return n;
}

/* How many workloads have a measured rate. */
static size_t measured_rates(const struct estimate *e)
{
	size_t n = 0;

	for (size_t i = 0; i < e->nrates; i++)
		n += e->rates[i].runs > 0;
	return n;
}

size_t estimate_learn_recent(struct estimate *e, const char *root, const char *host,
			     size_t folders)
{
	char **names = NULL, path[4096];
	size_t n = host_results(root, host, &names), used = 0, older = 0;

	for (size_t i = 0; i < n; i++) {
		size_t before = measured_rates(e);

		if (i < folders) {
			snprintf(path, sizeof(path), "%s/%s/runs.csv", root, names[i]);
			if (!learn_file(e, path, true) && measured_rates(e) > before) {
				if (!used++)
					snprintf(e->from, sizeof(e->from), "%.*s", (int)sizeof(e->from) - 1, path);
				else
					older++;
			}
		}
		free(names[i]);
	}
	free(names);
	if (older) {
		size_t len = strlen(e->from);

		snprintf(e->from + len, sizeof(e->from) - len,
			 " and, for the workloads it lacks, %zu older result folder%s", older,
			 older == 1 ? "" : "s");
	}
	return used;
}

bool estimate_latest_results(const char *root, const char *host, char *out, size_t n)
{
	char **names = NULL;
	size_t count = host_results(root, host, &names);

	if (count)
		snprintf(out, n, "%s/%s/runs.csv", root, names[0]);
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return count > 0;
}
