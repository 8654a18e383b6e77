// SPDX-License-Identifier: MIT
/*
 * check.c - `bench check`: compare the current results with a baseline and
 * say, case by case, whether copying got slower or makes other system calls;
 * `bench baseline save`: write the compact baseline file to commit.
 *
 * Timing is judged so that shared CI runners, whose speed swings by tens of
 * percent from run to run, do not cry wolf:
 *  - each run of a case is divided by the hot in-memory memcpy of the same
 *    size measured in the same run (rows `limit/memcpy`), so a machine that
 *    is slower as a whole cancels out (--absolute compares plain times);
 *  - the per-run samples of both sides go through a one-sided Mann-Whitney
 *    U test (ranktest.c), and a case is a `regression` only when the test is
 *    significant (p < alpha) AND the median slowed down by more than the
 *    threshold.
 * System-call counts are deterministic, so any difference is reported
 * exactly, as its own verdict.
 */
#include "check.h"
#include "stats.h"
#include "checkset.h"
#include "csv.h"
#include "ranktest.h"
#include "json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum check_format { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_MARKDOWN };

struct check_opts {
	const char *base, *cur;
	double threshold;	/* fraction: 0.10 for 10% */
	double alpha;
	bool absolute, ignore_syscalls, allow_missing, only_syscalls;
	bool uncorrected;	/* per-case alpha, no Holm correction */
	enum check_format format;
};

enum check_timing { T_NONE, T_OK, T_FASTER, T_SLOWER, T_REGRESSION };

static const char *const timing_word[] = {
	[T_NONE] = "ok", [T_OK] = "ok", [T_FASTER] = "faster",
	[T_SLOWER] = "slower", [T_REGRESSION] = "regression",
};

struct check_row {
	const struct checkset_case *b, *c;	/* NULL: missing / new */
	char label[192];
	const char *vs;		/* "memcpy", "absolute" or "-" */
	size_t nb, nc;
	double b_med, c_med;	/* median wall ns */
	double b_val, c_val;	/* medians of what was compared */
	double change;		/* c_val / b_val - 1 */
	double p;		/* one-sided, in the direction of the change */
	bool tested;
	double pg, pl;		/* one-sided p: slower, faster (Holm-adjusted) */
	/* Relative mode also tests the plain times: a regression must show
	 * in both (see judge_timing). */
	double abs_change, abs_pg;
	enum check_timing timing;
	bool sc_known, sc_changed;
	char sc_diff[256];
	char verdict[48];
};

/* Verdict tallies for the summary, in the order they are printed. */
enum { V_OK, V_FASTER, V_SLOWER, V_REGRESSION, V_SYSCALLS, V_MISSING, V_NEW, V_COUNT };
static const char *const verdict_name[V_COUNT] = {
	"ok", "faster", "slower", "regression", "syscalls-changed", "missing", "new",
};

struct check_report {
	struct check_row *rows;
	size_t nrows;
	size_t tally[V_COUNT];
	double machine;		/* change of limit/memcpy itself, NAN if none */
	size_t said[16][2];	/* sample-size pairs warned about */
	size_t nsaid;
	int exit_code;
	char summary[512];
};

/* -------------------------------------------------------- options -- */

static void check_usage(FILE *f)
{
	fputs("usage: bench check --baseline BASE --current CUR [--threshold 10%] [--alpha 0.01]\n"
	      "                   [--absolute] [--only-syscalls] [--ignore-syscalls] [--allow-missing]\n"
	      "                   [--uncorrected]\n"
	      "                   [--format table|csv|json|markdown]\n"
	      "BASE and CUR: a results folder, a runs.csv or a baseline file (bench baseline save).\n"
	      "Exit: 0 no regression, 1 a regression or changed system calls, 2 bad input.\n", f);
}

static int parse_threshold(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !isfinite(v) || v < 0 || v > 1000)
		return -EINVAL;
	*out = v / 100.0;
	return 0;
}

