// SPDX-License-Identifier: MIT
/* costs.c - where the wall time of a run went (see costs.h). */
#include "costs.h"

#include <string.h>

static const char *const step_names[COST_STEPS] = {
	[COST_CACHE] = "cache", [COST_WRITEBACK] = "wb-wait", [COST_CHILD] = "child",
	[COST_TIMED] = "timed", [COST_VERIFY] = "verify", [COST_REMOVE] = "remove",
};
static const char *const round_names[COST_ROUNDS] = {
	[COST_COUNTING] = "counting", [COST_WARMUP] = "warm-up", [COST_MEASURED] = "measured",
};

void costs_begin(struct costs *c, uint64_t now_ns)
{
	memset(c, 0, sizeof(*c));
	c->start_ns = now_ns;
	c->round = COST_MEASURED;
}

static struct cost_row *row_of(struct costs *c, const char *workload)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (strcmp(c->rows[i].workload, workload) == 0)
			return &c->rows[i];
	if (c->nrows == COSTS_WORKLOADS)
		return &c->rows[COSTS_WORKLOADS - 1];	/* more than ever exist */
	c->rows[c->nrows].workload = workload;
	return &c->rows[c->nrows++];
}

static uint64_t span(uint64_t from, uint64_t to)
{
	return to > from ? to - from : 0;
}

void costs_add_run(struct costs *c, const char *workload, const struct cost_stamps *s)
{
	struct cost_row *row = row_of(c, workload);
	uint64_t *ns = row->ns[c->round], child = span(s->settled, s->reaped);

	row->runs[c->round]++;
	ns[COST_CACHE] += span(s->start, s->cached);
	ns[COST_WRITEBACK] += span(s->cached, s->settled);
	ns[COST_TIMED] += s->timed_ns < child ? s->timed_ns : child;
	ns[COST_CHILD] += span(s->timed_ns, child);
	ns[COST_VERIFY] += span(s->reaped, s->verified);
	ns[COST_REMOVE] += span(s->verified, s->removed);
}

static uint64_t sum_steps(const uint64_t *ns)
{
	uint64_t t = 0;

	for (int k = 0; k < COST_STEPS; k++)
		t += ns[k];
	return t;
}

static void print_line(FILE *f, const char *name, uint64_t runs, const uint64_t *ns)
{
	fprintf(f, "  %-10s %6llu", name, (unsigned long long)runs);
	for (int k = 0; k < COST_STEPS; k++)
		fprintf(f, " %8.1f", (double)ns[k] / 1e9);
	fprintf(f, " %8.1f\n", (double)sum_steps(ns) / 1e9);
}

/* The sums of one round over all workloads (round < 0: of every round). */
static void totals(const struct costs *c, int round, uint64_t *runs, uint64_t *ns)
{
	*runs = 0;
	memset(ns, 0, COST_STEPS * sizeof(*ns));
	for (size_t i = 0; i < c->nrows; i++)
		for (int r = 0; r < COST_ROUNDS; r++) {
			if (round >= 0 && r != round)
				continue;
			*runs += c->rows[i].runs[r];
			for (int k = 0; k < COST_STEPS; k++)
				ns[k] += c->rows[i].ns[r][k];
		}
}

static void print_header(FILE *f, const char *first)
{
	fprintf(f, "  %-10s %6s", first, "runs");
	for (int k = 0; k < COST_STEPS; k++)
		fprintf(f, " %8s", step_names[k]);
	fprintf(f, " %8s\n", "total");
}

void costs_print(FILE *f, const struct costs *c, uint64_t now_ns)
{
	uint64_t wall = span(c->start_ns, now_ns), runs, ns[COST_STEPS], all;
	char made[32] = "reused";

	if (c->generated_bytes)
		snprintf(made, sizeof(made), "%.0f MiB made", (double)c->generated_bytes / 1048576.0);
	fprintf(f, "\nwhere the %.1f s went (seconds; \"child\" is fork, setup, teardown and exit around the timed part):\n",
		(double)wall / 1e9);
	fprintf(f, "  datasets %.1f (%s), expected outputs %.1f\n", (double)c->generate_ns / 1e9,
		made, (double)c->prepare_ns / 1e9);
	print_header(f, "round");
	for (int r = 0; r < COST_ROUNDS; r++) {
		totals(c, r, &runs, ns);
		if (runs)
			print_line(f, round_names[r], runs, ns);
	}
	print_header(f, "workload");
	for (size_t i = 0; i < c->nrows; i++) {
		uint64_t n = 0, w[COST_STEPS] = { 0 };

		for (int r = 0; r < COST_ROUNDS; r++) {
			n += c->rows[i].runs[r];
			for (int k = 0; k < COST_STEPS; k++)
				w[k] += c->rows[i].ns[r][k];
		}
		print_line(f, c->rows[i].workload, n, w);
	}
	totals(c, -1, &runs, ns);
	all = sum_steps(ns) + c->generate_ns + c->prepare_ns;
	fprintf(f, "  timed %.1f of %.1f s (%.0f %%); the rest (planning, counters, results, table) %.1f\n",
		(double)ns[COST_TIMED] / 1e9, (double)wall / 1e9,
		wall ? 100.0 * (double)ns[COST_TIMED] / (double)wall : 0.0,
		(double)span(all, wall) / 1e9);
}
