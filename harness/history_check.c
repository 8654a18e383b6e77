// SPDX-License-Identifier: MIT
/*
 * history_check.c - `bench history check --current DIR`: each case of a new
 * run against the last N runs of the same case made on the same host,
 * kernel, filesystem and build (and branch, when asked).
 *
 * The comparison is `bench check`'s (check.c), with the window's runs pooled
 * as the baseline: each run divided by its own folder's in-run memcpy, a
 * one-sided rank test of the new runs against the pooled ones, Holm over
 * the cases, a regression only when slower beyond the threshold both
 * relative to memcpy and in plain time, and the exact system-call counts of
 * the most recent run that has them.
 *
 * What the history adds is the run-to-run spread. Pooled runs of different
 * invocations are not one sample: each invocation has its own level (file
 * placement, the machine's state), so a rank test of one new invocation
 * against them finds "significant" differences that are only that level.
 * The window shows how far an invocation's median wanders: s, the robust
 * standard deviation (1.4826 x MAD) of the log of the window's run medians.
 * A change counts only beyond HISTORY_SPREAD_Z x s, so a regression is
 * significant, beyond --threshold, and beyond the spread; on a quiet machine
 * the threshold decides, on a noisy one the spread does. docs/history.md
 * has the reasoning and the figures.
 */
#include "history_internal.h"
#include "check_internal.h"
#include "checkset_internal.h"
#include "stats.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How many run-to-run standard deviations a change must exceed. */
#define HISTORY_SPREAD_Z 3.0

struct hcheck_opts {
	const char *db;
	const char *branch;
	int window;
	struct check_opts c;
};

/* The window's run medians of one baseline case. */
struct spread {
	double *rel, *wall;	/* per run */
	size_t nruns;
	double s_rel, s_wall;	/* robust sd of their logs */
};

struct window {
	struct checkset bs;	/* pooled runs of the window, per case */
	int64_t *case_id;	/* bs.c[i] is bcase case_id[i] */
	struct spread *sp;	/* per case of bs */
	size_t cap;
};

/* ------------------------------------------------------------ spread -- */

