// SPDX-License-Identifier: MIT
/*
 * plot_palette.c - one colour per strategy in every chart: a fixed palette
 * keyed by the strategy's (or channel's, or limit row's) name, so that
 * readwrite is the same blue in the throughput bars, the buffer-sweep and
 * size-scaling curves and each panel of the compare chart. The registry
 * order gives each known name its own colour; another name (a strategy of
 * a newer tree in an older folder) gets one by a hash of its name.
 */
#include "plot_internal.h"
#include "channel.h"
#include "strategy.h"

#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {
	"#4878a8", "#e4803a", "#5aa05a", "#c44e52", "#8172b2", "#937860",
	"#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd", "#1b3a5c", "#a0522d",
	"#2e8b57", "#ff9896", "#6a3d9a", "#17becf", "#b15928", "#1f78b4",
	"#33a02c", "#e31a1c", "#ff7f00", "#cab2d6", "#b2df8a", "#fb9a99",
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

static const char *const limit_names[] = { "memcpy", "memcpy-movsb", "memcpy-mt" };

/* The name's place among strategies, channels and limit rows, or -1. */
static long registry_index(const char *name)
{
	size_t k = 0;

	for (size_t i = 0; i < strategy_count; i++, k++)
		if (!strcmp(strategy_table[i]->name, name))
			return (long)k;
	for (size_t i = 0; i < channel_count; i++, k++)
		if (!strcmp(channel_table[i]->name, name))
			return (long)k;
	for (size_t i = 0; i < sizeof(limit_names) / sizeof(limit_names[0]); i++, k++)
		if (!strcmp(limit_names[i], name))
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
