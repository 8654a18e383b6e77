// SPDX-License-Identifier: MIT
/*
 * run_dry.c - `bench --dry-run` (run.h: run_dry_run): the run's own checks,
 * then the cases, the datasets, the disk space and an estimated duration
 * printed; nothing is run and nothing kept.
 */
#include "run_internal.h"
#include "lib/fsinfo.h"
#include "lib/units.h"
#include "run/budget.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/*
 * --dry-run's estimate, from the rates of estimate.h (measured here when an
 * earlier run left results, else the defaults): each case's unmeasured runs
 * (the counting run is the first warm-up) and its measured runs, and the
 * datasets made at DRY_GEN_RATE. With a budget: the minimum, up to the
 * budget when it is larger; without one: the adaptive count between its
 * least and most, OPTIONS_RUNS_TIME_S of measured time capping the most.
 */

static unsigned dry_unmeasured(const struct bench_opts *o)
{
	return o->warmup ? o->warmup : o->syscount != SYSCOUNT_OFF;
}

/* The least and most measured runs case c gets: with a budget, the
 * minimum, and as many more as the time the minimum leaves would buy it. */
static void dry_runs(const struct runner *r, double t, double minimum, unsigned *least,
		     unsigned *most)
{
	const struct bench_opts *o = r->o;
	double extra;

	if (o->repeat) {
		*least = *most = o->repeat;
		return;
	}
	if (o->budget_s <= 0) {
		*least = OPTIONS_RUNS_MIN < o->max_runs ? OPTIONS_RUNS_MIN : o->max_runs;
		*most = t * o->max_runs > OPTIONS_RUNS_TIME_S && t > 0 ?
			(unsigned)(OPTIONS_RUNS_TIME_S / t) : o->max_runs;
		*most = *most < *least ? *least : *most;
		return;
	}
	*least = BUDGET_MIN_RUNS < o->max_runs ? BUDGET_MIN_RUNS : o->max_runs;
	extra = budget_left_s(o->budget_s, minimum, 0);
	extra = extra > 0 && t > 0 ? extra / t : 0;
	*most = extra > o->max_runs - *least ? o->max_runs : *least + (unsigned)extra;
}

static void dry_estimate(const struct runner *r, double *lo, double *hi)
{
	const struct bench_opts *o = r->o;
	double minimum = o->budget_s > 0 ? runner_budget_minimum_s(r) : 0;
	uint64_t to_make, biggest;

	run_space_needed(r, &to_make, &biggest);
	*lo = *hi = (double)to_make / DRY_GEN_RATE;
	if (o->budget_s > 0 && !o->repeat) {	/* the budget is the invocation's */
		*lo += minimum;
		*hi = *lo > o->budget_s ? *lo : o->budget_s;
		return;
	}
	*lo += estimate_finish_s(&r->est, 0, 0) + (o->syscount != SYSCOUNT_OFF ? ESTIMATE_COUNTERS_S : 0);
	*hi = *lo;
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		double t = estimate_run_s(&r->est, c);
		unsigned least, most;

		if (c->state == CASE_UNAVAILABLE)
			continue;
		if (runner_keeps_output(r, c))
			t += estimate_remove_s(&r->est, c->spec.files);
		dry_runs(r, t, 0, &least, &most);
		*lo += (dry_unmeasured(o) + estimate_runs(&r->est, c, least)) * t;
		*hi += (dry_unmeasured(o) + estimate_runs(&r->est, c, most)) * t;
	}
}

static void dry_duration(double s, char *out, size_t n)
{
	if (s < 90)
		snprintf(out, n, "%.0f s", s < 1 ? 1 : s);
	else if (s < 5400)
		snprintf(out, n, "%.1f min", s / 60);
	else
		snprintf(out, n, "%.1f h", s / 3600);
}

static void dry_print_cases(const struct runner *r)
{
	double minimum = r->o->budget_s > 0 ? runner_budget_minimum_s(r) : 0;

	printf("%-10s %-20s %12s %8s %6s %-5s %7s %7s %s\n", "workload", "strategy", "size", "buffer",
	       "batch", "cache", "s/run", "runs", "state");
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		char size[32], buf[32] = "-", batch[16] = "-", runs[24] = "-", cost[16] = "-";
		double t = estimate_run_s(&r->est, c);
		unsigned least, most;

		if (c->spec.files)	/* a tree: "500 x 4K", as the table says */
			dataset_size_name(c->spec.ds, size, sizeof(size));
		else
			format_size(c->spec.size, size, sizeof(size));
		if (c->spec.buffer)
			format_size(c->spec.buffer, buf, sizeof(buf));
		if (c->spec.channel)
			snprintf(batch, sizeof(batch), "%u", c->spec.batch_lines);
		if (c->state != CASE_UNAVAILABLE) {
			dry_runs(r, t, minimum, &least, &most);
			snprintf(runs, sizeof(runs), least == most ? "%u" : "%u-%u", least, most);
			snprintf(cost, sizeof(cost), "%.2f", t);
		}
		printf("%-10s %-20s %12s %8s %6s %-5s %7s %7s %s%s%s\n", c->spec.wl->name, c->spec.variant,
		       size, buf, batch, cache_mode_name(c->cache), cost, runs,
		       c->state == CASE_UNAVAILABLE ? "unavailable: " : "will run",
		       c->state == CASE_UNAVAILABLE ? c->why : "",
		       c->state != CASE_UNAVAILABLE && c->spec.command ?
		       " (a command: its form for the source, a file's or a tree's, is chosen when it runs)" : "");
	}
}

