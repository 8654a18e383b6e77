// SPDX-License-Identifier: MIT
/*
 * plot_colours_apart.c - every name a chart can draw (strategies, channels,
 * limit rows and tree methods, default commands) has a colour of its own in
 * the palette, and at most one of them is a grey: two greys side by side
 * read as one row. Within one chart every two rows look apart (at least
 * PLOT_COLOURS_APART): the rows of one strategy (buffers, batches) are
 * shades of its colour, and so is a strategy whose colour is close to
 * another's in the chart.
 */
#include "options/command.h"
#include "plot/plot_internal.h"
#include "strategies/strategy.h"
#include "support/testutil.h"
#include "workloads/channels/channel.h"
#include "workloads/workload.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 256

static const char *names[MAX_NAMES];
static size_t nnames;

static void add(const char *name)
{
	if (nnames < MAX_NAMES)
		names[nnames++] = name;
}

static void collect(void)
{
	for (size_t i = 0; i < strategy_count; i++)
		if (!(strategy_table[i]->flags & STRATEGY_TEST_ONLY))
			add(strategy_table[i]->name);
	for (size_t i = 0; i < channel_count; i++)
		add(channel_table[i]->name);
	for (size_t i = 0; i < workload_count; i++)
		for (const struct workload_variant *v = workload_table[i]->own_variants;
		     v && v->name; v++)
			add(v->name);
	for (size_t i = 0; i < command_default_count; i++)
		add(command_defaults[i].name);
}

/* #rrggbb with r, g and b within 24 of each other: a grey. */
static int grey(const char *c)
{
	long v = strtol(c + 1, NULL, 16);
	int r = (int)(v >> 16) & 255, g = (int)(v >> 8) & 255, b = (int)v & 255;
	int hi = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int lo = r < g ? (r < b ? r : b) : (g < b ? g : b);

	return hi - lo <= 24;
}

#define MAX_ROWS 512

/* A chart of the names first..first+n, `rows` rows each (strategy by
 * strategy, as a sorted chart may have them): every two rows apart. */
static void rows_apart(size_t first, size_t n, size_t rows, const char *what)
{
	static const char *row_names[MAX_ROWS];
	static long colours[MAX_ROWS];
	size_t m = 0;
	double least = 1e9;

	for (size_t r = 0; r < rows; r++)
		for (size_t i = first; i < first + n && m < MAX_ROWS; i++)
			row_names[m++] = names[i];
	plot_row_colours(row_names, m, colours);
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < i; j++) {
			double d = plot_colour_distance(colours[i], colours[j]);

			if (d < least)
				least = d;
			if (d < PLOT_COLOURS_APART)
				fprintf(stderr, "%s: %s #%06lx and %s #%06lx %.1f apart\n", what,
					row_names[j], colours[j], row_names[i], colours[i], d);
		}
	printf("%s: %zu rows, the closest two %.1f apart\n", what, m, least);
	CHECK(least >= PLOT_COLOURS_APART);
	/* a strategy's first row keeps its colour unless another's is close */
	CHECK_EQ_U64(colours[0], plot_colour_int(row_names[0]));
}

static void charts_apart(void)
{
	size_t nstrategies = 0, nchannels = channel_count;

	for (size_t i = 0; i < strategy_count; i++)
		nstrategies += !(strategy_table[i]->flags & STRATEGY_TEST_ONLY);
	rows_apart(0, nstrategies, 3, "strategies at 8K, 64K, 4M");
	rows_apart(nstrategies, nchannels, 4, "channels at four batches");
	rows_apart(0, nnames, 1, "every name");
	rows_apart(0, nnames, 2, "every name twice");
}

int main(void)
{
	size_t greys = 0;

	collect();
	CHECK(nnames > 20);
	for (size_t i = 0; i < nnames; i++) {
		const char *ci = plot_colour(names[i]);

		greys += grey(ci);
		for (size_t j = 0; j < i; j++) {
			if (strcmp(names[i], names[j]) && !strcmp(ci, plot_colour(names[j]))) {
				fprintf(stderr, "%s and %s share %s\n", names[j], names[i], ci);
				CHECK(0);
			}
		}
	}
	if (greys > 1)
		fprintf(stderr, "%zu names are grey\n", greys);
	CHECK(greys <= 1);
	charts_apart();
	return test_report("plot_colours_apart");
}