static int parse_alpha(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0 && v < 1))
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_format(const char *s, enum check_format *f)
{
	static const char *const names[] = { "table", "csv", "json", "markdown" };

	for (size_t i = 0; i < 4; i++) {
		if (strcmp(s, names[i]) == 0) {
			*f = (enum check_format)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* One option with a value; -EINVAL after saying why on err. */
static int check_opt_value(struct check_opts *o, const char *name,
			   const char *val, FILE *err)
{
	int bad = 0;

	if (strcmp(name, "baseline") == 0)
		o->base = val;
	else if (strcmp(name, "current") == 0)
		o->cur = val;
	else if (strcmp(name, "threshold") == 0)
		bad = parse_threshold(val, &o->threshold);
	else if (strcmp(name, "alpha") == 0)
		bad = parse_alpha(val, &o->alpha);
	else if (strcmp(name, "format") == 0)
		bad = parse_format(val, &o->format);
	if (bad)
		fprintf(err, "bench check: bad value '%s' for --%s (threshold: a percentage 0-1000 like 10%%; alpha: between 0 and 1; format: table, csv, json or markdown)\n", val, name);
	return bad ? -EINVAL : 0;
}

static bool *check_flag(struct check_opts *o, const char *name)
{
	if (strcmp(name, "absolute") == 0)
		return &o->absolute;
	if (strcmp(name, "ignore-syscalls") == 0)
		return &o->ignore_syscalls;
	if (strcmp(name, "allow-missing") == 0)
		return &o->allow_missing;
	if (strcmp(name, "only-syscalls") == 0)
		return &o->only_syscalls;
	if (strcmp(name, "uncorrected") == 0)
		return &o->uncorrected;
	return NULL;
}

static bool check_takes_value(const char *name)
{
	static const char *const v[] = { "baseline", "current", "threshold", "alpha", "format" };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strcmp(name, v[i]) == 0)
			return true;
	return false;
}

/* Fills o from argv. 0, 1 for --help (usage printed), or -EINVAL. */
static int check_parse(struct check_opts *o, int argc, char **argv, FILE *out,
		       FILE *err)
{
	*o = (struct check_opts){ .threshold = 0.10, .alpha = 0.01 };
	for (int i = 1; i < argc; i++) {
		char name[64];
		const char *arg = argv[i], *eq, *val = NULL;
		bool *flag;

		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
			check_usage(out);
			return 1;
		}
		if (strncmp(arg, "--", 2)) {
			fprintf(err, "bench check: unexpected argument '%s' (see bench check --help)\n", arg);
			return -EINVAL;
		}
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - arg - 2) : 63, arg + 2);
		flag = check_flag(o, name);
		if (flag && !eq) {
			*flag = true;
			continue;
		}
		if (!check_takes_value(name)) {
			fprintf(err, "bench check: unknown option '%s' (see bench check --help)\n", arg);
			return -EINVAL;
		}
		val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!val) {
			fprintf(err, "bench check: --%s needs a value\n", name);
			return -EINVAL;
		}
		if (check_opt_value(o, name, val, err))
			return -EINVAL;
	}
	if (!o->base || !o->cur) {
		fprintf(err, "bench check: --baseline and --current are both required (see bench check --help)\n");
		return -EINVAL;
	}
	return 0;
}

/* ----------------------------------------------------- comparison -- */

/* Says once per sample-size pair that alpha cannot be reached. */
static void warn_unreachable(struct check_report *rep, size_t nb, size_t nc,
			     double alpha, size_t ntests, FILE *err)
{
	double minp = rank_min_p(nb, nc);

	if (minp * (double)ntests < alpha)
		return;
	for (size_t i = 0; i < rep->nsaid; i++)
		if (rep->said[i][0] == nb && rep->said[i][1] == nc)
			return;
	if (rep->nsaid < 16) {
		rep->said[rep->nsaid][0] = nb;
		rep->said[rep->nsaid++][1] = nc;
	}
	fprintf(err, "bench check: warning: with %zu baseline and %zu current runs the smallest possible p-value is %.3g (%.3g corrected for %zu cases), not below alpha %g: no timing change can be significant (record more runs)\n",
		nb, nc, minp, minp * (double)ntests, ntests, alpha);
}

