// SPDX-License-Identifier: MIT
/* progress.c - progress on stderr (see progress.h). */
#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static uint64_t mono_ns(void)
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

void progress_rounds_begin(struct progress *p, unsigned rounds)
{
	p->rounds = rounds;
	p->t0_ns = p->round_t0_ns = mono_ns();
}

void progress_budget(struct progress *p, double budget_s, unsigned min_rounds, uint64_t t0_ns)
{
	p->budget_s = budget_s;
	p->budget_t0_ns = t0_ns;
	p->min_rounds = min_rounds;
}

/* Seconds since the rounds began, and the estimate of those left: the
 * average round so far times the rounds to go (-1: no estimate yet); with
 * a budget, the budget left, or the minimum's rounds left if longer. */
static void times(const struct progress *p, unsigned rounds_done, double *elapsed, double *left)
{
	double avg, since;

	*elapsed = (double)(mono_ns() - p->t0_ns) / 1e9;
	*left = -1;
	if (!rounds_done)
		return;
	avg = *elapsed / rounds_done;
	if (p->budget_s <= 0) {
		*left = avg * (p->rounds - rounds_done);
		return;
	}
	since = (double)(mono_ns() - p->budget_t0_ns) / 1e9;
	*left = p->budget_s > since ? p->budget_s - since : 0;
	if (rounds_done < p->min_rounds && avg * (p->min_rounds - rounds_done) > *left)
		*left = avg * (p->min_rounds - rounds_done);
}

/* Round k as shown: "k/N", N the rounds at most, or with a budget those of
 * the minimum; a budget's later rounds say they are past it. */
static void round_label(const struct progress *p, unsigned k, char *out, size_t n)
{
	if (p->budget_s > 0 && k > p->min_rounds)
		snprintf(out, n, "%u (the minimum's %u done)", k, p->min_rounds);
	else
		snprintf(out, n, "%u/%u", k, p->budget_s > 0 ? p->min_rounds : p->rounds);
}

void progress_case(const struct progress *p, unsigned round, size_t k, size_t n,
		   const char *what)
{
	double elapsed, left;
	char label[64];

	if (!p->on || !p->tty)
		return;
	times(p, round, &elapsed, &left);
	round_label(p, round + 1, label, sizeof(label));
	fprintf(stderr, "\r\033[K[round %s, case %zu/%zu, %.0f s", label, k + 1, n, elapsed);
	if (left >= 0)
		fprintf(stderr, ", about %.0f s left", left);
	fprintf(stderr, "] %s", what);
	fflush(stderr);
}

void progress_round_end(struct progress *p, unsigned round, unsigned long runs)
{
	uint64_t now = mono_ns();
	double elapsed, left;
	char label[64];

	times(p, round + 1, &elapsed, &left);
	round_label(p, round + 1, label, sizeof(label));
	if (p->on && !p->tty)
		fprintf(stderr, "bench: round %s done in %.1f s (%lu runs so far, %.1f s elapsed, about %.0f s left)\n",
			label, (double)(now - p->round_t0_ns) / 1e9, runs, elapsed, left);
	p->round_t0_ns = now;
}
