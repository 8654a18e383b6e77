// SPDX-License-Identifier: MIT
/*
 * check.c - the heart of `bench check`: compare the current results with a
 * baseline and say, case by case, whether copying got slower or makes other
 * system calls. The timing half of the comparison is check_timing.c.
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
#include "check_internal.h"
#include "lib/ranktest.h"
#include "lib/stats.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const check_verdict_name[V_COUNT] = {
	"ok", "faster", "slower", "regression", "inconclusive", "syscalls-changed",
	"syscalls-missing", "failed", "missing", "new",
};

const char *const check_outcome_name[3] = {
	[OUTCOME_NO_REGRESSION] = "no regression", [OUTCOME_REGRESSION] = "regression",
	[OUTCOME_INCONCLUSIVE] = "inconclusive",
};

static const char *const timing_word[] = {
	[T_NONE] = "ok", [T_OK] = "ok", [T_FASTER] = "faster",
	[T_SLOWER] = "slower", [T_REGRESSION] = "regression",
};

/* ----------------------------------------------------- comparison -- */

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
	return stats_sample_median(v, n);
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
						rep->tally[v], check_verdict_name[v]);
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
		snprintf(s + len, cap - len, "; %s; exit %d", check_outcome_name[rep->outcome],
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
	r->b_med = stats_sample_median(r->b->wall, r->nb);
	r->c_med = stats_sample_median(r->c->wall, r->nc);
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
			check_compare_timing(rep, r, o, err);
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
	rep->common = o->only_syscalls ? NAN : check_common_ratio(rep, NULL) - 1;
	judge_shared(rep, o);
	say_shared(rep, err);
	check_note_largest(rep, o);
	fails |= rep->shared == SHARED_SLOWDOWN;
	rep->outcome = outcome_of(rep, fails);
	rep->exit_code = exit_code(rep, o, nsc, fails, err);
	summarise(rep, o);
	return 0;
}