/* Medians, change and the raw one-sided p-values of a case in both sets. */
static void compare_timing(struct check_row *r, const struct check_opts *o,
			   FILE *err)
{
	const struct checkset_case *b = r->b, *c = r->c;
	bool limit = checkset_is_limit(b);
	bool rel = !o->absolute && !limit && b->rel_ok && c->rel_ok;
	const double *x = rel ? c->rel : c->wall, *y = rel ? b->rel : b->wall;
	struct rank_result rr;

	r->nb = b->nruns;
	r->nc = c->nruns;
	r->b_med = sample_median(b->wall, b->nruns);
	r->c_med = sample_median(c->wall, c->nruns);
	if (!r->nb || !r->nc || rank_mann_whitney(x, r->nc, y, r->nb, &rr))
		return;
	if (!o->absolute && !limit && !rel)
		fprintf(err, "bench check: warning: no in-run memcpy reference for %s: compared in absolute time\n", r->label);
	r->vs = rel ? "memcpy" : "absolute";
	r->b_val = sample_median(y, r->nb);
	r->c_val = sample_median(x, r->nc);
	r->change = r->c_val / r->b_val - 1;
	r->pg = rr.p_greater;
	r->pl = rr.p_less;
	r->tested = true;
	r->abs_change = r->change;
	r->abs_pg = r->pg;
	if (rel && !rank_mann_whitney(c->wall, r->nc, b->wall, r->nb, &rr)) {
		r->abs_change = r->c_med / r->b_med - 1;
		r->abs_pg = rr.p_greater;
	}
}

struct holm_item {
	double p;
	double *slot;
};

static int holm_cmp(const void *a, const void *b)
{
	const struct holm_item *x = a, *y = b;

	return (x->p > y->p) - (x->p < y->p);
}

/*
 * Holm's step-down correction over the tested cases, so that alpha bounds
 * the chance of any false verdict in the whole check, not in each case.
 */
static int holm_adjust(struct check_report *rep, bool slower)
{
	struct holm_item *h = calloc(rep->nrows + 1, sizeof(*h));
	double run_max = 0;
	size_t m = 0;

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < rep->nrows; i++) {
		struct check_row *r = &rep->rows[i];

		if (!r->tested)
			continue;
		h[m].slot = slower ? &r->pg : &r->pl;
		h[m].p = *h[m].slot;
		m++;
	}
	qsort(h, m, sizeof(*h), holm_cmp);
	for (size_t k = 0; k < m; k++) {
		double adj = fmin(1, (double)(m - k) * h[k].p);

		run_max = fmax(run_max, adj);
		*h[k].slot = run_max;
	}
	free(h);
	return 0;
}

/* The verdict from the (adjusted) p-values, the change and the threshold. */
static void judge_timing(struct check_row *r, const struct check_opts *o)
{
	bool limit = checkset_is_limit(r->b);

	r->p = r->pg < r->pl ? r->pg : r->pl;
	/*
	 * A regression is slower beyond the threshold relative to the in-run
	 * memcpy AND in plain time. The reference cancels a machine that got
	 * slower as a whole (plain times alone would cry wolf); the plain
	 * times cancel a reference that was itself disturbed (a memcpy slowed
	 * by a neighbour's memory traffic while the copies were not, seen on
	 * this project's CI machine). The machine limit itself is not code: it
	 * never regresses in relative mode, it explains.
	 */
	if (r->pg < o->alpha)
		r->timing = r->change > o->threshold && (o->absolute || !limit) &&
			    r->abs_change > o->threshold && r->abs_pg < o->alpha ?
			    T_REGRESSION : T_SLOWER;
	else if (r->pl < o->alpha)
		r->timing = T_FASTER;
	else
		r->timing = T_OK;
}

