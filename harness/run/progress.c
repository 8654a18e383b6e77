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

void progress_budget(struct progress *p, double budget_s, unsigned min_rounds)
{
	p->budget_s = budget_s;
	p->min_rounds = min_rounds;
}

/*
 * The last round's time times the planned rounds to go: the first rounds
 * (counting, warm-up) take longer than the measured ones, and retries are
 * not planned, so neither an average over all rounds nor the most rounds
 * there may be. With a budget, the budget left, or the minimum's rounds
 * left if longer.
 */
double progress_left(const struct progress *p, unsigned rounds_done, double elapsed)
{
	double left, round_s = p->last_round_s;

	if (!rounds_done)
		return -1;
	if (p->budget_s <= 0)
		return round_s * (p->planned > rounds_done ? p->planned - rounds_done : 0);
	left = p->budget_s > elapsed ? p->budget_s - elapsed : 0;
	if (rounds_done < p->min_rounds && round_s * (p->min_rounds - rounds_done) > left)
		left = round_s * (p->min_rounds - rounds_done);
	return left;
}

/* Seconds since the rounds began, and the estimate of those left. */
static void times(const struct progress *p, unsigned rounds_done, double *elapsed, double *left)
{
	*elapsed = (double)(progress_now_ns() - p->t0_ns) / 1e9;
	*left = progress_left(p, rounds_done, *elapsed);
}

/* The rounds "k/N" counts to: with a budget, those of the minimum (later
 * rounds count past it); else those planned (retries count past them). */
static unsigned shown_rounds(const struct progress *p)
{
	return p->budget_s > 0 ? p->min_rounds : p->planned;
}

/* Off a terminal: a line at the first case, then at most one every
 * PROGRESS_LINE_S, so that a log shows the run moving from its start. */
#define PROGRESS_LINE_S 10.0

void progress_case(struct progress *p, unsigned round, size_t k, size_t n, const char *what)
{
	uint64_t now = progress_now_ns();
	double elapsed, left;

	if (!p->on)
		return;
	if (!p->tty && (round || k) && (double)(now - p->line_ns) / 1e9 < PROGRESS_LINE_S)
		return;
	times(p, round, &elapsed, &left);
	fprintf(stderr, p->tty ? "\r\033[K[round %u/%u, case %zu/%zu, %.0f s" :
		"bench: [round %u/%u, case %zu/%zu, %.0f s", round + 1, shown_rounds(p), k + 1, n,
		elapsed);
	if (left >= 0)
		fprintf(stderr, ", about %.0f s left", left);
	fprintf(stderr, p->tty ? "] %s" : "] %s\n", what);
	fflush(stderr);
	p->line_ns = now;
}

void progress_round_end(struct progress *p, unsigned round, unsigned long runs)
{
	uint64_t now = progress_now_ns();
	double elapsed, left;

	p->last_round_s = (double)(now - p->round_t0_ns) / 1e9;
	times(p, round + 1, &elapsed, &left);
	if (p->on && !p->tty) {
		fprintf(stderr, "bench: round %u/%u done in %.1f s (%lu runs so far, %.1f s elapsed, about %.0f s left)\n",
			round + 1, shown_rounds(p), p->last_round_s, runs, elapsed, left);
		p->line_ns = now;
	}
	p->round_t0_ns = now;
}
