// SPDX-License-Identifier: MIT
/*
 * check_report.c - the report of `bench check`: an aligned table or a
 * Markdown table (one line per case, then the summary), or CSV and JSON with
 * the identifying columns of columns.h and the figures of each comparison.
 */
#include "check.h"
#include "lib/csv.h"
#include "lib/json.h"
#include "lib/stats.h"
#include "results/meta.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COL_CASE, COL_VS, COL_RUNS, COL_BASE, COL_CUR, COL_CHANGE, COL_THRESHOLD, COL_P,
       COL_VERDICT, COL_SYSCALLS, NCOLS };
static const char *const col_name[NCOLS] = {
	"case", "vs", "runs", "baseline", "current", "change", "threshold", "p", "verdict",
	"syscalls",
};

struct row_text {
	char f[NCOLS][256];
};

static void fmt_ns(double ns, char *out, size_t n)
{
	if (isnan(ns))
		snprintf(out, n, "-");
	else if (ns < 1e4)
		snprintf(out, n, "%.0f ns", ns);
	else if (ns < 1e7)
		snprintf(out, n, "%.1f us", ns / 1e3);
	else if (ns < 1e10)
		snprintf(out, n, "%.1f ms", ns / 1e6);
	else
		snprintf(out, n, "%.2f s", ns / 1e9);
}

/* A side's median, marked when its runs fall into two modes. */
static void fmt_median(const struct checkset_case *c, const struct modes *m, char *out,
		       size_t n)
{
	char med[64];

	fmt_ns(c ? stats_sample_median(c->wall, c->nruns) : NAN, med, sizeof(med));
	snprintf(out, n, "%s%s", med, m->count == 2 ? " (2 modes)" : "");
}

static void row_texts(const struct check_row *r, struct row_text *t)
{
	snprintf(t->f[COL_CASE], 256, "%s", r->label);
	snprintf(t->f[COL_VS], 256, "%s", r->vs);
	snprintf(t->f[COL_RUNS], 256, "%zu/%zu", r->b ? r->b->nruns : 0,
		 r->c ? r->c->nruns : 0);
	fmt_median(r->b, &r->b_modes, t->f[COL_BASE], 256);
	fmt_median(r->c, &r->c_modes, t->f[COL_CUR], 256);
	if (isnan(r->change))
		snprintf(t->f[COL_CHANGE], 256, "-");
	else
		snprintf(t->f[COL_CHANGE], 256, "%+.1f%%", r->change * 100);
	if (r->tested)
		snprintf(t->f[COL_THRESHOLD], 256, "%.1f%%", r->threshold * 100);
	else
		snprintf(t->f[COL_THRESHOLD], 256, "-");
	if (isnan(r->p))
		snprintf(t->f[COL_P], 256, "-");
	else if (r->p < 0.0001)
		snprintf(t->f[COL_P], 256, "<0.0001");
	else
		snprintf(t->f[COL_P], 256, "%.4f", r->p);
	snprintf(t->f[COL_VERDICT], 256, "%s", r->verdict);
	if (r->sc_missing)
		snprintf(t->f[COL_SYSCALLS], 256, "counted on the %s side only",
			 r->b->has_total || r->b->ncounts ? "baseline" : "current");
	else if (!r->sc_known)
		snprintf(t->f[COL_SYSCALLS], 256, "n/a");
	else if (r->sc_changed)
		snprintf(t->f[COL_SYSCALLS], 256, "%s", r->sc_diff);
	else if (r->sc_varies)
		snprintf(t->f[COL_SYSCALLS], 256, "%.200s (vary with timing)", r->sc_diff);
	else if (r->b->has_total)
		snprintf(t->f[COL_SYSCALLS], 256, "%" PRIu64, r->b->total);
	else
		snprintf(t->f[COL_SYSCALLS], 256, "same");
}