static int check_timings(struct check_report *rep, const struct check_opts *o,
			 FILE *err)
{
	size_t ntests = 0;

	for (size_t i = 0; i < rep->nrows; i++)
		ntests += rep->rows[i].tested;
	if (!o->uncorrected && (holm_adjust(rep, true) || holm_adjust(rep, false)))
		return -ENOMEM;
	for (size_t i = 0; i < rep->nrows; i++) {
		struct check_row *r = &rep->rows[i];

		if (!r->tested)
			continue;
		warn_unreachable(rep, r->nb, r->nc, o->alpha,
				 o->uncorrected ? 1 : ntests, err);
		judge_timing(r, o);
	}
	return 0;
}

static void diff_add(struct check_row *r, const char *name, uint64_t b,
		     uint64_t c)
{
	size_t len = strlen(r->sc_diff);

	r->sc_changed = true;
	snprintf(r->sc_diff + len, sizeof(r->sc_diff) - len, "%s%s %" PRIu64 "->%" PRIu64,
		 len ? ", " : "", name, b, c);
}

static uint64_t count_of(const struct checkset_case *c, const char *name)
{
	for (size_t i = 0; i < c->ncounts; i++)
		if (strcmp(c->counts[i].name, name) == 0)
			return c->counts[i].count;
	return 0;
}

/* Every count that differs, the total first. */
static void compare_syscalls(struct check_row *r)
{
	const struct checkset_case *b = r->b, *c = r->c;

	r->sc_known = (b->has_total || b->ncounts) && (c->has_total || c->ncounts);
	if (!r->sc_known)
		return;
	if (b->has_total && c->has_total && b->total != c->total)
		diff_add(r, "total", b->total, c->total);
	if (!b->ncounts || !c->ncounts)
		return;
	for (size_t i = 0; i < b->ncounts; i++)
		if (b->counts[i].count != count_of(c, b->counts[i].name))
			diff_add(r, b->counts[i].name, b->counts[i].count,
				 count_of(c, b->counts[i].name));
	for (size_t i = 0; i < c->ncounts; i++)
		if (count_of(b, c->counts[i].name) == 0 && c->counts[i].count)
			diff_add(r, c->counts[i].name, 0, c->counts[i].count);
}

static void row_init(struct check_row *r, const struct checkset_case *b,
		     const struct checkset_case *c)
{
	memset(r, 0, sizeof(*r));
	r->b = b;
	r->c = c;
	r->vs = "-";
	r->b_med = r->c_med = r->b_val = r->c_val = r->change = r->p = NAN;
	checkset_label(b ? b : c, r->label, sizeof(r->label));
}

static void row_verdict(struct check_row *r, struct check_report *rep)
{
	if (!r->c) {
		snprintf(r->verdict, sizeof(r->verdict), "missing");
		rep->tally[V_MISSING]++;
		return;
	}
	if (!r->b) {
		snprintf(r->verdict, sizeof(r->verdict), "new");
		rep->tally[V_NEW]++;
		return;
	}
	if (r->timing >= T_FASTER)
		rep->tally[r->timing - T_FASTER + V_FASTER]++;
	if (r->sc_changed)
		rep->tally[V_SYSCALLS]++;
	if (r->timing < T_FASTER && !r->sc_changed)
		rep->tally[V_OK]++;
	if (r->sc_changed && r->timing < T_FASTER)
		snprintf(r->verdict, sizeof(r->verdict), "syscalls-changed");
	else if (r->sc_changed)
		snprintf(r->verdict, sizeof(r->verdict), "%s+syscalls-changed",
			 timing_word[r->timing]);
	else
		snprintf(r->verdict, sizeof(r->verdict), "%s", timing_word[r->timing]);
}

