// SPDX-License-Identifier: MIT
/*
 * check.c - the heart of `bench check`: compare the current results with a
 * baseline and say, case by case, whether copying got slower or makes other
 * system calls.
 *
 * Timing is judged so that shared CI runners, whose speed drifts by several
 * percent between invocations (every case together), do not cry wolf:
 *  - by default (--vs cases) a case's current runs are divided by the
 *    common change of the OTHER cases of the check: the median, over them,
 *    of current median / baseline median. A machine that got slower as a
 *    whole cancels out; one case that got slower does not move the median
 *    of the others. With fewer than REF_CASES_MIN other cases, or with
 *    --vs memcpy, each side is divided by its in-run limit/memcpy row
 *    instead; --vs absolute compares plain times.
 *  - the per-run samples of both sides go through a one-sided Mann-Whitney
 *    U test (ranktest.c), with Holm's correction over all cases, and a case
 *    is a `regression` only when the test is significant (p < alpha) AND
 *    the median slowed down by more than the case's threshold, both
 *    relative to the reference and in plain time. A case's threshold is
 *    --threshold (5 %) or, for a case whose own runs spread more, NOISE_K
 *    times its robust spread (1.4826 MAD / median, the larger side's): a
 *    case that varies by s within one invocation drifts by about 2 s
 *    between invocations on a VM (docs/noise.md).
 *  - a change every copy case shares cancels out of the per-case verdicts,
 *    so it is judged on its own against memcpy (judge_shared): a shared
 *    slowdown that memcpy did not show fails the check; one memcpy shows
 *    too is the machine.
 *  - as a gate the check ends in one of three outcomes (docs/check.md): a
 *    regression (exit 1); no regression (exit 0), every judged case's
 *    one-sided upper bound of its change (upper_bound) below its threshold;
 *    or inconclusive (exit 3), neither, or a shared change the machine made
 *    too. A case with two modes is judged on its slow-run share as well
 *    (compare_modes).
 * System-call counts are deterministic, so any difference is reported
 * exactly, as its own verdict.
 */
#include "check.h"
#include "ranktest.h"
#include "stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const verdict_name[V_COUNT] = {
	"ok", "faster", "slower", "regression", "inconclusive", "syscalls-changed",
	"syscalls-missing", "failed", "missing", "new",
};

const char *const outcome_name[3] = {
	[OUTCOME_NO_REGRESSION] = "no regression", [OUTCOME_REGRESSION] = "regression",
	[OUTCOME_INCONCLUSIVE] = "inconclusive",
};

#define NOISE_K 2.0
/* The common change needs this many other cases; else --vs memcpy. With
 * three, one case that moved cannot move their median. */
#define REF_CASES_MIN 3

static const char *const timing_word[] = {
	[T_NONE] = "ok", [T_OK] = "ok", [T_FASTER] = "faster",
	[T_SLOWER] = "slower", [T_REGRESSION] = "regression",
};

/* ----------------------------------------------------- comparison -- */

/* Says once per sample-size pair that alpha cannot be reached. */
static void warn_unreachable(struct check_report *rep, size_t nb, size_t nc,
			     double alpha, size_t ntests, FILE *err)
{
	double minp = rank_min_p(nb, nc);

	if (minp * (double)ntests < alpha)
		return;
	rep->unreachable = true;
	for (size_t i = 0; i < rep->nsaid; i++)
		if (rep->said[i][0] == nb && rep->said[i][1] == nc)
			return;
	if (rep->nsaid < 16) {
		rep->said[rep->nsaid][0] = nb;
		rep->said[rep->nsaid++][1] = nc;
	}
	fprintf(err, "bench check: %s: with %zu baseline and %zu current runs the smallest possible p-value is %.3g (%.3g corrected for %zu cases), not below alpha %g: no timing change can be significant (record more runs: bench's default records at least 8)\n",
		rep->ci ? "error" : "warning", nb, nc, minp, minp * (double)ntests, ntests, alpha);
}

/* Robust spread of n walls: 1.4826 MAD / median (0 when it cannot say). */
static double robust_spread(const double *w, size_t n)
{
	struct stats st;

	stats_compute(w, n, &st);
	return n > 2 ? st.rcv : 0;
}