/* 1.4826 x the median absolute deviation of log(v): a robust sd. */
static double log_spread(const double *v, size_t n)
{
	double *l = malloc((n + 1) * sizeof(*l)), m, s;

	if (!l || n < 2) {
		free(l);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		l[i] = log(v[i]);
	m = sample_median(l, n);
	for (size_t i = 0; i < n; i++)
		l[i] = fabs(l[i] - m);
	s = 1.4826 * sample_median(l, n);
	free(l);
	return isnan(s) ? 0 : s;
}

static int spread_push(struct spread *sp, double rel, double wall)
{
	double *r = realloc(sp->rel, (sp->nruns + 1) * sizeof(*r)), *w;

	if (!r)
		return -ENOMEM;
	sp->rel = r;
	w = realloc(sp->wall, (sp->nruns + 1) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	sp->wall = w;
	r[sp->nruns] = rel;
	w[sp->nruns++] = wall;
	return 0;
}

/* The run medians of the last run added to c (runs from index from). */
static int spread_end_run(struct spread *sp, const struct checkset_case *c, size_t from)
{
	if (from >= c->nruns)
		return 0;
	return spread_push(sp, c->rel_ok ? sample_median(c->rel + from, c->nruns - from) : NAN,
			   sample_median(c->wall + from, c->nruns - from));
}

/* ------------------------------------------------------------ window -- */

static const char window_sql[] =
	"SELECT s.case_id, s.run_id, s.rep, s.wall_ns, s.rel, " HISTORY_CASE_COLS_B
	" FROM sample s JOIN run r ON r.id = s.run_id JOIN bcase b ON b.id = s.case_id"
	" WHERE " HISTORY_CLASS_WHERE " AND r.content_hash <> :hash AND s.case_id IN"
	" (SELECT s2.case_id FROM sample s2 WHERE s2.run_id IN (SELECT r.id FROM run r WHERE "
	HISTORY_CLASS_WHERE " AND r.content_hash <> :hash ORDER BY r.id DESC LIMIT :window))"
	" ORDER BY s.case_id, s.run_id DESC, s.rep";

static const char counts_sql[] =
	"SELECT y.case_id, y.run_id, y.name, y.count FROM syscall y JOIN run r ON r.id = y.run_id"
	" WHERE " HISTORY_CLASS_WHERE " AND r.content_hash <> :hash"
	" ORDER BY y.case_id, y.run_id DESC";

static void bind_window(sqlite3_stmt *st, const struct history_folder *cur,
			const struct hcheck_opts *o)
{
	history_bind_class(st, &cur->env, o->branch);
	sqlite3_bind_text(st, sqlite3_bind_parameter_index(st, ":hash"), cur->hash, -1,
			  SQLITE_TRANSIENT);
	if (sqlite3_bind_parameter_index(st, ":window"))
		sqlite3_bind_int(st, sqlite3_bind_parameter_index(st, ":window"), o->window);
}

/* The baseline case of the row's case, added when new. NULL on ENOMEM. */
static struct checkset_case *window_case(struct window *w, sqlite3_stmt *st, int64_t cid)
{
	const char *id[COL_NIDS];

	for (int i = 0; i < COL_NIDS; i++)
		id[i] = (const char *)sqlite3_column_text(st, 5 + i);
	if (w->bs.n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 32;
		int64_t *ids = realloc(w->case_id, cap * sizeof(*ids));
		struct spread *sp;

		if (!ids)
			return NULL;
		w->case_id = ids;
		sp = realloc(w->sp, cap * sizeof(*sp));
		if (!sp)
			return NULL;
		w->sp = sp;
		w->cap = cap;
	}
	w->case_id[w->bs.n] = cid;
	memset(&w->sp[w->bs.n], 0, sizeof(*w->sp));
	return checkset_case_get(&w->bs, id);
}

/* One sample row into the window (at most o->window runs per case). */
static int window_row(struct window *w, sqlite3_stmt *st, const struct hcheck_opts *o,
		      int64_t *cur_run, size_t *run_from, size_t *nruns)
{
	int64_t cid = sqlite3_column_int64(st, 0), run = sqlite3_column_int64(st, 1);
	struct checkset_case *c = w->bs.n ? &w->bs.c[w->bs.n - 1] : NULL;
	bool new_case = !c || w->case_id[w->bs.n - 1] != cid;

	if ((new_case || run != *cur_run) && c && *nruns <= (size_t)o->window &&
	    spread_end_run(&w->sp[w->bs.n - 1], c, *run_from))
		return -ENOMEM;
	if (new_case) {
		c = window_case(w, st, cid);
		if (!c)
			return -ENOMEM;
		c->rel_ok = !checkset_is_limit(c);
		*nruns = 0;
	}
	if (new_case || run != *cur_run) {
		(*nruns)++;
		*run_from = c->nruns;
		*cur_run = run;
	}
	if (*nruns > (size_t)o->window)
		return 0;
	if (sqlite3_column_type(st, 4) == SQLITE_NULL)
		c->rel_ok = false;
	return checkset_add_run(c, (unsigned)sqlite3_column_int(st, 2),
				sqlite3_column_double(st, 3),
				c->rel_ok ? sqlite3_column_double(st, 4) : NAN);
}

static int window_runs(struct history_db *h, struct window *w,
		       const struct history_folder *cur, const struct hcheck_opts *o,
		       const struct history_io *io)
{
	sqlite3_stmt *st = history_db_prepare(h, window_sql, io);
	int64_t cur_run = -1;
	size_t run_from = 0, nruns = 0;
	int err = 0;

	if (!st)
		return -1;
	bind_window(st, cur, o);
	while (!err && sqlite3_step(st) == SQLITE_ROW)
		err = window_row(w, st, o, &cur_run, &run_from, &nruns);
	if (!err && w->bs.n && nruns <= (size_t)o->window)
		err = spread_end_run(&w->sp[w->bs.n - 1], &w->bs.c[w->bs.n - 1], run_from);
	sqlite3_finalize(st);
	for (size_t i = 0; i < w->bs.n; i++) {
		w->sp[i].s_rel = w->bs.c[i].rel_ok ? log_spread(w->sp[i].rel, w->sp[i].nruns) : 0;
		w->sp[i].s_wall = log_spread(w->sp[i].wall, w->sp[i].nruns);
	}
	return err ? -1 : 0;
}

/* The counts of the most recent run that has them, per baseline case. */
static int window_counts(struct history_db *h, struct window *w,
			 const struct history_folder *cur, const struct hcheck_opts *o,
			 const struct history_io *io)
{
	sqlite3_stmt *st = history_db_prepare(h, counts_sql, io);
	int64_t last_case = -1, first_run = -1;
	size_t k = 0;
	int err = 0;

	if (!st)
		return -1;
	bind_window(st, cur, o);
	while (!err && sqlite3_step(st) == SQLITE_ROW) {
		int64_t cid = sqlite3_column_int64(st, 0), run = sqlite3_column_int64(st, 1);

		if (cid != last_case)
			first_run = run;
		last_case = cid;
		while (k < w->bs.n && w->case_id[k] < cid)
			k++;
		if (k == w->bs.n || w->case_id[k] != cid || run != first_run)
			continue;
		err = checkset_set_count(&w->bs.c[k], (const char *)sqlite3_column_text(st, 2),
					 (uint64_t)sqlite3_column_int64(st, 3));
	}
	sqlite3_finalize(st);
	return err ? -1 : 0;
}

static void window_free(struct window *w)
{
	for (size_t i = 0; i < w->bs.n; i++) {
		free(w->sp[i].rel);
		free(w->sp[i].wall);
	}
	free(w->sp);
	free(w->case_id);
	checkset_free(&w->bs);
}

/* ----------------------------------------------------------- verdict -- */

static const char *const timing_word[] = {
	[T_NONE] = "ok", [T_OK] = "ok", [T_FASTER] = "faster",
	[T_SLOWER] = "slower", [T_REGRESSION] = "regression",
};

/* The bar a change of r must pass: the threshold or the spread, larger. */
static double row_bar(const struct check_row *r, const struct spread *sp, double threshold)
{
	double s = strcmp(r->vs, "memcpy") == 0 ? sp->s_rel : sp->s_wall;

	return fmax(threshold, exp(HISTORY_SPREAD_Z * s) - 1);
}

/* bench check's timing verdict, with changes inside the spread taken back. */
static void rejudge(struct check_row *r, const struct spread *sp)
{
	double z = HISTORY_SPREAD_Z, s = strcmp(r->vs, "memcpy") == 0 ? sp->s_rel : sp->s_wall;

	if ((r->timing == T_SLOWER || r->timing == T_REGRESSION) && r->change <= exp(z * s) - 1)
		r->timing = T_OK;
	if (r->timing == T_REGRESSION && r->abs_change <= exp(z * sp->s_wall) - 1)
		r->timing = T_SLOWER;
	if (r->timing == T_FASTER && r->change >= exp(-z * s) - 1)
		r->timing = T_OK;
}

/* The verdicts, tallies and exit code again, after rejudge. */
static void recount(struct check_report *rep, const struct check_opts *o)
{
	bool regress = false;

	memset(rep->tally, 0, sizeof(rep->tally));
	for (size_t i = 0; i < rep->nrows; i++) {
		struct check_row *r = &rep->rows[i];
		size_t v = !r->c ? V_MISSING : !r->b ? V_NEW :
			   r->timing >= T_FASTER ? V_FASTER + (size_t)(r->timing - T_FASTER) :
			   r->sc_changed ? V_SYSCALLS : V_OK;

		rep->tally[v]++;
		if (r->b && r->c && r->sc_changed && r->timing >= T_FASTER)
			rep->tally[V_SYSCALLS]++;
		if (r->b && r->c && r->sc_changed)
			snprintf(r->verdict, sizeof(r->verdict), r->timing >= T_FASTER ?
				 "%s+syscalls-changed" : "syscalls-changed", timing_word[r->timing]);
		else if (r->b && r->c)
			snprintf(r->verdict, sizeof(r->verdict), "%s", timing_word[r->timing]);
		regress |= r->timing == T_REGRESSION || (r->sc_changed && !o->ignore_syscalls);
	}
	if (rep->exit_code != 2)
		rep->exit_code = regress ? 1 : 0;
}

/* ------------------------------------------------------------ report -- */

/*
 * Copies text to out with the prefix bench check's report and warnings use
 * replaced by this command's name.
 */
static void relay(const char *text, FILE *out, const char *who)
{
	static const char prefix[] = "bench check:";
	const char *p;

	while ((p = strstr(text, prefix))) {
		fwrite(text, 1, (size_t)(p - text), out);
		fprintf(out, "%s:", who);
		text = p + sizeof(prefix) - 1;
	}
	fputs(text, out);
}

static void summarise(struct check_report *rep, const struct hcheck_opts *o, size_t nwindow)
{
	size_t len, cap = sizeof(rep->summary);
	char *s = rep->summary;

	len = (size_t)snprintf(s, cap, "%zu cases:", rep->nrows);
	for (size_t v = 0; v < V_COUNT && len < cap; v++)
		if (rep->tally[v])
			len += (size_t)snprintf(s + len, cap - len, " %zu %s,", rep->tally[v],
						verdict_name[v]);
	if (len < cap)
		snprintf(s + len, cap - len, " against up to %zu earlier runs each; a regression is significant (alpha %g, Holm), beyond %g%% and beyond %g x the run-to-run spread, relative to the in-run memcpy and in plain time; exit %d",
			 nwindow, o->c.alpha, o->c.threshold * 100, HISTORY_SPREAD_Z, rep->exit_code);
}

/* Why each case that moved was judged so: its change against its bar. */
static void explain(const struct check_report *rep, const struct window *w,
		    const struct hcheck_opts *o, const struct history_env *env, FILE *out)
{
	bool md = o->c.format == FMT_MARKDOWN;
	char text[512];

	history_env_text(env, text, sizeof(text));
	fprintf(out, "%sruns compared: %s%s%s\n", md ? "\n" : "", text,
		o->branch ? ", branch " : "", o->branch ? o->branch : "");

	for (size_t i = 0; i < rep->nrows; i++) {
		const struct check_row *r = &rep->rows[i];
		const struct spread *sp;

		if (!r->b || !r->c || !r->tested || r->timing < T_FASTER)
			continue;
		sp = &w->sp[r->b - w->bs.c];
		fprintf(out, "%s%s: %s %+.1f%% against %zu runs' median; bar %.1f%% (threshold %g%%, %g x run-to-run spread %.1f%%)\n",
			md ? "- " : "", r->label, r->verdict, r->change * 100, sp->nruns,
			row_bar(r, sp, o->c.threshold) * 100, o->c.threshold * 100,
			HISTORY_SPREAD_Z, (strcmp(r->vs, "memcpy") == 0 ? sp->s_rel : sp->s_wall) * 100);
	}
}

/* ----------------------------------------------------------- options -- */

enum { OPT_DB = 256, OPT_CURRENT, OPT_BRANCH, OPT_WINDOW, OPT_THRESHOLD, OPT_ALPHA,
       OPT_FORMAT, OPT_ALLOW_MISSING, OPT_IGNORE_SYSCALLS };

static const struct option hcheck_long_opts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "current", required_argument, NULL, OPT_CURRENT },
	{ "branch", required_argument, NULL, OPT_BRANCH },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "allow-missing", no_argument, NULL, OPT_ALLOW_MISSING },
	{ "ignore-syscalls", no_argument, NULL, OPT_IGNORE_SYSCALLS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

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

static int parse_window(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 1 || v > 1000)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* One option with a value. 0 or the exit code. */
static int hcheck_opt(struct hcheck_opts *o, int opt, const char *v, const struct history_io *io)
{
	switch (opt) {
	case OPT_DB: o->db = v; return 0;
	case OPT_CURRENT: o->c.cur = v; return 0;
	case OPT_BRANCH: o->branch = v; return 0;
	case OPT_WINDOW:
		return parse_window(v, &o->window) ? history_bad_value("window", v, "a number of runs, 1 to 1000", io) : 0;
	case OPT_THRESHOLD:
		return history_parse_pct(v, &o->c.threshold) ? history_bad_value("threshold", v, "a percentage 0-1000 like 5%", io) : 0;
	case OPT_ALPHA:
		return history_parse_alpha(v, &o->c.alpha) ? history_bad_value("alpha", v, "between 0 and 1", io) : 0;
	case OPT_FORMAT:
		return parse_format(v, &o->c.format) ? history_bad_value("format", v, "table, csv, json or markdown", io) : 0;
	case OPT_ALLOW_MISSING: o->c.allow_missing = true; return 0;
	case OPT_IGNORE_SYSCALLS: o->c.ignore_syscalls = true; return 0;
	}
	return 2;
}

/* 0, -1 after --help, or the exit code. */
static int hcheck_parse(struct hcheck_opts *o, int argc, char **argv,
			const struct history_io *io)
{
	int opt, ret;

	*o = (struct hcheck_opts){ .db = HISTORY_DEFAULT_DB, .window = 10,
				   .c = { .threshold = 0.05, .alpha = 0.01 } };
	opterr = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, ":h", hcheck_long_opts, NULL)) != -1) {
		if (opt == 'h')
			return history_help(io), -1;
		if (opt == '?' || opt == ':')
			return history_bad_option(opt, hcheck_long_opts, argv, io);
		ret = hcheck_opt(o, opt, optarg, io);
		if (ret)
			return ret;
	}
	if (optind < argc)
		return history_unexpected(argv[optind], io);
	if (!o->c.cur) {
		fprintf(io->err, "%s: --current DIR is required (see bench history --help)\n", io->who);
		return 2;
	}
	return 0;
}

