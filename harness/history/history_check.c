// SPDX-License-Identifier: MIT
/*
 * history_check.c - `bench history check --current DIR`: each case of a new
 * run against its last N runs made on the same host, kernel, filesystem and
 * build (and branch, when asked).
 *
 * One figure per run and case: its fastest verified rep. A run can only be
 * slowed down (by a neighbour, an interrupt, the page cache), so the fastest
 * of its reps is the figure least disturbed; a change in the code moves
 * every rep, the fastest too. Medians move with the disturbances: on this
 * project's shared development machine a quarter of the runs of one build
 * had their medians 10-50% off, their fastest reps mostly not
 * (docs/history.md has the figures).
 *
 * The window's figures give the case's level (their median) and how far a
 * run's figure wanders from it: s, the robust standard deviation (1.4826 x
 * the median absolute deviation) of their logs. A case is judged, as in
 * `bench check`, relative to its folder's in-run memcpy (so that a machine
 * that got slower as a whole cancels out) AND in plain time (so that a
 * disturbed memcpy does not cry wolf). In each the change is measured
 * against the spread, e^(Z s) - 1, Z being --spread:
 *   regression        both slower beyond the spread and beyond --threshold
 *                     (never for a machine-limit row, which is no code)
 *   slower / faster   both beyond the spread, one way, not a regression
 *   ok                either inside its spread
 * and, as a gate, each ends in one of three outcomes: a regression; no
 * regression, when the upper end of the change (its one-sided 99 %
 * prediction bound over the window, history_upper) is below the case's
 * bar in either; or inconclusive, neither (exit 3).
 * A timing needs HISTORY_MIN_WINDOW earlier runs: fewer give no spread, and
 * such a case is inconclusive. The spread of a small window is corrected
 * for its size (history_spread_factor): 1.4826 MAD alone is too small.
 * System calls, new and missing cases are `bench check`'s (check.c): the
 * counts are compared exactly with those of the most recent run that has
 * them.
 */
#include "history_internal.h"
#include "check/check.h"
#include "lib/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Earlier runs a case needs before its timing is judged. */
#define HISTORY_MIN_WINDOW 3

/* The earlier runs: per case, one figure per run (bs), their spreads. */
struct window {
	struct checkset bs;	/* wall, rel: the fastest rep of each run */
	int64_t *case_id;	/* bs.c[i] is bcase case_id[i] */
	double *s_rel, *s_wall;	/* per case of bs */
	size_t cap;
};

/* ------------------------------------------------------------ spread -- */

/*
 * What 1.4826 MAD is multiplied by so that, from n normal values, its
 * median is the sd: from 3 runs 1.4826 MAD has a median of 0.54 sd, from 10
 * 0.88 sd. By simulation, 200 000 samples of n standard normal values per
 * n (docs/history.md); above 12, 1 + 1.2 / n is within 0.5 % of it.
 */
double history_spread_factor(size_t n)
{
	static const double f[] = { 1, 1, 1.420, 1.864, 1.489, 1.340, 1.261, 1.208,
				    1.180, 1.149, 1.136, 1.117, 1.106 };

	return n < sizeof(f) / sizeof(f[0]) ? f[n] : 1 + 1.2 / (double)n;
}

/* 1.4826 x the median absolute deviation of log(v), corrected for n: a
 * robust sd. */
