// SPDX-License-Identifier: MIT
/*
 * plot_slice.c - the slices of `bench plot`'s rows that the charts show
 * (plot_internal.h says how one is chosen): picking a slice, the rows in it,
 * their orders, the fastest row of each strategy, and a slice's words in a
 * title. Loading the rows is plot_data.c's.
 */
#include "plot_internal.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool plot_str_match(const char *want, const char *have)
{
	return !want || strcmp(want, have) == 0;
}

bool plot_in_slice(const struct plot_row *r, const struct plot_slice *s)
{
	return r->ok && (!s->by_env || r->env == s->env) &&
	       plot_str_match(s->workload, r->workload) &&
	       plot_str_match(s->dataset, r->dataset) &&
	       plot_str_match(s->cache, r->cache) &&
	       (!s->size || s->size == r->size);
}

size_t plot_count(const struct plot_ctx *ctx, const struct plot_slice *s)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->nrows; i++)
		n += plot_in_slice(&ctx->rows[i], s);
	return n;
}

static bool plot_is_default_workload(const char *name)
{
	const struct workload *wl = workload_find(name);

	return wl && (wl->flags & WORKLOAD_DEFAULT);
}

/*
 * The workload the single-panel charts show: the one bench runs when none is
 * named (WORKLOAD_DEFAULT) when it ran, else the first that succeeded.
 */
const char *plot_main_workload(const struct plot_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nrows; i++)
		if (ctx->rows[i].ok && plot_is_default_workload(ctx->rows[i].workload))
			return ctx->rows[i].workload;
	for (size_t i = 0; i < ctx->nrows; i++)
		if (ctx->rows[i].ok)
			return ctx->rows[i].workload;
	return NULL;
}

/* Within s, the dataset with the most successful cases. */
const char *plot_main_dataset(const struct plot_ctx *ctx,
				     const struct plot_slice *s)
{
	const char *best = NULL;
	size_t best_n = 0;

	for (size_t i = 0; i < ctx->nrows; i++) {
		struct plot_slice t = *s;
		size_t n;

		if (!plot_in_slice(&ctx->rows[i], s))
			continue;
		t.dataset = ctx->rows[i].dataset;
		n = plot_count(ctx, &t);
		if (n > best_n) {
			best = t.dataset;
			best_n = n;
		}
	}
	return best;
}

/* A slice of trees whose rows share one shape (files, bytes each) says so:
 * its title names "500 x 4K", as the table does, not the total. */
static void plot_slice_shape(const struct plot_ctx *ctx, struct plot_slice *s)
{
	for (size_t i = 0; i < ctx->nrows; i++) {
		const struct plot_row *r = &ctx->rows[i];
		uint64_t each = r->file_size ? strtoull(r->file_size, NULL, 10) : 0;

		if (!plot_in_slice(r, s))
			continue;
		if (!r->files || !each || (s->files && (s->files != r->files || s->file_bytes != each))) {
			s->files = s->file_bytes = 0;
			return;
		}
		s->files = r->files;
		s->file_bytes = each;
	}
}

/* How many environments have a row of slice s. */
static size_t plot_envs_in(const struct plot_ctx *ctx, const struct plot_slice *s)
{
	size_t n = 0;

	for (size_t e = 0; e < ctx->nenvs; e++) {
		struct plot_slice es = *s;

		es.by_env = true;
		es.env = e;
		n += plot_count(ctx, &es) > 0;
	}
	return n;
}

/*
 * The slice of `workload` charts compare strategies in: cache `cache` when it
 * was run (else any that was), the size the most environments ran (of those
 * the largest), the most measured dataset. false when the workload has no
 * successful case.
 */
bool plot_pick_slice(const struct plot_ctx *ctx, const char *workload,
			    const char *cache, struct plot_slice *s)
{
	*s = (struct plot_slice){ .workload = workload, .cache = cache };
	if (!plot_count(ctx, s))
		s->cache = NULL;
	for (size_t i = 0; i < ctx->nrows; i++)
		if (plot_in_slice(&ctx->rows[i], s) && !s->cache)
			s->cache = ctx->rows[i].cache;
	if (!s->cache)
		return false;
	for (size_t i = 0, most = 0; i < ctx->nrows; i++) {
		struct plot_slice at = { .workload = workload, .cache = s->cache,
					 .size = ctx->rows[i].size };
		size_t envs;

		if (!plot_in_slice(&ctx->rows[i], &at) || at.size == s->size)
			continue;
		envs = plot_envs_in(ctx, &at);
		if (envs > most || (envs == most && at.size > s->size)) {
			s->size = at.size;
			most = envs;
		}
	}
	s->dataset = plot_main_dataset(ctx, s);
	plot_slice_shape(ctx, s);
	return true;
}

