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
 * two greys side by side read as one row.
 */
#include "plot_internal.h"
#include "channel.h"
#include "command.h"
#include "strategy.h"
#include "workload.h"

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