double history_log_spread(const double *v, size_t n)
{
	double *l = malloc((n + 1) * sizeof(*l)), m, s;

	if (!l || n < 2) {
		free(l);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		l[i] = log(v[i]);
	m = stats_sample_median(l, n);
	for (size_t i = 0; i < n; i++)
		l[i] = fabs(l[i] - m);
	s = STATS_MAD_TO_SD * stats_sample_median(l, n) * history_spread_factor(n);
	free(l);
	return isnan(s) ? 0 : s;
}

/* ------------------------------------------------------------ window -- */

/* Per case and run, newest first: the fastest rep, in ns and relative. */
static const char window_sql[] =
	"SELECT s.case_id, s.run_id, MIN(s.wall_ns), MIN(s.rel), COUNT(s.rel) = COUNT(*), "
	HISTORY_CASE_COLS_B
	" FROM sample s JOIN run r ON r.id = s.run_id JOIN bcase b ON b.id = s.case_id"
	" WHERE " HISTORY_CLASS_WHERE " AND r.content_hash <> :hash AND s.case_id IN"
	" (SELECT s2.case_id FROM sample s2 WHERE s2.run_id IN (SELECT r.id FROM run r WHERE "
	HISTORY_CLASS_WHERE " AND r.content_hash <> :hash ORDER BY r.id DESC LIMIT :window))"
	" GROUP BY s.case_id, s.run_id ORDER BY s.case_id, s.run_id DESC";

static const char counts_sql[] =
	"SELECT y.case_id, y.run_id, y.name, y.count FROM syscall y JOIN run r ON r.id = y.run_id"
	" WHERE " HISTORY_CLASS_WHERE " AND r.content_hash <> :hash"
	" ORDER BY y.case_id, y.run_id DESC";

static void bind_window(sqlite3_stmt *st, const struct history_folder *cur,
			const struct history_check_opts *o)
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
	struct checkset_case *c;

	for (int i = 0; i < COL_NIDS; i++)
		id[i] = (const char *)sqlite3_column_text(st, 5 + i);
	if (w->bs.n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 32;
		int64_t *ids = realloc(w->case_id, cap * sizeof(*ids));

		if (!ids)
			return NULL;
		w->case_id = ids;
		w->cap = cap;
	}
	w->case_id[w->bs.n] = cid;
	c = checkset_case_get(&w->bs, id);
	if (c)
		c->rel_ok = !checkset_is_limit(c);
	return c;
}

/* One run's figure into the window, at most o->window runs per case. */
static int window_row(struct window *w, sqlite3_stmt *st, const struct history_check_opts *o)
{
	int64_t cid = sqlite3_column_int64(st, 0);
	struct checkset_case *c = w->bs.n ? &w->bs.c[w->bs.n - 1] : NULL;

	if (!c || w->case_id[w->bs.n - 1] != cid) {
		c = window_case(w, st, cid);
		if (!c)
			return -ENOMEM;
	}
	if (c->nruns >= (size_t)o->window)
		return 0;
	if (!sqlite3_column_int(st, 4))
		c->rel_ok = false;
	return checkset_add_run(c, (unsigned)(c->nruns + 1), sqlite3_column_double(st, 2),
				c->rel_ok ? sqlite3_column_double(st, 3) : NAN);
}

static int window_runs(struct history_db *h, struct window *w,
		       const struct history_folder *cur, const struct history_check_opts *o,
		       const struct history_io *io)
{
	sqlite3_stmt *st = history_db_prepare(h, window_sql, io);
	int err = 0;

	if (!st)
		return -1;
	bind_window(st, cur, o);
	while (!err && sqlite3_step(st) == SQLITE_ROW)
		err = window_row(w, st, o);
	sqlite3_finalize(st);
	w->s_rel = calloc(w->bs.n + 1, sizeof(double));
	w->s_wall = calloc(w->bs.n + 1, sizeof(double));
	if (err || !w->s_rel || !w->s_wall)
		return -1;
	for (size_t i = 0; i < w->bs.n; i++) {
		const struct checkset_case *c = &w->bs.c[i];

		w->s_rel[i] = c->rel_ok ? history_log_spread(c->rel, c->nruns) : 0;
		w->s_wall[i] = history_log_spread(c->wall, c->nruns);
	}
	return 0;
}

/* The counts of the most recent run that has them, per baseline case. */
static int window_counts(struct history_db *h, struct window *w,
			 const struct history_folder *cur, const struct history_check_opts *o,
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
	free(w->s_rel);
	free(w->s_wall);
	free(w->case_id);
	checkset_free(&w->bs);
}

