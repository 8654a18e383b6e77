// SPDX-License-Identifier: MIT
/*
 * check_timing.c - the timing half of `bench check`'s comparison: each
 * case's times relative to its reference (the other cases, the in-run
 * memcpy, or plain), its threshold, the one-sided rank tests with Holm's
 * correction over the cases, the upper bound of its change, the slow-run
 * share of a case with two modes, and its timing verdict. check.c's header
 * says how a case is judged; the rows, the system-call counts and the
 * outcome are check.c's.
 */
#include "check_internal.h"
#include "lib/ranktest.h"
#include "lib/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NOISE_K 2.0
/* The common change needs this many other cases; else --vs memcpy. With
 * three, one case that moved cannot move their median. */
#define REF_CASES_MIN 3

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
double check_common_ratio(const struct check_report *rep, const struct check_row *self)
{
	double *v = calloc(rep->nrows + 1, sizeof(*v)), m = NAN;
	size_t n = 0;

	for (size_t i = 0; v && i < rep->nrows; i++) {
		const struct check_row *o = &rep->rows[i];

		if (o != self && o->b && o->c && !checkset_is_limit(o->b) && isfinite(o->ratio))
			v[n++] = o->ratio;
	}
	if (n >= REF_CASES_MIN)
		m = stats_sample_median(v, n);
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
	scale = o->ref == REF_CASES ? check_common_ratio(rep, r) : NAN;
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
			lm[k++] = log(stats_sample_median(c->wall, c->nruns));
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

void check_note_largest(struct check_report *rep, const struct check_opts *o)
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
void check_compare_timing(const struct check_report *rep, struct check_row *r,
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
	r->b_val = stats_sample_median(y, r->nb);
	r->c_val = stats_sample_median(x, r->nc);
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

int check_timings(struct check_report *rep, const struct check_opts *o,
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

