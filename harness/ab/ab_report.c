// SPDX-License-Identifier: MIT
/*
 * ab_report.c - what bench ab says: the table of cases and their verdicts,
 * the summary line with the exit code, what an inconclusive case could
 * resolve, the workers whose own figures disagree with this bench's clock
 * or whose outputs were clones, and every pair in --csv.
 */
#include "ab_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ csv -- */

int ab_open_csv(struct ab_run *r)
{
	if (!r->o->csv)
		return 0;
	r->csv = fopen(r->o->csv, "we");
	if (!r->csv) {
		fprintf(stderr, "bench ab: cannot write %s: %s\n", r->o->csv, strerror(errno));
		return -1;
	}
	fputs("strategy,round,order,a_wall_ns,a_cpu_wait_ns,a_worker_ns,b_wall_ns,b_cpu_wait_ns,b_worker_ns,a_ns,b_ns,log_ratio,verdict\n",
	      r->csv);
	return 0;
}

/* The pairs, each with its case's verdict (empty when not judged). */
void ab_write_csv(const struct ab_run *r, bool judged)
{
	for (size_t i = 0; r->csv && i < r->ncases; i++) {
		const struct ab_case *c = &r->c[i];

		for (size_t k = 0; k < c->n; k++) {
			const struct ab_copy *a = &c->cp[0][k], *b = &c->cp[1][k];

			fprintf(r->csv, "%s,%ld,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.6f,%s\n",
				c->name, labs(c->round[k]), c->round[k] < 0 ? "BA" : "AB",
				a->wall, a->wait, a->own, b->wall, b->wait, b->own, a->ns, b->ns,
				c->logr[k], !judged ? "" : c->failed >= 0 ? "failed" :
				ab_verdict_name(c->v));
		}
	}
}

/* --------------------------------------------------------- report -- */

