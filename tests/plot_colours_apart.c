// SPDX-License-Identifier: MIT
/*
 * plot_colours_apart.c - every name a chart can draw (strategies, channels,
 * limit rows and tree methods, default commands) has a colour of its own in
 * the palette, and at most one of them is a grey: two greys side by side
 * read as one row.
 */
#include "plot_internal.h"
#include "channel.h"
#include "command.h"
#include "strategy.h"
#include "workload.h"
#include "testutil.h"

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
	return test_report("plot_colours_apart");
}