/* The new run as the window sees runs: each case's fastest rep, its counts. */
static int current_figures(const struct checkset *in, struct checkset *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < in->n; i++) {
		const struct checkset_case *a = &in->c[i];
		struct checkset_case *c = checkset_case_get(out, (const char *const *)a->id);
		size_t best = 0;

		if (!c)
			return -ENOMEM;
		for (size_t k = 1; k < a->nruns; k++)
			if (a->wall[k] < a->wall[best])
				best = k;
		c->rel_ok = a->rel_ok;
		if (a->nruns && checkset_add_run(c, 1, a->wall[best], a->rel_ok ? a->rel[best] : NAN))
			return -ENOMEM;
		if (a->has_total && checkset_set_count(c, "total", a->total))
			return -ENOMEM;
		for (size_t k = 0; k < a->ncounts; k++)
			if (checkset_set_count(c, a->counts[k].name, a->counts[k].count))
				return -ENOMEM;
	}
	return 0;
}

/* ----------------------------------------------------------- verdict -- */

static const char *const timing_word[] = {
	[T_NONE] = "ok", [T_OK] = "ok", [T_FASTER] = "faster",
	[T_SLOWER] = "slower", [T_REGRESSION] = "regression",
};

/* The upper end of a change measured against n earlier runs whose logs
 * spread by s: the one-sided 99 % prediction bound t(n - 1) s sqrt(1 + 1/n)
 * above it. */
static double history_upper(double change, double s, size_t n)
{
	return expm1(log1p(change) + check_t99(n - 1) * s * sqrt(1 + 1.0 / (double)n));
}

/* The timing of a row whose case has enough earlier runs. */
static void judge(struct check_row *r, double s_rel, double s_wall, const struct history_check_opts *o)
{
	const struct checkset_case *b = r->b, *c = r->c;
	bool limit = checkset_is_limit(b), rel = !limit && b->rel_ok && c->rel_ok;
	double s = rel ? s_rel : s_wall;
	bool up, up_abs, down, down_abs, beyond;

	r->tested = true;
	r->vs = rel ? "memcpy" : "absolute";
	r->b_med = stats_sample_median(b->wall, b->nruns);
	r->c_med = c->wall[0];
	r->b_val = rel ? stats_sample_median(b->rel, b->nruns) : r->b_med;
	r->c_val = rel ? c->rel[0] : r->c_med;
	r->change = r->c_val / r->b_val - 1;
	r->abs_change = r->c_med / r->b_med - 1;
	up = r->change > exp(o->z * s) - 1;
	up_abs = r->abs_change > exp(o->z * s_wall) - 1;
	down = r->change < exp(-o->z * s) - 1;
	down_abs = r->abs_change < exp(-o->z * s_wall) - 1;
	r->threshold = fmax(o->c.threshold, exp(o->z * s) - 1);
	beyond = r->change > o->c.threshold && r->abs_change > o->c.threshold;
	if (up && up_abs)
		r->timing = beyond && !limit ? T_REGRESSION : T_SLOWER;
	else if (down && down_abs)
		r->timing = T_FASTER;
	else
		r->timing = T_OK;
	r->upper = history_upper(r->change, s, b->nruns);
	r->abs_upper = history_upper(r->abs_change, s_wall, b->nruns);
	r->cleared = limit || fmin(r->upper, r->abs_upper) < r->threshold;
	r->inconclusive = r->timing != T_REGRESSION && !r->cleared;
}

