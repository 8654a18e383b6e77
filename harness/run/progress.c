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
	double since;

	*elapsed = (double)(progress_now_ns() - p->t0_ns) / 1e9;
	since = p->budget_t0_ns ? (double)(progress_now_ns() - p->budget_t0_ns) / 1e9 : *elapsed;
	*left = progress_left(p, rounds_done, p->budget_s > 0 ? since : *elapsed);
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
	double elapsed, left;
	char label[64];

	if (!p->on)
		return;
	if (!p->tty && (round || k) && (double)(now - p->line_ns) / 1e9 < PROGRESS_LINE_S)
		return;
	times(p, round, &elapsed, &left);
	round_label(p, round + 1, label, sizeof(label));
	fprintf(stderr, p->tty ? "\r\033[K[round %s, case %zu/%zu, %.0f s" :
		"bench: [round %s, case %zu/%zu, %.0f s", label, k + 1, n, elapsed);
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
	char label[64];

	p->last_round_s = (double)(now - p->round_t0_ns) / 1e9;
	times(p, round + 1, &elapsed, &left);
	round_label(p, round + 1, label, sizeof(label));
	if (p->on && !p->tty) {
		fprintf(stderr, "bench: round %s done in %.1f s (%lu runs so far, %.1f s elapsed, about %.0f s left)\n",
			label, p->last_round_s, runs, elapsed, left);
		p->line_ns = now;
	}
	p->round_t0_ns = now;
}