/* The rates the estimate is made of, and where they come from. */
static void dry_print_rates(const struct runner *r)
{
	const struct estimate *e = &r->est;

	printf("rates (a run's whole cost, its work around the clock included):");
	for (size_t i = 0; i < e->nrates; i++) {
		const struct estimate_rate *x = &e->rates[i];

		if (x->files_per_s > 0)
			printf(" %s %.0f files/s%s", x->workload, x->files_per_s,
			       x->runs ? "" : " (default)");
		else
			printf(" %s %.0f MiB/s%s", x->workload, x->mib_per_s,
			       x->runs ? "" : " (default)");
		if (x->retried > 0)
			printf(" (%.0f%% of its runs disturbed and run again)", 100 * x->retried);
		putchar(i + 1 < e->nrates ? ',' : '\n');
	}
	if (e->from[0])
		printf("  measured from the runs of %s\n", e->from);
	else
		printf("  the defaults: no earlier results of this host under results/ (docs/budget.md)\n");
}

static void dry_print_needs(const struct runner *r)
{
	uint64_t to_make, biggest, have = run_dir_free(r->o->dir);
	char a[64], b[32], c[32], lo_s[32], hi_s[32];
	double lo, hi;

	printf("\ndatasets in %s:\n", r->o->dir);
	for (size_t i = 0; i < r->ndatasets; i++) {
		const struct dataset *d = &r->datasets[i];
		char name[PATH_MAX];
		uint64_t one = 0, big;

		dataset_file_name(d, name, sizeof(name));
		dataset_size_name(d, a, sizeof(a));
		if (d->kind != DATASET_FILE && d->kind != DATASET_DIR) {
			struct runner one_r = *r;

			one_r.datasets = (struct dataset *)d;
			one_r.ndatasets = 1;
			run_space_needed(&one_r, &one, &big);
		}
		printf("  %-40s %8s  %s\n",
		       d->kind == DATASET_FILE || d->kind == DATASET_DIR ? d->path : name, a,
		       d->kind == DATASET_FILE ? "your file (--source)" :
		       d->kind == DATASET_DIR ? "your folder (--source)" : one ? "to make" : "made already");
	}
	run_space_needed(r, &to_make, &biggest);
	run_approx_size(to_make + biggest + (16u << 20), a, sizeof(a));
	run_approx_size(have, b, sizeof(b));
	run_approx_size(to_make, c, sizeof(c));
	printf("\ndisk: about %s needed in %s (%s of datasets to make, one output at a time), %s free%s\n",
	       a, r->o->dir, c, have == UINT64_MAX ? "unknown" : b,
	       have < to_make + biggest + (16u << 20) ? ": NOT ENOUGH" : "");
	dry_estimate(r, &lo, &hi);
	if (r->o->fs.n) {
		printf("filesystems: every case on each of %zu (--fs; made as root in --dir, sized from the plan)\n",
		       r->o->fs.n);
		lo *= (double)r->o->fs.n;
		hi *= (double)r->o->fs.n;
	}
	dry_duration(lo, lo_s, sizeof(lo_s));
	dry_duration(hi, hi_s, sizeof(hi_s));
	dry_print_rates(r);
	if (r->o->budget_s > 0 && !r->o->repeat && !strcmp(lo_s, hi_s))
		printf("estimated duration: about %s: the minimum of every case, more than the budget of %.0f s\n",
		       lo_s, r->o->budget_s);
	else if (!strcmp(lo_s, hi_s))
		printf("estimated duration: about %s\n", lo_s);
	else
		printf("estimated duration: %s to %s%s\n", lo_s, hi_s,
		       r->o->budget_s > 0 && !r->o->repeat ? " (the minimum of every case, then the budget)" : "");
}

/* --dry-run: parse and plan, print the cases and what the run needs; run
 * and keep nothing (a --dir made to probe in is removed again). */
int run_dry_run(struct runner *r)
{
	char made[PATH_MAX], runs[160];
	int ret = run_preflight(r, made, sizeof(made));

	if (ret)
		return ret;
	run_runs_per_case(r->o, runs, sizeof(runs));
	printf("bench: dry run, nothing is run: %zu cases, each %s\n\n", r->ncases, runs);
	dry_print_cases(r);
	dry_print_needs(r);
	fs_unmake_dirs(r->o->dir, made);
	return 0;
}