/* The verdicts, tallies and exit code of the rows. */
static void recount(struct check_report *rep, const struct check_opts *o)
{
	bool regress = false, unsure = false;

	memset(rep->tally, 0, sizeof(rep->tally));
	for (size_t i = 0; i < rep->nrows; i++) {
		struct check_row *r = &rep->rows[i];
		size_t v = !r->c ? V_MISSING : !r->b ? V_NEW : r->inconclusive ? V_INCONCLUSIVE :
			   r->timing >= T_FASTER ? V_FASTER + (size_t)(r->timing - T_FASTER) :
			   r->sc_changed ? V_SYSCALLS : V_OK;
		const char *word = r->inconclusive ? "inconclusive" : timing_word[r->timing];
		bool shown = r->inconclusive || r->timing >= T_FASTER;

		rep->tally[v]++;
		if (r->b && r->c && r->sc_changed && shown)
			rep->tally[V_SYSCALLS]++;
		if (r->b && r->c && r->sc_changed)
			snprintf(r->verdict, sizeof(r->verdict), shown ?
				 "%s+syscalls-changed" : "syscalls-changed", word);
		else if (r->b && r->c)
			snprintf(r->verdict, sizeof(r->verdict), "%s", word);
		regress |= r->timing == T_REGRESSION || (r->sc_changed && !o->ignore_syscalls);
		unsure |= r->inconclusive;
	}
	rep->outcome = regress ? OUTCOME_REGRESSION : unsure ? OUTCOME_INCONCLUSIVE :
		       OUTCOME_NO_REGRESSION;
	rep->exit_code = rep->tally[V_MISSING] && !o->allow_missing ? 2 : regress ? 1 :
			 unsure ? CHECK_EXIT_INCONCLUSIVE : 0;
}

/* ------------------------------------------------------------ report -- */

/*
 * Copies text[0..n) to out with the prefix bench check's report and
 * messages use replaced by this command's name.
 */
static void relay_n(const char *text, size_t n, FILE *out, const char *who)
{
	static const char prefix[] = "bench check:";
	const char *end = text + n, *p;

	while ((p = memmem(text, (size_t)(end - text), prefix, sizeof(prefix) - 1))) {
		fwrite(text, 1, (size_t)(p - text), out);
		fprintf(out, "%s:", who);
		text = p + sizeof(prefix) - 1;
	}
	fwrite(text, 1, (size_t)(end - text), out);
}

static void summarise(struct check_report *rep, const struct history_check_opts *o, size_t nwindow)
{
	size_t len, cap = sizeof(rep->summary);
	char *s = rep->summary;

	len = (size_t)snprintf(s, cap, "%zu cases:", rep->nrows);
	for (size_t v = 0; v < V_COUNT && len < cap; v++)
		if (rep->tally[v])
			len += (size_t)snprintf(s + len, cap - len, " %zu %s,", rep->tally[v],
						check_verdict_name[v]);
	if (len < cap)
		snprintf(s + len, cap - len, " each run's fastest rep against up to %zu earlier runs; a regression is beyond %g%% and beyond %g x the run-to-run spread, relative to the in-run memcpy and in plain time; %s; exit %d",
			 nwindow, o->c.threshold * 100, o->z, check_outcome_name[rep->outcome],
			 rep->exit_code);
}

/* Why each case that moved was judged so: its changes against their bars. */
static void explain(const struct check_report *rep, const struct window *w,
		    const struct history_check_opts *o, const struct history_env *env, FILE *out)
{
	bool md = o->c.format == FMT_MARKDOWN;
	char text[512];

	history_env_text(env, text, sizeof(text));
	fprintf(out, "%sruns compared: %s%s%s\n", md ? "\n" : "", text,
		o->branch ? ", branch " : "", o->branch ? o->branch : "");
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct check_row *r = &rep->rows[i];
		size_t k;
		bool rel;

		if (!r->b || !r->c || !r->tested || r->timing < T_FASTER)
			continue;
		k = (size_t)(r->b - w->bs.c);
		rel = strcmp(r->vs, "memcpy") == 0;
		fprintf(out, "%s%s: %s: fastest rep %+.1f%% %s (bar %.1f%%)", md ? "- " : "", r->label,
			r->verdict, r->change * 100, rel ? "relative to memcpy" : "in plain time",
			fmax(o->c.threshold, exp(o->z * (rel ? w->s_rel[k] : w->s_wall[k])) - 1) * 100);
		if (rel)
			fprintf(out, ", %+.1f%% in plain time (bar %.1f%%)", r->abs_change * 100,
				fmax(o->c.threshold, exp(o->z * w->s_wall[k]) - 1) * 100);
		fprintf(out, ", against the median of %zu runs\n", r->b->nruns);
	}
}