/* The median of the other rows' plain ratios (non-limit rows with runs on
 * both sides); NAN with fewer than REF_CASES_MIN of them. */
static double common_ratio(const struct check_report *rep, const struct check_row *self)
{
	double *v = calloc(rep->nrows + 1, sizeof(*v)), m = NAN;
	size_t n = 0;

	for (size_t i = 0; v && i < rep->nrows; i++) {
		const struct check_row *o = &rep->rows[i];

		if (o != self && o->b && o->c && !checkset_is_limit(o->b) && isfinite(o->ratio))
			v[n++] = o->ratio;
	}
	if (n >= REF_CASES_MIN)
		m = sample_median(v, n);
	free(v);
	return m;
}

/* What the case is compared relative to; *cx gets the current runs scaled
 * by the other cases' common change when that is the reference. */
static const char *reference_samples(const struct check_report *rep, struct check_row *r,
				     const struct check_opts *o, double **cx)
{
	const struct checkset_case *b = r->b, *c = r->c;
	double scale;

	if (o->ref == REF_ABSOLUTE || checkset_is_limit(b))
		return "absolute";
	scale = o->ref == REF_CASES ? common_ratio(rep, r) : NAN;
	if (isfinite(scale) && scale > 0) {
		*cx = malloc(c->nruns * sizeof(**cx));
		for (size_t k = 0; *cx && k < c->nruns; k++)
			(*cx)[k] = c->wall[k] / scale;
		return *cx ? "cases" : "absolute";
	}
	return b->rel_ok && c->rel_ok ? "memcpy" : "absolute";
}

/*
 * The invocation as the unit. Runs of one invocation share its machine state,
 * so their p-values say nothing about the drift between invocations. With
 * several baseline invocations (one per --baseline path) a case's medians
 * give that drift, sd of ln(median) over them; the current median is then
 * one more draw, and its change must exceed the one-sided 99 % prediction
 * bound t(k-1) sd sqrt(1/k + 1/m) (k baseline, m current invocations) as well
 * as the threshold. With one invocation per side no drift is known: the
 * report says what spread a change would need (needed_spread).
 */

/* Student's t, one-sided 99 %, for df degrees of freedom (rounded to the
 * safe side between the tabulated ones). */
double check_t99(size_t df)
{
	static const double t[] = { 0, 31.821, 6.965, 4.541, 3.747, 3.365, 3.143, 2.998,
				    2.896, 2.821, 2.764 };

	if (df < sizeof(t) / sizeof(t[0]))
		return t[df];
	return df < 15 ? 2.718 : df < 20 ? 2.602 : df < 30 ? 2.528 : df < 1000 ? 2.457 : 2.326;
}

static void between_invocations(struct check_row *r, const struct check_opts *o)
{
	double lm[CHECK_MAX_PATHS], mean = 0, ss = 0, bound;
	size_t k = 0;

	r->between = NAN;
	for (size_t i = 0; i < o->nbase_inv; i++) {
		const struct checkset_case *c = checkset_find(&o->base_inv[i], r->b);

		if (c && c->nruns)
			lm[k++] = log(sample_median(c->wall, c->nruns));
	}
	r->ninv = k;
	if (k < 2)
		return;
	for (size_t i = 0; i < k; i++)
		mean += lm[i] / (double)k;
	for (size_t i = 0; i < k; i++)
		ss += (lm[i] - mean) * (lm[i] - mean);
	r->between = sqrt(ss / (double)(k - 1));
	bound = check_t99(k - 1) * r->between * sqrt(1.0 / (double)k + 1.0 / (double)(o->ncur ? o->ncur : 1));
	r->threshold = fmax(r->threshold, expm1(bound));
}

/* The between-invocation sd under which change c would pass that bound
 * with one invocation per side (t for large df: the drift is unknown). */
static double needed_spread(double c)
{
	return fabs(log1p(c)) / (check_t99(1000) * sqrt(2.0));
}

static void note_largest(struct check_report *rep, const struct check_opts *o)
{
	rep->needed_sd = NAN;
	if (o->nbase != 1 || o->ncur != 1 || o->only_syscalls)
		return;
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct check_row *r = &rep->rows[i];

		if (r->tested && !checkset_is_limit(r->b) &&
		    (!rep->largest || fabs(r->change) > fabs(rep->largest->change)))
			rep->largest = r;
	}
	if (rep->largest)
		rep->needed_sd = needed_spread(rep->largest->change);
}

