// SPDX-License-Identifier: MIT
/* progress.c - progress on stderr (see progress.h). */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

uint64_t progress_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void progress_init(struct progress *p, bool quiet)
{
	*p = (struct progress){ .on = !quiet, .tty = !quiet && isatty(STDERR_FILENO) };
}

void progress_clear(const struct progress *p)
{
	if (p->on && p->tty)
		fputs("\r\033[K", stderr);
}

void progress_line(const struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->on)
		return;
	progress_clear(p);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void progress_status(const struct progress *p, const char *what)
{
	if (!p->on || !p->tty)
		return;
	fprintf(stderr, "\r\033[K%s", what);
	fflush(stderr);
}

void progress_rounds_begin(struct progress *p, unsigned rounds, unsigned planned)
{
	p->rounds = rounds;
	p->planned = planned;
	p->last_round_s = 0;
	p->t0_ns = p->round_t0_ns = p->line_ns = progress_now_ns();
}

void progress_budget(struct progress *p, double budget_s, unsigned min_rounds, uint64_t t0_ns)
{
	p->budget_s = budget_s;
	p->budget_t0_ns = t0_ns;
	p->min_rounds = min_rounds;
}

void progress_plan(struct progress *p, double round_s, unsigned unmeasured)
{
	p->plan_round_s = round_s;
	p->unmeasured = unmeasured;
}

void progress_pending(struct progress *p, double s)
{
	p->pending_s = s;
}

/*
 * The time of a round: the plan's estimate until PROGRESS_ROUNDS_MEASURED
 * measured rounds have ended, then the last round's. The first rounds
 * (counting, warm-up, the first measured one) take longer than the later
 * ones, and retries are not planned, so neither an average over all rounds
 * nor the most rounds there may be. -1: neither known yet.
 */
static double round_time(const struct progress *p, unsigned rounds_done)
{
	if (p->plan_round_s > 0 && rounds_done < p->unmeasured + PROGRESS_ROUNDS_MEASURED)
		return p->plan_round_s;
	return rounds_done ? p->last_round_s : -1;
}

/*
 * A round's time for each planned round to go, and the work between rounds
 * still to come. With a budget, no more than the budget left (the rounds
 * stop there), but no less than the minimum's rounds left: the minimum is
 * run whatever the budget.
 */
double progress_left(const struct progress *p, unsigned rounds_done, double elapsed)
{
	double budget_left, round_s = round_time(p, rounds_done);
	double left = round_s * (p->planned > rounds_done ? p->planned - rounds_done : 0);
	double minimum = round_s * (p->min_rounds > rounds_done ? p->min_rounds - rounds_done : 0);

	if (round_s < 0)
		return -1;
	left += p->pending_s;
	if (p->budget_s <= 0)
		return left;
	budget_left = p->budget_s > elapsed ? p->budget_s - elapsed : 0;
	if (left > budget_left)
		left = budget_left;
	if (minimum + p->pending_s > left)
		left = minimum + p->pending_s;
	return left;
}

bool progress_left_text(const struct progress *p, unsigned rounds_done, double elapsed,
			char *out, size_t n)
{
	double left = progress_left(p, rounds_done, elapsed);

	if (left < 0) {
		snprintf(out, n, "%s", "");
		return false;
	}
	snprintf(out, n, "about %.0f s left", left);
	return true;
}

/* Seconds since the rounds began, and what the line says of those left. */
static bool times(const struct progress *p, unsigned rounds_done, double *elapsed, char *left,
		  size_t n)
{
	double since;

	*elapsed = (double)(progress_now_ns() - p->t0_ns) / 1e9;
	since = p->budget_t0_ns ? (double)(progress_now_ns() - p->budget_t0_ns) / 1e9 : *elapsed;
	return progress_left_text(p, rounds_done, p->budget_s > 0 ? since : *elapsed, left, n);
}

/* Round k as shown: "k/N", N the planned rounds (retries count past them),
 * or with a budget those of the minimum; a budget's later rounds say they
 * are past it. */
static void round_label(const struct progress *p, unsigned k, char *out, size_t n)
{
	if (p->budget_s > 0 && k > p->min_rounds)
		snprintf(out, n, "%u (the minimum's %u done)", k, p->min_rounds);
	else
		snprintf(out, n, "%u/%u", k, p->budget_s > 0 ? p->min_rounds : p->planned);
}

/* Off a terminal: a line at the first case, then at most one every
 * PROGRESS_LINE_S, so that a log shows the run moving from its start. */
#define PROGRESS_LINE_S 10.0

void progress_case(struct progress *p, unsigned round, size_t k, size_t n, const char *what)
{
	uint64_t now = progress_now_ns();
	char label[64], left[64];
	double elapsed;
	bool known;

	if (!p->on)
		return;
	if (!p->tty && (round || k) && (double)(now - p->line_ns) / 1e9 < PROGRESS_LINE_S)
		return;
	known = times(p, round, &elapsed, left, sizeof(left));
	round_label(p, round + 1, label, sizeof(label));
	fprintf(stderr, p->tty ? "\r\033[K[round %s, case %zu/%zu, %.0f s%s%s] %s" :
		"bench: [round %s, case %zu/%zu, %.0f s%s%s] %s\n",
		label, k + 1, n, elapsed, known ? ", " : "", left, what);
	fflush(stderr);
	p->line_ns = now;
}

void progress_round_end(struct progress *p, unsigned round, unsigned long runs)
{
	uint64_t now = progress_now_ns();
	char label[64], left[64];
	double elapsed;

	p->last_round_s = (double)(now - p->round_t0_ns) / 1e9;
	times(p, round + 1, &elapsed, left, sizeof(left));
	round_label(p, round + 1, label, sizeof(label));
	if (p->on && !p->tty) {
		fprintf(stderr, "bench: round %s done in %.1f s (%lu runs so far, %.1f s elapsed, %s)\n",
			label, p->last_round_s, runs, elapsed, left);
		p->line_ns = now;
	}
	p->round_t0_ns = now;
}