/* --------------------------------------------------------------- CLI -- */

/* The most earlier runs any case was compared with. */
static size_t window_depth(const struct window *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->bs.n; i++)
		if (w->sp[i].nruns > n)
			n = w->sp[i].nruns;
	return n;
}

/* Compares, rejudges and prints. The exit code. */
static int hcheck_report(struct window *w, const struct history_folder *cur,
			 const struct hcheck_opts *o, const struct history_io *io)
{
	struct check_report rep;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int ret = 1;

	if (!mem)
		return 1;
	if (check_compare(&w->bs, &cur->set, &o->c, &rep, mem)) {
		fclose(mem);
		free(text);
		return 1;
	}
	for (size_t i = 0; i < rep.nrows; i++)
		if (rep.rows[i].b && rep.rows[i].c && rep.rows[i].tested)
			rejudge(&rep.rows[i], &w->sp[rep.rows[i].b - w->bs.c]);
	recount(&rep, &o->c);
	summarise(&rep, o, window_depth(w));
	fclose(mem);
	relay(text, io->err, io->who);
	free(text);
	mem = open_memstream(&text, &len);
	if (mem) {
		check_print(&rep, &o->c, mem);
		fclose(mem);
		relay(text, io->out, io->who);
		free(text);
		if (o->c.format == FMT_TABLE || o->c.format == FMT_MARKDOWN)
			explain(&rep, w, o, &cur->env, io->out);
		ret = rep.exit_code;
	}
	free(rep.rows);
	return ret;
}

int history_check_cli(int argc, char **argv, const struct history_io *io)
{
	struct hcheck_opts o;
	struct history_folder cur;
	struct window w = { 0 };
	struct history_db h;
	int ret = hcheck_parse(&o, argc, argv, io);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (history_folder_load(&cur, o.c.cur, io))
		return 2;
	ret = 2;
	if (!cur.set.n) {
		fprintf(io->err, "%s: %s: no cases in it\n", io->who, o.c.cur);
		goto out_free_cur;
	}
	if (history_db_open(&h, o.db, false, io))
		goto out_free_cur;
	if (window_runs(&h, &w, &cur, &o, io) || window_counts(&h, &w, &cur, &o, io)) {
		fprintf(io->err, "%s: %s: reading the history failed\n", io->who, o.db);
		goto out_close;
	}
	if (!w.bs.n)
		fprintf(io->err, "%s: note: no earlier run in the history on this host, kernel, filesystem and build%s: every case is new\n", io->who, o.branch ? " and branch" : "");
	ret = hcheck_report(&w, &cur, &o, io);
out_close:
	window_free(&w);
	history_db_close(&h);
out_free_cur:
	history_folder_free(&cur);
	return ret;
}