/* p_less of x / (1 + e^l - 1) against y: is x, scaled down by e^l, smaller? */
static double p_scaled_less(const double *x, double *tmp, size_t n, const double *y, size_t m,
			    double l)
{
	struct rank_result rr;

	for (size_t i = 0; i < n; i++)
		tmp[i] = x[i] / exp(l);
	return rank_mann_whitney(tmp, n, y, m, &rr) ? 1 : rr.p_less;
}

/*
 * The one-sided (1 - alpha) upper confidence bound of the change of x
 * against y: the smallest d such that the rank test finds x / (1 + d)
 * smaller than y at alpha (the test inverted, as a Hodges-Lehmann bound
 * is). A true change at or above it would be seen with probability at most
 * alpha. INFINITY when the runs are too few for any bound. Bisection in
 * ln(1 + d) between the extreme ratios, where p moves only at a ratio
 * x_i / y_j, to 1e-6.
 */
static double upper_bound(const double *x, size_t n, const double *y, size_t m, double alpha)
{
	double *tmp = malloc((n + 1) * sizeof(*tmp)), lo = INFINITY, hi = -INFINITY;

	if (!tmp || !n || !m || rank_min_p(n, m) >= alpha) {
		free(tmp);
		return INFINITY;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++) {
			lo = fmin(lo, log(x[i] / y[j]));
			hi = fmax(hi, log(x[i] / y[j]));
		}
	lo -= 1e-3;
	hi += 1e-3;
	if (!(p_scaled_less(x, tmp, n, y, m, hi) < alpha)) {
		free(tmp);
		return INFINITY;
	}
	while (hi - lo > 1e-6) {
		double mid = (lo + hi) / 2;

		if (p_scaled_less(x, tmp, n, y, m, mid) < alpha)
			hi = mid;
		else
			lo = mid;
	}
	free(tmp);
	return expm1(hi);
}

