/* SPDX-License-Identifier: MIT */
/*
 * check.h - the comparison behind `bench check` (did copying get slower than
 * the baseline, or make different system calls?), the door of harness/check/:
 *   check.c         the comparison of two sets of cases, and the verdicts
 *   check_report.c  the report: table, Markdown, CSV or JSON
 * Its command line is harness/cli/cmd_check.c; `bench history check` judges
 * its own window with the same rows, verdicts and report.
 */
#ifndef COPYBENCH_CHECK_H
#define COPYBENCH_CHECK_H

#include "checkset.h"
#include "lib/modes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum check_format { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_MARKDOWN };

/* What a case's times are compared relative to (see check.c). */
enum check_ref { REF_CASES, REF_MEMCPY, REF_ABSOLUTE };

#define CHECK_MAX_PATHS 32

struct check_opts {
	/* each side: results folders, runs.csv or baseline files (several:
	 * their cases kept apart by environment, see checkset.h) */
	const char *base[CHECK_MAX_PATHS], *cur[CHECK_MAX_PATHS];
	size_t nbase, ncur;
	double threshold;	/* fraction: 0.05 for 5%; the floor of each case's */
	double alpha;
	enum check_ref ref;
	bool ignore_syscalls, allow_missing, only_syscalls;
	bool uncorrected;	/* per-case alpha, no Holm correction */
	bool ci;		/* unreachable significance is an error (exit 2) */
	enum check_format format;
	/* The baseline's invocations one by one (each --baseline path), when
	 * there are several: their spread sets each case's threshold. */
	const struct checkset *base_inv;
	size_t nbase_inv;
};

enum check_timing { T_NONE, T_OK, T_FASTER, T_SLOWER, T_REGRESSION };

struct check_row {
	const struct checkset_case *b, *c;	/* NULL: missing / new */
	char label[192];
	const char *vs;		/* "cases", "memcpy", "absolute" or "-" */
	size_t nb, nc;
	double b_med, c_med;	/* median wall ns */
	/* Each side's runs: one mode or two (lib/modes.h). With two, a median
	 * lies in whichever mode drew more runs; the rank test compares all
	 * runs. */
	struct modes b_modes, c_modes;
	double b_val, c_val;	/* medians of what was compared */
	double change;		/* c_val / b_val - 1 */
	double ratio;		/* c_med / b_med: the plain change + 1 */
	double threshold;	/* this case's: the option's, or wider for a noisy case */
	double between;		/* sd of ln(median) over the baseline invocations, NAN */
	size_t ninv;		/* baseline invocations that have the case */
	double p;		/* one-sided, in the direction of the change */
	bool tested;
	double pg, pl;		/* one-sided p: slower, faster (Holm-adjusted) */
	/* Relative mode also tests the plain times: a regression must show
	 * in both (see judge_timing). */
	double abs_change, abs_pg, abs_pl;
	/* The one-sided (1 - alpha) upper bounds of the change, compared and
	 * plain (check_timing.c's upper_bound): the smallest slowdown the runs rule
	 * out. INFINITY when no slowdown can be ruled out. */
	double upper, abs_upper;
	bool cleared;		/* a bound below the threshold: no regression */
	/* Two modes on a side: the runs above the cut between them, per side
	 * (check_timing.c's compare_modes), the change of the mean time their share
	 * moves, and the one-sided p of a larger slow share now (Fisher). */
	bool share_judged, by_share;	/* by_share: the regression is the share's */
	double cut, share_change, share_p;
	size_t b_slow, c_slow;
	bool inconclusive;	/* timing judged, neither regression nor cleared */
	enum check_timing timing;
	bool failed;		/* the current run of the case failed */
	bool sc_known, sc_changed, sc_missing;
	bool sc_varies;		/* counts differ, as they do with timing (not a verdict) */
	char sc_diff[256];
	char verdict[48];
};

/* Verdict tallies for the summary, in the order they are printed. */
enum { V_OK, V_FASTER, V_SLOWER, V_REGRESSION, V_INCONCLUSIVE, V_SYSCALLS, V_SC_MISSING,
       V_FAILED, V_MISSING, V_NEW, V_COUNT };
extern const char *const check_verdict_name[V_COUNT];

/*
 * The gate's three outcomes (docs/check.md): a regression (exit 1), no
 * regression, every judged case's upper bound below its threshold (exit 0),
 * or inconclusive, neither (exit 3): never green when it cannot tell.
 */
enum check_outcome { OUTCOME_NO_REGRESSION, OUTCOME_REGRESSION, OUTCOME_INCONCLUSIVE };
#define CHECK_EXIT_INCONCLUSIVE 3
extern const char *const check_outcome_name[3];

/* Student's t, one-sided 99 %, for df degrees of freedom (safe side). */
double check_t99(size_t df);

struct check_report {
	struct check_row *rows;
	size_t nrows;
	size_t tally[V_COUNT];
	double machine;		/* change of limit/memcpy itself, NAN if none */
	double common;		/* median plain change of all cases, NAN if none */
	/* What the cases did together (check.c's judge_shared): the other
	 * cases as a reference cancel a change every case shares, so it is
	 * judged on its own, against memcpy (the machine). */
	enum { SHARED_NONE, SHARED_SLOWDOWN, SHARED_IMPROVEMENT, SHARED_MACHINE,
	       SHARED_UNKNOWN } shared;
	size_t shared_moved, shared_of;	/* cases that moved that way, of all */
	size_t bimodal;		/* rows with two modes on either side */
	bool unreachable;	/* no timing change could be significant */
	/* One invocation per side: what a change would need to stand out. */
	const struct check_row *largest;	/* the largest change of a copy case */
	double needed_sd;	/* the between-invocation sd it would need, NAN */
	size_t said[16][2];	/* sample-size pairs warned about */
	bool ci;		/* the check's --ci, for its messages */
	size_t nsaid;
	enum check_outcome outcome;
	int exit_code;
	char summary[640];
};

/*
 * Compares every case of the baseline bs with the current cs into rep (its
 * rows, tallies, summary and exit code); warnings and errors go to err.
 * 0 or -ENOMEM. rep->rows is the caller's to free.
 */
int check_compare(const struct checkset *bs, const struct checkset *cs,
		  const struct check_opts *o, struct check_report *rep, FILE *err);
/* The report in the format of o. */
void check_print(const struct check_report *rep, const struct check_opts *o, FILE *out);

#endif