/* --------------------------------------------------------------- run -- */

/* The most earlier runs any case was compared with. */
static size_t window_depth(const struct window *w)
{
	size_t n = 0;

	for (size_t i = 0; i < w->bs.n; i++)
		if (w->bs.c[i].nruns > n)
			n = w->bs.c[i].nruns;
	return n;
}

/*
 * bench check's rows: system calls, new and missing cases. Its complaint
 * that no case has counts on both sides is left out: here that only means
 * counting was unavailable, and the timings are still judged.
 */
static int compare_rows(const struct window *w, const struct checkset *cs,
			const struct history_check_opts *o, struct check_report *rep,
			const struct history_io *io)
{
	char *text = NULL, *line, *next;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int err;

	if (!mem)
		return -ENOMEM;
	err = check_compare(&w->bs, cs, &o->c, rep, mem);
	fclose(mem);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (!strstr(line, "no case has system-call counts on both sides"))
			relay_n(line, (size_t)(next - line), io->err, io->who);
	}
	free(text);
	return err;
}

/* Compares, judges and prints. The exit code. */
static int hcheck_report(const struct window *w, const struct history_folder *cur,
			 const struct history_check_opts *o, const struct history_io *io)
{
	struct check_report rep;
	struct checkset cs;
	char *text = NULL;
	size_t len = 0, k, untimed = 0;
	FILE *mem;
	int ret = 1;

	if (current_figures(&cur->set, &cs) || compare_rows(w, &cs, o, &rep, io))
		goto out_free_cs;
	for (size_t i = 0; i < rep.nrows; i++) {
		struct check_row *r = &rep.rows[i];

		if (!r->b || !r->c || !r->c->nruns)
			continue;
		k = (size_t)(r->b - w->bs.c);
		if (r->b->nruns >= HISTORY_MIN_WINDOW) {
			judge(r, w->s_rel[k], w->s_wall[k], o);
			continue;
		}
		r->inconclusive = true;
		r->upper = r->abs_upper = INFINITY;
		untimed++;
	}
	if (untimed)
		fprintf(io->err, "%s: note: %zu cases have fewer than %d earlier runs: their timing is not judged yet (inconclusive)\n", io->who, untimed, HISTORY_MIN_WINDOW);
	recount(&rep, &o->c);
	summarise(&rep, o, window_depth(w));
	mem = open_memstream(&text, &len);
	if (mem) {
		check_print(&rep, &o->c, mem);
		fclose(mem);
		relay_n(text, len, io->out, io->who);
		free(text);
		if (o->c.format == FMT_TABLE || o->c.format == FMT_MARKDOWN)
			explain(&rep, w, o, &cur->env, io->out);
		ret = rep.exit_code;
	}
	free(rep.rows);
out_free_cs:
	checkset_free(&cs);
	return ret;
}

int history_check(const struct history_check_opts *o, const struct history_io *io)
{
	struct history_folder cur;
	struct window w = { 0 };
	struct history_db h;
	int ret;

	if (history_folder_load(&cur, o->c.cur[0], io))
		return 2;
	ret = 2;
	if (!cur.set.n) {
		fprintf(io->err, "%s: %s: no cases in it\n", io->who, o->c.cur[0]);
		goto out_free_cur;
	}
	if (history_db_open(&h, o->db, false, io))
		goto out_free_cur;
	if (window_runs(&h, &w, &cur, o, io) || window_counts(&h, &w, &cur, o, io)) {
		fprintf(io->err, "%s: %s: reading the history failed\n", io->who, o->db);
		goto out_close;
	}
	if (!w.bs.n)
		fprintf(io->err, "%s: note: no earlier run in the history on this host, kernel, filesystem and build%s: every case is new\n", io->who, o->branch ? " and branch" : "");
	ret = hcheck_report(&w, &cur, o, io);
out_close:
	window_free(&w);
	history_db_close(&h);
out_free_cur:
	history_folder_free(&cur);
	return ret;
}
