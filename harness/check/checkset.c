// SPDX-License-Identifier: MIT
/*
 * checkset.c - the cases `bench check` compares: finding and adding a case,
 * its runs and counts, its label, and the helpers that read a case's
 * identity from a table. Reading them from files is checkset_load.c's job
 * (baseline files: checkset_baseline.c), both above this file.
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

/* ------------------------------------------------------------ cases -- */

static const char *const env_columns[CHECKSET_NENV] = {
	[CHECKSET_HOST] = "host", [CHECKSET_KERNEL] = "kernel", [CHECKSET_FS] = "fs_type",
	[CHECKSET_CPU] = "cpu_model",
};

static bool ids_same(const struct checkset_case *a, const char *const *id)
{
	for (size_t i = 0; i < COL_NIDS; i++)
		if (strcmp(a->id[i], id[i]))
			return false;
	return true;
}

/* Within one set: the same case in the same environment. */
static bool case_same(const struct checkset_case *a, const char *const *id,
		      const char *const *env)
{
	for (size_t j = 0; j < CHECKSET_NENV; j++)
		if (strcmp(a->env[j], env[j]))
			return false;
	return ids_same(a, id);
}

struct checkset_case *checkset_find(const struct checkset *s,
				    const struct checkset_case *c)
{
	unsigned mask = s->env_varies | c->env_varies;

	for (size_t i = 0; i < s->n; i++) {
		const struct checkset_case *x = &s->c[i];
		size_t j = 0;

		while (j < CHECKSET_NENV && (!(mask & (1u << j)) || !*x->env[j] || !*c->env[j] ||
					     !strcmp(x->env[j], c->env[j])))
			j++;
		if (j == CHECKSET_NENV && ids_same(x, (const char *const *)c->id))
			return &s->c[i];
	}
	return NULL;
}

bool checkset_counts_vary(const struct checkset_case *c)
{
	const struct workload *wl = workload_find(c->id[CID_WORKLOAD]);
	const struct copy_strategy *s = strategy_find(c->id[CID_STRATEGY]);

	return (wl && (wl->flags & WORKLOAD_MULTI_CPU)) ||
	       (s && (s->flags & STRATEGY_MULTI_CPU));
}

static void case_free(struct checkset_case *c);

/* The case with these identifying values, added when new; NULL on ENOMEM. */
struct checkset_case *checkset_case_get_env(struct checkset *s, const char *const *id,
					    const char *const *env)
{
	static const char *const none[CHECKSET_NENV] = { "", "", "", "" };
	struct checkset_case *c;

	if (!env)
		env = none;
	for (size_t i = 0; i < s->n; i++)
		if (case_same(&s->c[i], id, env))
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
	for (size_t i = 0; i < COL_NIDS; i++)
		if (!(c->id[i] = strdup(id[i])))
			goto out_free;
	for (size_t j = 0; j < CHECKSET_NENV; j++)
		if (!(c->env[j] = strdup(env[j])))
			goto out_free;
	s->n++;
	return c;
out_free:
	case_free(c);
	return NULL;
}

struct checkset_case *checkset_case_get(struct checkset *s, const char *const *id)
{
	return checkset_case_get_env(s, id, NULL);
}

int checkset_add_run(struct checkset_case *c, unsigned rep, double wall, double rel)
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

int checkset_set_count(struct checkset_case *c, const char *name, uint64_t count)
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
	return v && (v->flags & VARIANT_REFERENCE);
}

static void case_free(struct checkset_case *c)
{
	for (size_t i = 0; i < COL_NIDS; i++)
		free(c->id[i]);
	for (size_t j = 0; j < CHECKSET_NENV; j++)
		free(c->env[j]);
	for (size_t i = 0; i < c->ncounts; i++)
		free(c->counts[i].name);
	free(c->counts);
	free(c->rep);
	free(c->wall);
	free(c->rel);
	free(c->status);
}

void checkset_free(struct checkset *s)
{
	for (size_t i = 0; i < s->n; i++)
		case_free(&s->c[i]);
	free(s->c);
	memset(s, 0, sizeof(*s));
}

/* --------------------------------------------------------- numbers -- */

int checkset_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

int checkset_parse_time(const char *s, double *out)
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

	if (checkset_parse_u64(bytes, &v) || v == 0) {
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
		len += (size_t)snprintf(out + len, n - len, " fsync");
	if (len < n && strcmp(c->id[CID_THREADS], "0"))
		len += (size_t)snprintf(out + len, n - len, " threads %s", c->id[CID_THREADS]);
	if (len < n && strcmp(c->id[CID_QUEUE_DEPTH], "0"))
		len += (size_t)snprintf(out + len, n - len, " qd %s", c->id[CID_QUEUE_DEPTH]);
	if (len < n && strcmp(c->id[CID_FILES], "0")) {
		if (strcmp(c->id[CID_FILE_SIZE], "src"))
			format_bytes(c->id[CID_FILE_SIZE], buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "src");
		len += (size_t)snprintf(out + len, n - len, " %s x %s", c->id[CID_FILES], buf);
	}
	if (len < n && *c->id[CID_COMMAND])
		len += (size_t)snprintf(out + len, n - len, " `%s`", c->id[CID_COMMAND]);
	for (size_t j = 0, k = 0; j < CHECKSET_NENV && len < n; j++)
		if ((c->env_varies & (1u << j)) && *c->env[j])
			len += (size_t)snprintf(out + len, n - len, "%s%s", k++ ? ", " : " on ",
						c->env[j]);
}

/* ---------------------------------------------------------- tables -- */

/* Column indexes of the identifying columns; -EINVAL naming a missing one. */
int checkset_table_ids(const struct csv_table *t, const char *path, int *idc,
		       char *why, size_t n)
{
	for (size_t i = 0; i < COL_NIDS; i++) {
		idc[i] = csv_col(t, columns_id(i)->name);
		if (idc[i] < 0 && i >= COL_NIDS_FIRST)
			continue;	/* an older file: columns_id_absent() */
		if (idc[i] < 0) {
			snprintf(why, n, "%s: no column '%s'", path, columns_id(i)->name);
			return -EINVAL;
		}
	}
	return 0;
}

void checkset_row_ids(const struct csv_table *t, size_t row, const int *idc,
		      const char **id)
{
	for (size_t i = 0; i < COL_NIDS; i++)
		id[i] = idc[i] < 0 ? columns_id_absent(i) : csv_cell(t, row, (size_t)idc[i]);
}

void checkset_table_env(const struct csv_table *t, enum col_file f, int *envc)
{
	for (size_t j = 0; j < CHECKSET_NENV; j++)
		envc[j] = columns_csv_col(t, f, env_columns[j]);
}

void checkset_row_env(const struct csv_table *t, size_t row, const int *envc,
		      const char **env)
{
	for (size_t j = 0; j < CHECKSET_NENV; j++)
		env[j] = envc[j] < 0 ? "" : csv_cell(t, row, (size_t)envc[j]);
}

/* A flag column of a row: true unless "0" or "false"; dflt without the column. */

bool checkset_failed(const struct checkset_case *c)
{
	return c->status && strncmp(c->status, "failed", 6) == 0;
}