/* The median change of limit/memcpy itself: how much the machine moved. */
static double machine_change(const struct check_report *rep)
{
	double v[256];
	size_t n = 0;

	for (size_t i = 0; i < rep->nrows && n < 256; i++) {
		const struct check_row *r = &rep->rows[i];

		if (r->b && r->c && checkset_is_memcpy(r->b) && !isnan(r->change))
			v[n++] = r->change;
	}
	return sample_median(v, n);
}

static void summarise(struct check_report *rep, const struct check_opts *o)
{
	size_t len, cap = sizeof(rep->summary);
	char *s = rep->summary;

	len = (size_t)snprintf(s, cap, "%zu cases:", rep->nrows);
	for (size_t v = 0; v < V_COUNT && len < cap; v++)
		if (rep->tally[v])
			len += (size_t)snprintf(s + len, cap - len, " %zu %s,",
						rep->tally[v], verdict_name[v]);
	if (len < cap && o->only_syscalls)
		len += (size_t)snprintf(s + len, cap - len, " system-call counts only");
	else if (len < cap)
		len += (size_t)snprintf(s + len, cap - len, " timing %s, threshold %g%%, alpha %g%s",
					o->absolute ? "absolute" : "relative to the in-run memcpy",
					o->threshold * 100, o->alpha,
					o->uncorrected ? " per case" : " over all cases (Holm)");
	if (len < cap && !isnan(rep->machine))
		len += (size_t)snprintf(s + len, cap - len, "; memcpy itself %+.1f%%",
					rep->machine * 100);
	if (len < cap)
		snprintf(s + len, cap - len, "; exit %d", rep->exit_code);
}

static int check_compare(const struct checkset *bs, const struct checkset *cs,
			 const struct check_opts *o, struct check_report *rep,
			 FILE *err)
{
	size_t k = 0, nsc = 0;
	bool regress = false;

	memset(rep, 0, sizeof(*rep));
	rep->rows = calloc(bs->n + cs->n + 1, sizeof(*rep->rows));
	if (!rep->rows)
		return -ENOMEM;
	for (size_t i = 0; i < bs->n; i++) {
		struct check_row *r = &rep->rows[k++];

		row_init(r, &bs->c[i], checkset_find(cs, &bs->c[i]));
		if (!r->c)
			continue;
		if (!o->only_syscalls)
			compare_timing(r, o, err);
		compare_syscalls(r);
		nsc += r->sc_known;
	}
	for (size_t i = 0; i < cs->n; i++)
		if (!checkset_find(bs, &cs->c[i]))
			row_init(&rep->rows[k++], NULL, &cs->c[i]);
	rep->nrows = k;
	if (check_timings(rep, o, err)) {
		free(rep->rows);
		return -ENOMEM;
	}
	for (size_t i = 0; i < k; i++) {
		struct check_row *r = &rep->rows[i];

		row_verdict(r, rep);
		regress |= r->timing == T_REGRESSION ||
			   (r->sc_changed && !o->ignore_syscalls);
		if (!r->c)
			fprintf(err, "bench check: %s: case %s is in the baseline but not in the current results\n",
				o->allow_missing ? "note" : "error", r->label);
	}
	rep->machine = o->absolute || o->only_syscalls ? NAN : machine_change(rep);
	rep->exit_code = regress ? 1 : 0;
	if (rep->tally[V_MISSING] && !o->allow_missing)
		rep->exit_code = 2;
	if (o->only_syscalls && !nsc) {
		fprintf(err, "bench check: error: no case has system-call counts on both sides\n");
		rep->exit_code = 2;
	}
	summarise(rep, o);
	return 0;
}

/* -------------------------------------------------------- reports -- */

enum { COL_CASE, COL_VS, COL_RUNS, COL_BASE, COL_CUR, COL_CHANGE, COL_P,
       COL_VERDICT, COL_SYSCALLS, NCOLS };
