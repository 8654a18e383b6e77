/* SPDX-License-Identifier: MIT */
/*
 * progress.h - what a long run tells on stderr while it works: on a terminal
 * one line updated in place (round, case, elapsed time, time left); elsewhere
 * (a CI log) plain lines, one per step and per round, and the round and case
 * from the first case on, at most every 10 s. --quiet silences it.
 */
#ifndef COPYBENCH_PROGRESS_H
#define COPYBENCH_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct progress {
	bool on;		/* anything is shown */
	bool tty;		/* stderr is a terminal: one updating line */
	uint64_t t0_ns;		/* when the timed rounds began */
	uint64_t round_t0_ns;	/* when the current round began */
	uint64_t line_ns;	/* when the last plain line was written */
	unsigned rounds;	/* at most (retries included) */
	unsigned planned;	/* without retries: what the time left is counted for */
	double last_round_s;	/* how long the last round took */
	double budget_s;	/* --budget: the invocation's time; 0: none */
	uint64_t budget_t0_ns;	/* --budget: when the invocation began (0: the rounds) */
	unsigned min_rounds;	/* --budget: the rounds of the minimum */
	double plan_round_s;	/* the plan's estimate of a round; 0: none */
	unsigned unmeasured;	/* rounds before the measured ones */
	double pending_s;	/* the plan's estimate of the work between
				 * rounds still to come (the counters' removal) */
};

/* Measured rounds that must have ended before their time replaces the
 * plan's estimate of a round: the first measured round also waits for the
 * syscall counters' removal (docs/budget.md). */
#define PROGRESS_ROUNDS_MEASURED 2u

/* --budget: the rounds end when the budget (counted from t0_ns, when the
 * invocation began) is spent, but not before the minimum's min_rounds:
 * what the time left is counted from. */
void progress_budget(struct progress *p, double budget_s, unsigned min_rounds, uint64_t t0_ns);
/* The plan's estimate of one round of every case (estimate.h's cost of a
 * run, summed), and the rounds before the measured ones (counting, warm-up):
 * the time left is counted from it until PROGRESS_ROUNDS_MEASURED measured
 * rounds have ended. */
void progress_plan(struct progress *p, double round_s, unsigned unmeasured);
/* The estimate of the work between rounds still to come (taking the syscall
 * counters down after the counting round), in the time left; 0 once done. */
void progress_pending(struct progress *p, double s);
/* Shown unless quiet; in place when stderr is a terminal. */
void progress_init(struct progress *p, bool quiet);
/* A line of its own (clears an updating line first). printf-like. */
void progress_line(const struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Terminal only: the updating line ("what" is e.g. "dataset text 200M"). */
void progress_status(const struct progress *p, const char *what);
/* The rounds begin now: at most rounds, planned without retries. */
void progress_rounds_begin(struct progress *p, unsigned rounds, unsigned planned);
/* Seconds left after rounds_done rounds and elapsed seconds (-1: not known
 * yet): a round's time (the plan's, then the last round's) for each planned
 * round to go, capped by a budget (see progress.c). */
double progress_left(const struct progress *p, unsigned rounds_done, double elapsed);
/* What the line says of it: "about N s left" in out, or "" when not known
 * yet (false). */
bool progress_left_text(const struct progress *p, unsigned rounds_done, double elapsed,
			char *out, size_t n);
/* CLOCK_MONOTONIC in ns. */
uint64_t progress_now_ns(void);
/* Round and case, with elapsed and ETA: the updating line on a terminal;
 * elsewhere a plain line at the first case, then at most one every 10 s. */
void progress_case(struct progress *p, unsigned round, size_t k, size_t n,
		   const char *what);
/* Round `round` (0-based) ended after `runs` runs in all: a plain line off a
 * terminal. */
void progress_round_end(struct progress *p, unsigned round, unsigned long runs);
/* Clears the updating line. */
void progress_clear(const struct progress *p);

#endif