/* Under the table: each side of a row whose runs fall into two modes. */
static void say_modes(const struct check_report *rep, FILE *out, bool md)
{
	char fast[32], slow[32];

	for (size_t i = 0; i < rep->nrows; i++)
		for (int side = 0; side < 2; side++) {
			const struct check_row *r = &rep->rows[i];
			const struct modes *m = side ? &r->c_modes : &r->b_modes;

			if (m->count != 2)
				continue;
			fmt_ns(m->fast_median, fast, sizeof(fast));
			fmt_ns(m->slow_median, slow, sizeof(slow));
			fprintf(out, "%sbench check: %s: two modes in the %s: %s (%zu runs) and %s (%zu runs); its median lies in whichever has more runs, the verdict comes from the rank test over all runs and from the share of slow runs (docs/check.md)\n",
				md ? "\n" : "", r->label, side ? "current results" : "baseline",
				fast, m->fast_runs, slow, m->slow_runs);
		}
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct check_row *r = &rep->rows[i];

		if (!r->share_judged)
			continue;
		fmt_ns(r->cut, fast, sizeof(fast));
		fprintf(out, "%sbench check: %s: slow runs (above %s) %zu of %zu in the baseline, %zu of %zu now: the mean time %+.1f%% from the share alone (one-sided Fisher p %.4g): %s\n",
			md ? "\n" : "", r->label, fast, r->b_slow, r->nb, r->c_slow, r->nc,
			r->share_change * 100, r->share_p,
			r->by_share ? "a regression of the mode shares" :
			r->timing == T_REGRESSION ? "a regression of the runs' ranks" :
			"not a regression of the mode shares");
	}
}

/* Under the table: each case that could not be told from a regression, with
 * the smallest slowdown its runs could rule out (the upper bound). */
static void say_inconclusive(const struct check_report *rep, FILE *out, bool md)
{
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct check_row *r = &rep->rows[i];
		double u = fmin(r->upper, r->abs_upper);

		if (!r->inconclusive)
			continue;
		if (isfinite(u))
			fprintf(out, "%sbench check: inconclusive: %s: change %+.1f%%; the smallest slowdown these runs rule out is %+.1f%%, not below its threshold %.1f%%: neither a regression nor none (record more runs, or compare both builds in one invocation: bench ab)\n",
				md ? "\n" : "", r->label, r->change * 100, u * 100, r->threshold * 100);
		else
			fprintf(out, "%sbench check: inconclusive: %s: change %+.1f%%; with %zu and %zu runs no slowdown can be ruled out (record more runs)\n",
				md ? "\n" : "", r->label, isnan(r->change) ? 0 : r->change * 100, r->nb, r->nc);
	}
}

static void report_text(const struct check_report *rep, FILE *out, bool md)
{
	struct row_text *t = calloc(rep->nrows + 1, sizeof(*t));
	int w[NCOLS] = { 0 };

	if (!t)
		return;
	for (size_t c = 0; c < NCOLS; c++)
		snprintf(t[0].f[c], 256, "%s", col_name[c]);
	for (size_t i = 0; i < rep->nrows; i++)
		row_texts(&rep->rows[i], &t[i + 1]);
	for (size_t i = 0; i <= rep->nrows; i++)
		for (size_t c = 0; c < NCOLS; c++)
			if ((int)strlen(t[i].f[c]) > w[c])
				w[c] = (int)strlen(t[i].f[c]);
	for (size_t i = 0; i <= rep->nrows; i++) {
		for (size_t c = 0; c < NCOLS; c++)
			if (md)
				fprintf(out, "| %-*s ", w[c], t[i].f[c]);
			else if (c + 1 < NCOLS)
				fprintf(out, "%-*s  ", w[c], t[i].f[c]);
			else
				fputs(t[i].f[c], out);
		fputs(md ? "|\n" : "\n", out);
		for (size_t c = 0; md && i == 0 && c < NCOLS; c++)
			fprintf(out, "|%s", c == COL_CASE || c == COL_VS ||
				c == COL_VERDICT || c == COL_SYSCALLS ? " --- " : " ---: ");
		if (md && i == 0)
			fputs("|\n", out);
	}
	fprintf(out, md ? "\n**bench check:** %s\n" : "\nbench check: %s\n", rep->summary);
	say_modes(rep, out, md);
	say_inconclusive(rep, out, md);
	if (rep->largest)
		fprintf(out, "%sbench check: cannot tell apart: with one invocation per side the p-values compare runs of one invocation, not invocations, and the drift between invocations is unknown; the largest change, %s %+.1f%%, stands out from that drift only if invocations of this machine spread by less than %.1f%% (sd): give several baseline invocations (repeat --baseline) or compare both builds in one invocation (bench ab)\n",
			md ? "\n" : "", rep->largest->label, rep->largest->change * 100,
			expm1(rep->needed_sd) * 100);
	free(t);
}