/* The rows of slice s (and of strategy, unless NULL), in file order. */
size_t plot_select(const struct plot_ctx *ctx, const struct plot_slice *s,
			  const char *strategy, const struct plot_row **out)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->nrows; i++)
		if (plot_in_slice(&ctx->rows[i], s) &&
		    plot_str_match(strategy, ctx->rows[i].strategy))
			out[n++] = &ctx->rows[i];
	return n;
}

int plot_cmp_median(const void *a, const void *b)
{
	const struct plot_row *x = *(const struct plot_row *const *)a;
	const struct plot_row *y = *(const struct plot_row *const *)b;

	return (x->median_ns > y->median_ns) - (x->median_ns < y->median_ns);
}

int plot_cmp_buffer(const void *a, const void *b)
{
	const struct plot_row *x = *(const struct plot_row *const *)a;
	const struct plot_row *y = *(const struct plot_row *const *)b;

	return (x->buffer > y->buffer) - (x->buffer < y->buffer);
}

int plot_cmp_size(const void *a, const void *b)
{
	const struct plot_row *x = *(const struct plot_row *const *)a;
	const struct plot_row *y = *(const struct plot_row *const *)b;

	return (x->size > y->size) - (x->size < y->size);
}

/*
 * Keeps the fastest of the rows that share key (buffer or size) after sorting
 * by it with cmp. Returns the new count.
 */
size_t plot_dedupe(const struct plot_row **v, size_t n,
			  int (*cmp)(const void *, const void *))
{
	size_t k = 0;

	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 0; i < n; i++) {
		if (k && cmp(&v[k - 1], &v[i]) == 0) {
			if (v[i]->median_ns < v[k - 1]->median_ns)
				v[k - 1] = v[i];
			continue;
		}
		v[k++] = v[i];
	}
	return k;
}

/* The fastest row of each strategy in s, fastest first. */
size_t plot_best_rows(const struct plot_ctx *ctx, const struct plot_slice *s,
			     const struct plot_row **out)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->nrows; i++) {
		const struct plot_row *r = &ctx->rows[i];
		size_t j;

		if (!plot_in_slice(r, s))
			continue;
		for (j = 0; j < n && strcmp(out[j]->strategy, r->strategy); j++)
			;
		if (j == n)
			out[n++] = r;
		else if (r->median_ns < out[j]->median_ns)
			out[j] = r;
	}
	qsort(out, n, sizeof(*out), plot_cmp_median);
	return n;
}

/* True when row i is the first in the file with this workload and strategy. */
bool plot_first_strategy(const struct plot_ctx *ctx, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(ctx->rows[j].workload, ctx->rows[i].workload) &&
		    !strcmp(ctx->rows[j].strategy, ctx->rows[i].strategy))
			return false;
	return true;
}

/* True when row i is the first in the file with this workload. */
bool plot_first_workload(const struct plot_ctx *ctx, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(ctx->rows[j].workload, ctx->rows[i].workload))
			return false;
	return true;
}

/* "copy, 64M random, warm cache" */
void plot_slice_text(const struct plot_slice *s, char *out, size_t n)
{
	char size[64] = "", each[24], ds[64], wl[64], cache[64];

	if (s->files && s->file_bytes) {
		plot_size_label(s->file_bytes, each, sizeof(each));
		snprintf(size, sizeof(size), "%llu x %s", (unsigned long long)s->files, each);
	} else if (s->size) {
		plot_size_label(s->size, size, sizeof(size));
	}
	plot_clean(s->workload, wl, sizeof(wl));
	plot_clean(s->dataset ? s->dataset : "any", ds, sizeof(ds));
	plot_clean(s->cache, cache, sizeof(cache));
	snprintf(out, n, "%s, %s%s%s data%s%s%s", wl, size, size[0] ? " " : "", ds,
		 cache[0] ? ", " : "", cache, cache[0] ? " cache" : "");
}