/* Change, threshold and the raw one-sided p-values of a case. */
static void compare_timing(const struct check_report *rep, struct check_row *r,
			   const struct check_opts *o, FILE *err)
{
	const struct checkset_case *b = r->b, *c = r->c;
	double *scaled = NULL;
	const char *vs = reference_samples(rep, r, o, &scaled);
	bool rel = strcmp(vs, "memcpy") == 0;
	const double *x = scaled ? scaled : rel ? c->rel : c->wall;
	const double *y = rel ? b->rel : b->wall;
	struct rank_result rr;

	if (!r->nb || !r->nc || rank_mann_whitney(x, r->nc, y, r->nb, &rr))
		goto out_free;
	if (o->ref != REF_ABSOLUTE && !checkset_is_limit(b) && strcmp(vs, "absolute") == 0)
		fprintf(err, "bench check: warning: no reference for %s (too few other cases, no in-run memcpy): compared in absolute time\n", r->label);
	r->vs = vs;
	r->b_val = sample_median(y, r->nb);
	r->c_val = sample_median(x, r->nc);
	r->change = r->c_val / r->b_val - 1;
	r->pg = rr.p_greater;
	r->pl = rr.p_less;
	r->tested = true;
	r->threshold = fmax(o->threshold, NOISE_K * fmax(robust_spread(b->wall, r->nb),
							 robust_spread(c->wall, r->nc)));
	if (o->nbase_inv > 1 && !checkset_is_limit(b))
		between_invocations(r, o);
	r->abs_change = r->change;
	r->abs_pg = r->pg;
	r->abs_pl = r->pl;
	r->upper = r->abs_upper = upper_bound(x, r->nc, y, r->nb, o->alpha);
	if (x != c->wall && !rank_mann_whitney(c->wall, r->nc, b->wall, r->nb, &rr)) {
		r->abs_change = r->c_med / r->b_med - 1;
		r->abs_pg = rr.p_greater;
		r->abs_pl = rr.p_less;
		r->abs_upper = upper_bound(c->wall, r->nc, b->wall, r->nb, o->alpha);
	}
out_free:
	free(scaled);
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

/* P(X >= k) for X hypergeometric: k or more of the K slow runs among the n
 * current ones, of N runs in all (Fisher's exact test, one-sided). */
static double fisher_greater(size_t k, size_t n, size_t K, size_t N)
{
	double p = 0;

	for (size_t x = k; x <= n && x <= K; x++) {
		if (K - x > N - n)
			continue;
		p += exp(lgamma((double)K + 1) - lgamma((double)x + 1) - lgamma((double)(K - x) + 1) +
			 lgamma((double)(N - K) + 1) - lgamma((double)(n - x) + 1) -
			 lgamma((double)(N - K - (n - x)) + 1) - lgamma((double)N + 1) +
			 lgamma((double)n + 1) + lgamma((double)(N - n) + 1));
	}
	return fmin(1, p);
}

/*
 * A case with two modes on either side: a regression that makes the slow
 * mode more frequent, but still less than half of the runs, leaves the
 * median, and much of the rank test, where they were. So the share is
 * judged too: the runs above the cut between the modes (the geometric mean
 * of their medians), per side; Fisher's exact test for a larger share now;
 * and the change of the mean time that share moves, (share now - share
 * before) x (slow / fast - 1). A significant share (alpha over the tested
 * cases, Bonferroni) moving the mean beyond the threshold is a regression.
 */
static void compare_modes(struct check_row *r, const struct check_opts *o, size_t ntests)
{
	const struct modes *m = r->c_modes.count == 2 ? &r->c_modes : &r->b_modes;

	if ((r->b_modes.count != 2 && r->c_modes.count != 2) || !r->nb || !r->nc)
		return;
	r->share_judged = true;
	r->cut = sqrt(m->fast_median * m->slow_median);
	for (size_t i = 0; i < r->nb; i++)
		r->b_slow += r->b->wall[i] > r->cut;
	for (size_t i = 0; i < r->nc; i++)
		r->c_slow += r->c->wall[i] > r->cut;
	r->share_change = ((double)r->c_slow / (double)r->nc - (double)r->b_slow / (double)r->nb) *
			  (m->slow_median / m->fast_median - 1);
	r->share_p = fisher_greater(r->c_slow, r->nc, r->b_slow + r->c_slow, r->nb + r->nc);
	if (r->timing != T_REGRESSION && r->share_p * (double)(ntests ? ntests : 1) < o->alpha &&
	    r->share_change > r->threshold && (o->ref == REF_ABSOLUTE || !checkset_is_limit(r->b))) {
		r->timing = T_REGRESSION;
		r->by_share = true;
		r->inconclusive = false;
	}
}

/* The verdict from the (adjusted) p-values, the change and the threshold. */
static void judge_timing(struct check_row *r, const struct check_opts *o)
{
	bool limit = checkset_is_limit(r->b);

	r->p = r->pg < r->pl ? r->pg : r->pl;
	/*
	 * A regression is slower beyond the threshold relative to the
	 * reference AND in plain time. The reference cancels a machine that got
	 * slower as a whole (plain times alone would cry wolf); the plain
	 * times cancel a reference that was itself disturbed (a memcpy slowed
	 * by a neighbour's memory traffic while the copies were not, seen on
	 * this project's CI machine). The machine limit itself is not code: it
	 * never regresses in relative mode, it explains.
	 */
	if (r->pg < o->alpha)
		r->timing = r->change > r->threshold && (o->ref == REF_ABSOLUTE || !limit) &&
			    r->abs_change > r->threshold && r->abs_pg < o->alpha ?
			    T_REGRESSION : T_SLOWER;
	else if (r->pl < o->alpha)
		r->timing = T_FASTER;
	else
		r->timing = T_OK;
	/*
	 * No regression is a claim too: a regression needs both changes beyond
	 * the threshold, so one upper bound below it rules one out. Each bound
	 * holds at alpha on its own, and "no case regressed" is the
	 * intersection of the cases' claims, so no correction over the cases is
	 * needed (an intersection-union test). A limit row that cannot regress
	 * needs no bound.
	 */
	r->cleared = fmin(r->upper, r->abs_upper) < r->threshold ||
		     (o->ref != REF_ABSOLUTE && limit);
	r->inconclusive = r->timing != T_REGRESSION && !r->cleared;
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
		compare_modes(r, o, o->uncorrected ? 1 : ntests);
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

	bool bk = b->has_total || b->ncounts, ck = c->has_total || c->ncounts;

	r->sc_known = bk && ck;
	r->sc_missing = bk != ck;	/* counted on one side only: no comparison */
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
	/* shown, but no verdict: these counts move with the run's timing */
	r->sc_varies = r->sc_changed && checkset_counts_vary(b);
	if (r->sc_varies)
		r->sc_changed = false;
}

static void row_init(struct check_row *r, const struct checkset_case *b,
		     const struct checkset_case *c)
{
	memset(r, 0, sizeof(*r));
	r->b = b;
	r->c = c;
	r->vs = "-";
	r->b_med = r->c_med = r->b_val = r->c_val = r->change = r->p = NAN;
	r->between = NAN;
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
	if (r->failed) {
		snprintf(r->verdict, sizeof(r->verdict), "failed");
		rep->tally[V_FAILED]++;
		return;
	}
	if (r->sc_missing && r->timing < T_FASTER) {
		snprintf(r->verdict, sizeof(r->verdict), "syscalls-missing");
		rep->tally[V_SC_MISSING]++;
		return;
	}
	if (r->inconclusive)
		rep->tally[V_INCONCLUSIVE]++;
	else if (r->timing >= T_FASTER)
		rep->tally[r->timing - T_FASTER + V_FASTER]++;
	if (r->sc_changed)
		rep->tally[V_SYSCALLS]++;
	if (r->timing < T_FASTER && !r->sc_changed && !r->inconclusive)
		rep->tally[V_OK]++;
	snprintf(r->verdict, sizeof(r->verdict), "%s%s%s",
		 r->inconclusive ? "inconclusive" : r->sc_changed && r->timing < T_FASTER ? "" :
		 timing_word[r->timing],
		 r->sc_changed && (r->inconclusive || r->timing >= T_FASTER) ? "+" : "",
		 r->sc_changed ? "syscalls-changed" : "");
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

static const char *const shared_word[] = {
	[SHARED_SLOWDOWN] = "shared slowdown", [SHARED_IMPROVEMENT] = "shared improvement",
	[SHARED_MACHINE] = "the machine changed",
	[SHARED_UNKNOWN] = "a shared change not judged (no memcpy rows)",
};

static const char *const ref_words[] = {
	[REF_CASES] = "relative to the other cases",
	[REF_MEMCPY] = "relative to the in-run memcpy",
	[REF_ABSOLUTE] = "absolute",
};

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
		len += (size_t)snprintf(s + len, cap - len, " timing %s, threshold %g%% (wider for noisy cases), alpha %g%s",
					ref_words[o->ref], o->threshold * 100, o->alpha,
					o->uncorrected ? " per case" : " over all cases (Holm)");
	if (len < cap && o->nbase_inv > 1 && !o->only_syscalls)
		len += (size_t)snprintf(s + len, cap - len, ", wider for the drift between %zu baseline invocations",
					o->nbase_inv);
	if (len < cap && isfinite(rep->common))
		len += (size_t)snprintf(s + len, cap - len, "; all cases moved %+.1f%%",
					rep->common * 100);
	if (len < cap && !isnan(rep->machine))
		len += (size_t)snprintf(s + len, cap - len, "; memcpy itself %+.1f%%",
					rep->machine * 100);
	if (len < cap && rep->bimodal && !o->only_syscalls)
		len += (size_t)snprintf(s + len, cap - len, "; %zu case%s with two modes (median unstable; the rank test compares all runs, the slow share is judged too)",
					rep->bimodal, rep->bimodal == 1 ? "" : "s");
	if (len < cap && rep->shared != SHARED_NONE)
		len += (size_t)snprintf(s + len, cap - len, "; %s",
					shared_word[rep->shared]);
	if (len < cap)
		snprintf(s + len, cap - len, "; %s; exit %d", outcome_name[rep->outcome],
			 rep->exit_code);
}

/*
 * Relative to the other cases, a change that every case shares cancels out
 * of each case's verdict, so it is judged on its own here. When most copy
 * cases moved the same way by more than SHARED_DRIFT (or --threshold when
 * wider), each significantly in plain time, memcpy tells who moved: it runs
 * none of the copies' code. If it did not move with them, the code every
 * case runs changed (the kernel, libc, build flags): a shared slowdown fails
 * the check. If it moved as much, the machine changed. SHARED_DRIFT is the
 * drift of the copies' kernel path between invocations on a VM while memcpy
 * stays put (docs/check.md, "The reference"). When memcpy itself moved by
 * more than that the same way as the copies, the machine changed, whatever
 * the copies did beyond it: on a loaded VM the copies' kernel work slows more
 * than memcpy (20 invocations of one build, 190 pairs: copies +46 to +153 %
 * against memcpy +26 to +102 % in 13 pairs), so their excess over memcpy is
 * not evidence about the code. A memcpy that moved the other way explains
 * nothing of the copies' move: their change beyond it is judged. Either
 * way a shared change put down to the machine is not told from the code:
 * the check is inconclusive, never green.
 */
#define SHARED_DRIFT 0.10

static bool row_moved(const struct check_row *r, double t, bool slower, double alpha)
{
	double ch = r->ratio - 1;

	return slower ? ch > t && r->abs_pg < alpha : ch < -t && r->abs_pl < alpha;
}

static void judge_shared(struct check_report *rep, const struct check_opts *o)
{
	double t = fmax(SHARED_DRIFT, o->threshold), rel;
	bool slower = rep->common > 0;

	if (o->ref != REF_CASES || o->only_syscalls || !isfinite(rep->common) ||
	    fabs(rep->common) <= t)
		return;
	for (size_t i = 0; i < rep->nrows; i++) {
		const struct check_row *r = &rep->rows[i];

		if (!r->tested || checkset_is_limit(r->b))
			continue;
		rep->shared_of++;
		rep->shared_moved += row_moved(r, t, slower, o->alpha);
	}
	if (2 * rep->shared_moved <= rep->shared_of)
		return;
	if (isnan(rep->machine)) {
		rep->shared = SHARED_UNKNOWN;
		return;
	}
	rel = (1 + rep->common) / (1 + rep->machine) - 1;
	if ((slower ? rep->machine > t : rep->machine < -t) || (slower ? rel <= t : rel >= -t))
		rep->shared = SHARED_MACHINE;
	else
		rep->shared = slower ? SHARED_SLOWDOWN : SHARED_IMPROVEMENT;
}

/* The line that says what the cases did together, when they did. */
static void say_shared(const struct check_report *rep, FILE *err)
{
	double c = rep->common * 100, m = rep->machine * 100;

	switch (rep->shared) {
	case SHARED_SLOWDOWN:
	case SHARED_IMPROVEMENT:
		fprintf(err, "bench check: shared %s: %zu of %zu copy cases moved %+.1f%% together while memcpy moved %+.1f%%: the code every case runs changed (kernel, libc, build flags), not the machine\n",
			rep->shared == SHARED_SLOWDOWN ? "slowdown" : "improvement",
			rep->shared_moved, rep->shared_of, c, m);
		break;
	case SHARED_MACHINE:
		fprintf(err, "bench check: the machine changed: %zu of %zu copy cases moved %+.1f%% together and memcpy %+.1f%% %s; inconclusive: a change of the code that every case shares cannot be told from the machine (compare both builds in one invocation: bench ab)\n",
			rep->shared_moved, rep->shared_of, c, m,
			fabs((1 + rep->common) / (1 + rep->machine) - 1) > SHARED_DRIFT ?
			"too (beyond the drift of an unchanged machine), so what the copies moved beyond it cannot be told from the machine" :
			"with them");
		break;
	case SHARED_UNKNOWN:
		fprintf(err, "bench check: warning: %zu of %zu copy cases moved %+.1f%% together and no memcpy rows tell the machine from the code: not judged (record the limit rows, or compare both builds in one invocation: bench ab)\n",
			rep->shared_moved, rep->shared_of, c);
		break;
	case SHARED_NONE:
		break;
	}
}

/* Plain medians and their ratio for a row with both sides. */
static void row_medians(struct check_row *r)
{
	r->nb = r->b->nruns;
	r->nc = r->c->nruns;
	r->b_med = sample_median(r->b->wall, r->nb);
	r->c_med = sample_median(r->c->wall, r->nc);
	r->ratio = r->nb && r->nc ? r->c_med / r->b_med : NAN;
	r->failed = checkset_failed(r->c);
	modes_detect(r->b->wall, r->nb, &r->b_modes);
	modes_detect(r->c->wall, r->nc, &r->c_modes);
}

/* The rows: every baseline case with its current one (or none), then the
 * current cases the baseline lacks. */
static int fill_rows(struct check_report *rep, const struct checkset *bs,
		     const struct checkset *cs)
{
	size_t k = 0;

	rep->rows = calloc(bs->n + cs->n + 1, sizeof(*rep->rows));
	if (!rep->rows)
		return -ENOMEM;
	for (size_t i = 0; i < bs->n; i++) {
		struct check_row *r = &rep->rows[k++];

		row_init(r, &bs->c[i], checkset_find(cs, &bs->c[i]));
		if (r->c)
			row_medians(r);
	}
	for (size_t i = 0; i < cs->n; i++)
		if (!checkset_find(bs, &cs->c[i]))
			row_init(&rep->rows[k++], NULL, &cs->c[i]);
	rep->nrows = k;
	return 0;
}

/* Whether row r fails the gate. */
static bool row_fails(const struct check_row *r, const struct check_opts *o)
{
	if (!r->c || !r->b)
		return false;
	return r->failed || r->timing == T_REGRESSION ||
	       ((r->sc_changed || r->sc_missing) && !o->ignore_syscalls);
}

static int exit_code(const struct check_report *rep, const struct check_opts *o, size_t nsc,
		     bool fails, FILE *err)
{
	if (rep->tally[V_MISSING] && !o->allow_missing)
		return 2;
	if (o->only_syscalls && !nsc) {
		fprintf(err, "bench check: error: no case has system-call counts on both sides\n");
		return 2;
	}
	if (o->ci && rep->unreachable && !o->only_syscalls)
		return 2;
	return fails ? 1 : rep->outcome == OUTCOME_INCONCLUSIVE ? CHECK_EXIT_INCONCLUSIVE : 0;
}

/* Regression, no regression, or inconclusive: a case whose runs neither
 * show a regression nor rule one out, or a shared change put down to the
 * machine (or to nothing known). */
static enum check_outcome outcome_of(const struct check_report *rep, bool fails)
{
	if (fails)
		return OUTCOME_REGRESSION;
	if (rep->tally[V_INCONCLUSIVE] || rep->shared == SHARED_MACHINE ||
	    rep->shared == SHARED_UNKNOWN)
		return OUTCOME_INCONCLUSIVE;
	return OUTCOME_NO_REGRESSION;
}

int check_compare(const struct checkset *bs, const struct checkset *cs,
		  const struct check_opts *o, struct check_report *rep, FILE *err)
{
	size_t nsc = 0;
	bool fails = false;

	memset(rep, 0, sizeof(*rep));
	rep->ci = o->ci;
	if (fill_rows(rep, bs, cs))
		return -ENOMEM;
	for (size_t i = 0; i < rep->nrows; i++) {
		struct check_row *r = &rep->rows[i];

		if (!r->b || !r->c)
			continue;
		if (!o->only_syscalls && !r->failed)
			compare_timing(rep, r, o, err);
		compare_syscalls(r);
		nsc += r->sc_known;
	}
	if (check_timings(rep, o, err)) {
		free(rep->rows);
		return -ENOMEM;
	}
	for (size_t i = 0; i < rep->nrows; i++) {
		struct check_row *r = &rep->rows[i];

		row_verdict(r, rep);
		rep->bimodal += r->b_modes.count == 2 || r->c_modes.count == 2;
		fails |= row_fails(r, o);
		if (!r->c)
			fprintf(err, "bench check: %s: case %s is in the baseline but not in the current results\n",
				o->allow_missing ? "note" : "error", r->label);
		if (r->failed)
			fprintf(err, "bench check: error: case %s failed in the current results: %s\n",
				r->label, r->c->status);
	}
	rep->machine = o->ref == REF_ABSOLUTE || o->only_syscalls ? NAN : machine_change(rep);
	rep->common = o->only_syscalls ? NAN : common_ratio(rep, NULL) - 1;
	judge_shared(rep, o);
	say_shared(rep, err);
	note_largest(rep, o);
	fails |= rep->shared == SHARED_SLOWDOWN;
	rep->outcome = outcome_of(rep, fails);
	rep->exit_code = exit_code(rep, o, nsc, fails, err);
	summarise(rep, o);
	return 0;
}