static const struct checkset_case *row_case(const struct check_row *r)
{
	return r->b ? r->b : r->c;
}

/* The smallest slowdown the row's runs rule out; NAN for "none". */
static double row_upper(const struct check_row *r)
{
	double u = fmin(r->upper, r->abs_upper);

	return isfinite(u) ? u : NAN;
}

static void csv_num(struct csv_writer *w, double v, int decimals)
{
	if (isnan(v))
		csv_str(w, "");
	else
		csv_dbl(w, v, decimals);
}

static void csv_total(struct csv_writer *w, const struct checkset_case *c)
{
	if (c && c->has_total)
		csv_u64(w, c->total);
	else
		csv_str(w, "");
}

static void report_csv(const struct check_report *rep, FILE *out)
{
	static const char *const extra[] = {
		"vs", "baseline_runs", "current_runs", "baseline_median_ns",
		"current_median_ns", "baseline_value", "current_value",
		"change_pct", "threshold_pct", "upper_pct", "p_value", "verdict", "baseline_syscalls",
		"current_syscalls", "syscalls_diff", "baseline_modes", "current_modes",
	};
	/* Rows go to the stream as they are made: no temp file, no commit. */
	struct csv_writer w = { .f = out, .first_field = 1 };

	for (size_t i = 0; i < COL_NIDS; i++)
		csv_str(&w, columns_id(i)->name);
	for (size_t i = 0; i < sizeof(extra) / sizeof(extra[0]); i++)
		csv_str(&w, extra[i]);
	csv_end_row(&w);
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct check_row *r = &rep->rows[i];

		for (size_t k = 0; k < COL_NIDS; k++)
			csv_str(&w, row_case(r)->id[k]);
		csv_str(&w, r->vs);
		csv_u64(&w, r->b ? r->b->nruns : 0);
		csv_u64(&w, r->c ? r->c->nruns : 0);
		csv_num(&w, r->b ? stats_sample_median(r->b->wall, r->b->nruns) : NAN, 0);
		csv_num(&w, r->c ? stats_sample_median(r->c->wall, r->c->nruns) : NAN, 0);
		csv_num(&w, r->b_val, 6);
		csv_num(&w, r->c_val, 6);
		csv_num(&w, r->change * 100, 2);
		csv_num(&w, r->tested ? r->threshold * 100 : NAN, 2);
		csv_num(&w, r->tested ? row_upper(r) * 100 : NAN, 2);
		csv_num(&w, r->p, 6);
		csv_str(&w, r->verdict);
		csv_total(&w, r->b);
		csv_total(&w, r->c);
		csv_str(&w, r->sc_diff);
		csv_num(&w, r->b && r->c ? r->b_modes.count : NAN, 0);
		csv_num(&w, r->b && r->c ? r->c_modes.count : NAN, 0);
		csv_end_row(&w);
	}
}

static void json_num(FILE *out, const char *key, double v)
{
	fprintf(out, ", \"%s\": ", key);
	if (isnan(v))
		fputs("null", out);
	else
		fprintf(out, "%.10g", v);
}