static const char *const col_name[NCOLS] = {
	"case", "vs", "runs", "baseline", "current", "change", "p", "verdict", "syscalls",
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

static void row_texts(const struct check_row *r, struct row_text *t)
{
	snprintf(t->f[COL_CASE], 256, "%s", r->label);
	snprintf(t->f[COL_VS], 256, "%s", r->vs);
	snprintf(t->f[COL_RUNS], 256, "%zu/%zu", r->b ? r->b->nruns : 0,
		 r->c ? r->c->nruns : 0);
	fmt_ns(r->b ? sample_median(r->b->wall, r->b->nruns) : NAN, t->f[COL_BASE], 256);
	fmt_ns(r->c ? sample_median(r->c->wall, r->c->nruns) : NAN, t->f[COL_CUR], 256);
	if (isnan(r->change))
		snprintf(t->f[COL_CHANGE], 256, "-");
	else
		snprintf(t->f[COL_CHANGE], 256, "%+.1f%%", r->change * 100);
	if (isnan(r->p))
		snprintf(t->f[COL_P], 256, "-");
	else if (r->p < 0.0001)
		snprintf(t->f[COL_P], 256, "<0.0001");
	else
		snprintf(t->f[COL_P], 256, "%.4f", r->p);
	snprintf(t->f[COL_VERDICT], 256, "%s", r->verdict);
	if (!r->sc_known)
		snprintf(t->f[COL_SYSCALLS], 256, "n/a");
	else if (r->sc_changed)
		snprintf(t->f[COL_SYSCALLS], 256, "%s", r->sc_diff);
	else if (r->b->has_total)
		snprintf(t->f[COL_SYSCALLS], 256, "%" PRIu64, r->b->total);
	else
		snprintf(t->f[COL_SYSCALLS], 256, "same");
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
	free(t);
}

static const struct checkset_case *row_case(const struct check_row *r)
{
	return r->b ? r->b : r->c;
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
		"change_pct", "p_value", "verdict", "baseline_syscalls",
		"current_syscalls", "syscalls_diff",
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
		csv_num(&w, r->b ? sample_median(r->b->wall, r->b->nruns) : NAN, 0);
		csv_num(&w, r->c ? sample_median(r->c->wall, r->c->nruns) : NAN, 0);
		csv_num(&w, r->b_val, 6);
		csv_num(&w, r->c_val, 6);
		csv_num(&w, r->change * 100, 2);
		csv_num(&w, r->p, 6);
		csv_str(&w, r->verdict);
		csv_total(&w, r->b);
		csv_total(&w, r->c);
		csv_str(&w, r->sc_diff);
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

static void json_row(const struct check_row *r, FILE *out)
{
	fputs("    {\"case\": ", out);
	json_str(out, r->label);
	for (size_t k = 0; k < COL_NIDS; k++) {
		fprintf(out, ", \"%s\": ", columns_id(k)->name);
		json_str(out, row_case(r)->id[k]);
	}
	fputs(", \"vs\": ", out);
	json_str(out, r->vs);
	fprintf(out, ", \"baseline_runs\": %zu, \"current_runs\": %zu",
		r->b ? r->b->nruns : 0, r->c ? r->c->nruns : 0);
	json_num(out, "baseline_median_ns", r->b ? sample_median(r->b->wall, r->b->nruns) : NAN);
	json_num(out, "current_median_ns", r->c ? sample_median(r->c->wall, r->c->nruns) : NAN);
	json_num(out, "change_pct", r->change * 100);
	json_num(out, "p_value", r->p);
	fputs(", \"verdict\": ", out);
	json_str(out, r->verdict);
	json_num(out, "baseline_syscalls", r->b && r->b->has_total ? (double)r->b->total : NAN);
	json_num(out, "current_syscalls", r->c && r->c->has_total ? (double)r->c->total : NAN);
	fputs(", \"syscalls_diff\": ", out);
	json_str(out, r->sc_diff);
	fputs("}", out);
}

static void report_json(const struct check_report *rep,
			const struct check_opts *o, FILE *out)
{
	fprintf(out, "{\n  \"mode\": \"%s\", \"threshold_pct\": %g, \"alpha\": %g,\n  \"cases\": [\n",
		o->only_syscalls ? "syscalls" : o->absolute ? "absolute" : "relative",
		o->threshold * 100, o->alpha);
	for (size_t i = 0; i < rep->nrows; i++) {
		json_row(&rep->rows[i], out);
		fputs(i + 1 < rep->nrows ? ",\n" : "\n", out);
	}
	fputs("  ],\n  \"summary\": {", out);
	for (size_t v = 0; v < V_COUNT; v++)
		fprintf(out, "\"%s\": %zu, ", verdict_name[v], rep->tally[v]);
	fprintf(out, "\"cases\": %zu, \"exit\": %d, \"text\": ", rep->nrows, rep->exit_code);
	json_str(out, rep->summary);
	fputs("}\n}\n", out);
}

/* ------------------------------------------------------------ CLI -- */

int check_cli(int argc, char **argv, FILE *out, FILE *err)
{
	struct checkset bs, cs;
	struct check_report rep;
	struct check_opts o;
	char why[512] = "";
	int ret = 2;

	ret = check_parse(&o, argc, argv, out, err);
	if (ret)
		return ret > 0 ? 0 : 2;
	ret = 2;
	if (checkset_load(&bs, o.base, why, sizeof(why))) {
		fprintf(err, "bench check: baseline: %s\n", why);
		return 2;
	}
	if (checkset_load(&cs, o.cur, why, sizeof(why))) {
		fprintf(err, "bench check: current: %s\n", why);
		goto out_free_base;
	}
	if (!bs.n || !cs.n) {
		fprintf(err, "bench check: %s: no cases in it\n", bs.n ? o.cur : o.base);
		goto out_free_cur;
	}
	if (check_compare(&bs, &cs, &o, &rep, err))
		goto out_free_cur;
	if (o.format == FMT_CSV)
		report_csv(&rep, out);
	else if (o.format == FMT_JSON)
		report_json(&rep, &o, out);
	else
		report_text(&rep, out, o.format == FMT_MARKDOWN);
	fflush(out);
	ret = rep.exit_code;
	free(rep.rows);
out_free_cur:
	checkset_free(&cs);
out_free_base:
	checkset_free(&bs);
	return ret;
}

int check_baseline_cli(int argc, char **argv, FILE *out, FILE *err)
{
	struct checkset s;
	char why[512] = "";
	size_t runs = 0;
	int ret;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs("usage: bench baseline save RESULTS FILE\n"
		      "RESULTS: a results folder, a runs.csv or a baseline file. FILE: the baseline to commit.\n", out);
		return 0;
	}
	if (argc != 4 || strcmp(argv[1], "save")) {
		fprintf(err, "bench baseline: usage: bench baseline save RESULTS FILE\n");
		return 2;
	}
	if (checkset_load(&s, argv[2], why, sizeof(why))) {
		fprintf(err, "bench baseline: %s\n", why);
		return 2;
	}
	ret = 2;
	if (!s.n) {
		fprintf(err, "bench baseline: %s: no cases in it\n", argv[2]);
		goto out_free;
	}
	if (checkset_save(&s, argv[3], why, sizeof(why))) {
		fprintf(err, "bench baseline: %s\n", why);
		goto out_free;
	}
	for (size_t i = 0; i < s.n; i++)
		runs += s.c[i].nruns;
	fprintf(out, "bench baseline: saved %zu cases (%zu runs) to %s\n", s.n, runs, argv[3]);
	ret = 0;
out_free:
	checkset_free(&s);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	return check_cli(argc, argv, stdout, stderr);
}

int cmd_baseline(int argc, char **argv)
{
	return check_baseline_cli(argc, argv, stdout, stderr);
}
