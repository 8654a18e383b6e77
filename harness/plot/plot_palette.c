// SPDX-License-Identifier: MIT
/*
 * plot_palette.c - one colour per strategy in every chart: a fixed palette
 * keyed by the strategy's (or channel's, or limit row's) name, so that
 * readwrite is the same blue in the throughput bars, the buffer-sweep and
 * size-scaling curves and each panel of the compare chart. The registry
 * order gives each known name its own colour (strategies, channels, limit
 * rows and tree methods, default commands: fewer than the palette's
 * colours); another name (a strategy of a newer tree in an older folder,
 * a command of the user's) gets one by a hash of its name. One grey only:
 * two greys side by side read as one row. Within one chart, rows of one
 * strategy (several buffers, batches) and strategies whose colours are
 * close get shades of their colour, so that no two rows look alike.
 */
#include "plot_internal.h"
#include "options/command.h"
#include "strategies/strategy.h"
#include "workloads/channels/channel.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {
	"#4878a8", "#e4803a", "#5aa05a", "#c44e52", "#8172b2", "#937860",
	"#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd", "#1b3a5c", "#a0522d",
	"#2e8b57", "#ff9896", "#6a3d9a", "#17becf", "#b15928", "#1f78b4",
	"#33a02c", "#e31a1c", "#ff7f00", "#cab2d6", "#b2df8a", "#fb9a99",
	"#7f3b08", "#40004b", "#00441b", "#bf812d", "#762a83", "#35978f",
	"#d6604d", "#e7298a", "#9970ab", "#01665e", "#f46d43", "#74add1",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

/* The name's place among the strategies (test-only ones aside: they are
 * in no chart a user reads), channels, workloads' own variants (limit rows,
 * tree methods) and default commands, or -1. */
static long registry_index(const char *name)
{
	size_t k = 0;

	for (size_t i = 0; i < strategy_count; i++) {
		if (strategy_table[i]->flags & STRATEGY_TEST_ONLY)
			continue;
		if (!strcmp(strategy_table[i]->name, name))
			return (long)k;
		k++;
	}
	for (size_t i = 0; i < channel_count; i++, k++)
		if (!strcmp(channel_table[i]->name, name))
			return (long)k;
	for (size_t i = 0; i < workload_count; i++)
		for (const struct workload_variant *v = workload_table[i]->own_variants;
		     v && v->name; v++, k++)
			if (!strcmp(v->name, name))
				return (long)k;
	for (size_t i = 0; i < command_default_count; i++, k++)
		if (!strcmp(command_defaults[i].name, name))
			return (long)k;
	return -1;
}

const char *plot_colour(const char *name)
{
	long k = registry_index(name);
	unsigned long h = 5381;

	if (k >= 0)
		return palette[(size_t)k % NPALETTE];
	for (const char *s = name; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return palette[h % NPALETTE];
}

long plot_colour_int(const char *name)
{
	return strtol(plot_colour(name) + 1, NULL, 16);
}

/* How far apart two colours look: the "redmean" weighted RGB distance (0
 * for one colour, about 765 from black to white). */
double plot_colour_distance(long a, long b)
{
	long r1 = a >> 16 & 255, g1 = a >> 8 & 255, b1 = a & 255;
	long r2 = b >> 16 & 255, g2 = b >> 8 & 255, b2 = b & 255;
	double r = (double)(r1 + r2) / 2, dr = (double)(r1 - r2);
	double dg = (double)(g1 - g2), db = (double)(b1 - b2);

	return sqrt((2 + r / 256) * dr * dr + 4 * dg * dg + (2 + (255 - r) / 256) * db * db);
}

/* c mixed toward white (t > 0) or black (t < 0) by |t|. */
static long shade(long c, double t)
{
	long out = 0;

	for (int shift = 16; shift >= 0; shift -= 8) {
		double v = (double)(c >> shift & 255);

		v = t > 0 ? v + (255 - v) * t : v * (1 + t);
		out |= (long)(v + 0.5) << shift;
	}
	return out;
}

/* The shades a row may take, its strategy's own colour first. */
static const double shades[] = { 0, -0.3, 0.35, -0.5, 0.55, -0.15, 0.18, 0.7, -0.65 };
#define NSHADES (sizeof(shades) / sizeof(shades[0]))

/* The least distance from c to the n colours taken. */
static double nearest(long c, const long *taken, size_t n)
{
	double d = 1e9;

	for (size_t i = 0; i < n; i++)
		if (plot_colour_distance(c, taken[i]) < d)
			d = plot_colour_distance(c, taken[i]);
	return d;
}

/* Row i's colour: the first shade of its strategy's far enough from the
 * colours taken, else the farthest. */
static long row_colour(const char *name, const long *taken, size_t n)
{
	long base = plot_colour_int(name), best = base;
	double best_d = -1;

	for (size_t k = 0; k < NSHADES; k++) {
		long c = shade(base, shades[k]);
		double d = nearest(c, taken, n);

		if (d >= PLOT_COLOURS_APART)
			return c;
		if (d > best_d) {
			best = c;
			best_d = d;
		}
	}
	return best;
}

static bool first_of_name(const char *const *names, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(names[j], names[i]))
			return false;
	return true;
}

void plot_row_colours(const char *const *names, size_t n, long *out)
{
	long *taken = calloc(n ? n : 1, sizeof(*taken));
	size_t ntaken = 0;

	if (!taken) {
		for (size_t i = 0; i < n; i++)
			out[i] = plot_colour_int(names[i]);
		return;
	}
	/* each strategy's first row first: it keeps the palette's colour */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (first_of_name(names, i) == (pass == 0)) {
				out[i] = row_colour(names[i], taken, ntaken);
				taken[ntaken++] = out[i];
			}
	free(taken);
}
