// SPDX-License-Identifier: MIT
/*
 * budget.c - the planner of --budget (see budget.h): which cases run in the
 * next measured round. Nothing here runs, times or reads a file.
 */
#include "budget.h"

#include <math.h>
#include <stdlib.h>

static bool open_case(const struct budget_case *c)
{
	return !c->closed;
}

double budget_left_s(double budget_s, double elapsed_s, double finish_s)
{
	return budget_s * (1 - BUDGET_RESERVE) - elapsed_s - finish_s;
}

double budget_minimum_s(const struct budget_case *cs, size_t n, const struct budget_rules *rules,
			unsigned unmeasured)
{
	double s = 0;

	for (size_t i = 0; i < n; i++) {
		size_t missing = cs[i].runs < rules->min ? rules->min - cs[i].runs : 0;

		if (open_case(&cs[i]))
			s += (double)(unmeasured + missing) * cs[i].cost_s;
	}
	return s;
}

/* The neighbours of case i in its ranking: the slowest faster one and the
 * fastest slower one (-1: none). Equal medians order by index. */
static void neighbours(const struct budget_case *cs, size_t n, size_t i, ptrdiff_t *up,
		       ptrdiff_t *down)
{
	*up = *down = -1;
	for (size_t j = 0; j < n; j++) {
		bool faster = cs[j].median < cs[i].median ||
			      (cs[j].median == cs[i].median && j < i);

		if (j == i || cs[j].group != cs[i].group || cs[j].closed || !cs[j].runs)
			continue;
		if (faster && (*up < 0 || cs[j].median >= cs[*up].median))
			*up = (ptrdiff_t)j;
		if (!faster && (*down < 0 || cs[j].median < cs[*down].median))
			*down = (ptrdiff_t)j;
	}
}

static bool has_interval(const struct budget_case *c)
{
	return c->hi > 0 && c->hi >= c->lo;
}

static bool overlaps(const struct budget_case *a, const struct budget_case *b)
{
	if (!has_interval(a) || !has_interval(b))
		return true;
	return a->lo <= b->hi && b->lo <= a->hi;
}

/* Is neighbour b close to a: within rules->apart times a's median? */
static bool close_to(const struct budget_case *a, const struct budget_case *b,
		     const struct budget_rules *rules)
{
	double hi = a->median > b->median ? a->median : b->median;
	double lo = a->median > b->median ? b->median : a->median;

	return lo > 0 && hi / lo < rules->apart;
}

static bool too_wide(const struct budget_case *c, const struct budget_rules *rules)
{
	return !has_interval(c) || c->median <= 0 ||
	       (c->hi - c->lo) / 2 / c->median > rules->target;
}

bool budget_unsettled(const struct budget_case *cs, size_t n, size_t i,
		      const struct budget_rules *rules)
{
	const struct budget_case *c = &cs[i];
	ptrdiff_t up = -1, down = -1;

	if (c->closed || c->runs >= rules->max)
		return false;
	if (c->group != BUDGET_NO_GROUP)
		neighbours(cs, n, i, &up, &down);
	if ((up >= 0 && overlaps(c, &cs[up])) || (down >= 0 && overlaps(c, &cs[down])))
		return true;
	if (!too_wide(c, rules))
		return false;
	if (up < 0 && down < 0)
		return true;
	return (up >= 0 && close_to(c, &cs[up], rules)) ||
	       (down >= 0 && close_to(c, &cs[down], rules));
}

static int by_cost(const void *a, const void *b, void *base)
{
	const struct budget_case *cs = base;
	double x = cs[*(const size_t *)a].cost_s, y = cs[*(const size_t *)b].cost_s;

	if (x != y)
		return (x > y) - (x < y);
	x = (double)*(const size_t *)a;
	y = (double)*(const size_t *)b;
	return (x > y) - (x < y);
}

/* The unsettled cases, cheapest first, while they fit left_s. */
static size_t spend(const struct budget_case *cs, size_t n, const struct budget_rules *rules,
		    double left_s, bool *want)
{
	size_t *order = malloc((n ? n : 1) * sizeof(*order)), k = 0, chosen = 0;

	if (!order)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (budget_unsettled(cs, n, i, rules))
			order[k++] = i;
	qsort_r(order, k, sizeof(*order), by_cost, (void *)cs);
	for (size_t j = 0; j < k && cs[order[j]].cost_s <= left_s; j++) {
		left_s -= cs[order[j]].cost_s;
		want[order[j]] = true;
		chosen++;
	}
	free(order);
	return chosen;
}

size_t budget_next_round(const struct budget_case *cs, size_t n, const struct budget_rules *rules,
			 double left_s, bool *want)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		want[i] = open_case(&cs[i]) && cs[i].runs < rules->min;
		k += want[i];
	}
	return k ? k : spend(cs, n, rules, left_s, want);
}