/* An identifying column's value with the column's JSON type, as the run's
 * own JSON writes it: numbers as numbers, a flag as true or false. */
static void json_id(FILE *out, const struct column *col, const char *v)
{
	char *end = NULL;

	if (col->type != COL_STR && v[0])
		strtod(v, &end);
	if (!end || *end) {
		json_str(out, v);
		return;
	}
	if (col->type == COL_BOOL)
		fputs(strcmp(v, "0") ? "true" : "false", out);
	else
		fputs(v, out);
}

static void json_row(const struct check_row *r, FILE *out)
{
	fputs("    {\"case\": ", out);
	json_str(out, r->label);
	for (size_t k = 0; k < COL_NIDS; k++) {
		fprintf(out, ", \"%s\": ", columns_id(k)->name);
		json_id(out, columns_id(k), row_case(r)->id[k]);
	}
	fputs(", \"vs\": ", out);
	json_str(out, r->vs);
	fprintf(out, ", \"baseline_runs\": %zu, \"current_runs\": %zu",
		r->b ? r->b->nruns : 0, r->c ? r->c->nruns : 0);
	json_num(out, "baseline_median_ns", r->b ? stats_sample_median(r->b->wall, r->b->nruns) : NAN);
	json_num(out, "current_median_ns", r->c ? stats_sample_median(r->c->wall, r->c->nruns) : NAN);
	json_num(out, "change_pct", r->change * 100);
	json_num(out, "threshold_pct", r->tested ? r->threshold * 100 : NAN);
	json_num(out, "upper_pct", r->tested ? row_upper(r) * 100 : NAN);
	json_num(out, "p_value", r->p);
	fputs(", \"verdict\": ", out);
	json_str(out, r->verdict);
	json_num(out, "baseline_syscalls", r->b && r->b->has_total ? (double)r->b->total : NAN);
	json_num(out, "current_syscalls", r->c && r->c->has_total ? (double)r->c->total : NAN);
	fputs(", \"syscalls_diff\": ", out);
	json_str(out, r->sc_diff);
	json_num(out, "baseline_modes", r->b && r->c ? r->b_modes.count : NAN);
	json_num(out, "current_modes", r->b && r->c ? r->c_modes.count : NAN);
	fputs("}", out);
}

static void report_json(const struct check_report *rep,
			const struct check_opts *o, FILE *out)
{
	fprintf(out, "{\n  \"schema_version\": %d, \"mode\": \"%s\", \"threshold_pct\": %g, \"alpha\": %g,\n  \"cases\": [\n",
		META_SCHEMA_VERSION,
		o->only_syscalls ? "syscalls" : o->ref == REF_ABSOLUTE ? "absolute" : o->ref == REF_MEMCPY ? "memcpy" : "cases",
		o->threshold * 100, o->alpha);
	for (size_t i = 0; i < rep->nrows; i++) {
		json_row(&rep->rows[i], out);
		fputs(i + 1 < rep->nrows ? ",\n" : "\n", out);
	}
	fputs("  ],\n  \"summary\": {", out);
	for (size_t v = 0; v < V_COUNT; v++)
		fprintf(out, "\"%s\": %zu, ", check_verdict_name[v], rep->tally[v]);
	fprintf(out, "\"cases\": %zu, \"verdict\": \"%s\", \"exit\": %d, \"text\": ",
		rep->nrows, check_outcome_name[rep->outcome], rep->exit_code);
	json_str(out, rep->summary);
	fputs("}\n}\n", out);
}

void check_print(const struct check_report *rep, const struct check_opts *o, FILE *out)
{
	if (o->format == FMT_CSV)
		report_csv(rep, out);
	else if (o->format == FMT_JSON)
		report_json(rep, o, out);
	else
		report_text(rep, out, o->format == FMT_MARKDOWN);
}