static void fmt_ns(double ns, char *out, size_t n)
{
	if (isnan(ns))
		snprintf(out, n, "-");
	else if (ns < 1e7)
		snprintf(out, n, "%.1f us", ns / 1e3);
	else
		snprintf(out, n, "%.1f ms", ns / 1e6);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_inplace(double *t, size_t n)
{
	if (!n)
		return NAN;
	qsort(t, n, sizeof(*t), cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* The median over a side's copies of the time compared (own 0), or of
 * the worker's figure over the outside clock's (own 1). */
static double median_of(const struct ab_case *c, int side, bool own)
{
	double *t = malloc((c->n + 1) * sizeof(*t)), m = NAN;

	if (t) {
		for (size_t k = 0; k < c->n; k++)
			t[k] = own ? c->cp[side][k].own / c->cp[side][k].wall : c->cp[side][k].ns;
		m = median_inplace(t, c->n);
	}
	free(t);
	return m;
}

static void ab_row(const struct ab_run *r, const struct ab_case *c, const char *sep)
{
	char a[32], b[32], ratio[32] = "-", ci[48] = "-";

	fmt_ns(median_of(c, 0, false), a, sizeof(a));
	fmt_ns(median_of(c, 1, false), b, sizeof(b));
	if (c->st.n)
		snprintf(ratio, sizeof(ratio), "%+.2f%%", expm1(c->st.shift) * 100);
	if (c->st.judged)
		snprintf(ci, sizeof(ci), "%+.2f%% .. %+.2f%%", expm1(c->st.lo) * 100,
			 expm1(c->st.hi) * 100);
	printf("%s%-18s%s%6zu%s%10s%s%10s%s%9s%s%-20s%s%s%s%s%s\n", r->o->markdown ? "| " : "",
	       c->name, sep, c->n, sep, a, sep, b, sep, ratio, sep, ci, sep,
	       c->failed >= 0 ? "failed" : ab_verdict_name(c->v),
	       c->failed >= 0 ? ": " : "", c->failed >= 0 ? c->why : "",
	       r->o->markdown ? " |" : "");
}

/* Under the table: what each inconclusive case's rounds could resolve. */
static void ab_say_inconclusive(const struct ab_run *r)
{
	for (size_t i = 0; i < r->ncases; i++) {
		const struct ab_case *c = &r->c[i];

		if (c->failed >= 0 || c->v != AB_INCONCLUSIVE)
			continue;
		if (c->st.judged)
			printf("%sbench ab: inconclusive: %s: B/A %+.2f%%, interval %+.2f%% .. %+.2f%%: the smallest change these %zu rounds could resolve is about %.1f%%, the threshold %g%% (more time: --max-time, or more rounds a look: --rounds)\n",
			       r->o->markdown ? "\n" : "", c->name, expm1(c->st.shift) * 100,
			       expm1(c->st.lo) * 100, expm1(c->st.hi) * 100, c->st.n,
			       ab_resolution(&c->st) * 100, r->o->threshold * 100);
		else
			printf("%sbench ab: inconclusive: %s: %zu rounds give no interval\n",
			       r->o->markdown ? "\n" : "", c->name, c->n);
	}
}

/*
 * Under the table: a worker whose own figures disagree with this bench's
 * clock on more than half of a case's copies (ab_agrees: never above it,
 * below it by at most a quarter or 1 ms). The verdict stands on this
 * bench's clock whatever the worker says; a disagreement says that the
 * build's own timing is not to be trusted, or that the trips of the
 * requests dominate.
 */
static void ab_say_disagreement(const struct ab_run *r)
{
	for (size_t i = 0; i < r->ncases; i++) {
		const struct ab_case *c = &r->c[i];

		for (int side = 0; side < 2 && c->n; side++)
			if (c->disagree[side] * 2 > c->n)
				printf("%sbench ab: disagreement: %s: %c's own figures disagree with this bench's clock in %zu of %zu copies (median own/outside %.2f; tolerance: not above it, below it by at most a quarter or 1 ms); the verdict uses this bench's clock\n",
				       r->o->markdown ? "\n" : "", c->name, ab_side_name[side],
				       c->disagree[side], c->n, median_of(c, side, true));
		for (int side = 0; side < 2; side++)
			if (c->shared[side])
				printf("%sbench ab: %s: %c's outputs shared extents with another file after %zu copies (clones, as a bench run marks them)\n",
				       r->o->markdown ? "\n" : "", c->name, ab_side_name[side],
				       c->shared[side]);
	}
}

static void ab_report(const struct ab_run *r, int code, const struct ab_tally *t)
{
	const char *sep = r->o->markdown ? " | " : "  ";

	printf("%s%-18s%s%6s%s%10s%s%10s%s%9s%s%-20s%s%s%s\n", r->o->markdown ? "| " : "", "case",
	       sep, "rounds", sep, "A median", sep, "B median", sep, "B/A", sep, "interval", sep,
	       "verdict", r->o->markdown ? " |" : "");
	if (r->o->markdown)
		puts("| --- | ---: | ---: | ---: | ---: | --- | --- |");
	for (size_t i = 0; i < r->ncases; i++)
		ab_row(r, &r->c[i], sep);
	printf(r->o->markdown ? "\n**bench ab:** " : "\nbench ab: ");
	printf("%zu cases:", r->ncases);
	for (int v = 0; v < AB_NVERDICTS; v++)
		if (t->v[v])
			printf(" %zu %s,", t->v[v], ab_verdict_name((enum ab_verdict)v));
	if (t->a_failed + t->b_failed)
		printf(" %zu failed,", t->a_failed + t->b_failed);
	printf(" B/A per round (%s, timed by this bench from each request to its reply), A %s, B %s; Hodges-Lehmann estimate and its %.4g%% interval (signed-rank, alpha %g over %zu cases and %d looks, at %u rounds and each at twice the one before), threshold %g%%; looks made: %u, stopped by %s; %zu pairs made again (disturbed); %s; exit %d\n",
	       r->o->wall ? "wall time" : "time without waits for a CPU, wall for a strategy on several CPUs",
	       r->o->exe[0], r->o->exe[1], (1 - r->case_alpha / AB_LOOKS) * 100, r->o->alpha,
	       r->ncases, AB_LOOKS, r->o->rounds, r->o->threshold * 100, r->looks, r->stopped,
	       r->retried,
	       code == 1 ? "regression" : code == AB_EXIT_INCONCLUSIVE ? "inconclusive" :
	       code == 0 ? "no regression" : "not judged", code);
	ab_say_inconclusive(r);
	ab_say_disagreement(r);
}

/* Verdicts, the report and the exit code. */
int ab_judge_all(struct ab_run *r)
{
	struct ab_tally tally = { 0 };
	int code;

	for (size_t i = 0; i < r->ncases; i++) {
		struct ab_case *c = &r->c[i];

		if (c->failed >= 0)
			fprintf(stderr, "bench ab: %s failed in %s\n", c->name, c->why);
		if (c->failed == 0)
			tally.a_failed++;
		else if (c->failed == 1)
			tally.b_failed++;
		else
			tally.v[c->v]++;
	}
	code = ab_exit_code(&tally);
	ab_report(r, code, &tally);
	ab_write_csv(r, true);
	return code;
}
