// SPDX-License-Identifier: MIT
/*
 * plot_cpu_split.c - the cpu-split chart of `bench plot`: user and system
 * CPU time per strategy, stacked, beside the wall-clock median; a row too
 * short for rusage to split is drawn as its total, unsplit, and named.
 */
#include "plot_internal.h"

#include <stdio.h>
#include <unistd.h>

/*
 * rusage splits a run's CPU time into user and system by the clock ticks
 * that fell in each (the total is exact, the split is sampled): a run of a
 * few ticks comes out all user or all system. A row under CPU_SPLIT_TICKS
 * ticks of CPU a run is drawn unsplit, a grey bar of its total, and named
 * in the chart's caveat.
 */
#define CPU_SPLIT_TICKS 5

/* The least CPU time a run rusage can split, in ns: 5 ticks of
 * sysconf(_SC_CLK_TCK) (10 ms at 100 Hz). */
static double cpu_split_min_ns(void)
{
	long hz = sysconf(_SC_CLK_TCK);

	return CPU_SPLIT_TICKS * 1e9 / (double)(hz > 0 ? hz : 100);
}

static bool cpu_split_resolved(const struct plot_row *r)
{
	return r->user_ns + r->sys_ns >= cpu_split_min_ns();
}

/* The caveat naming the rows drawn unsplit ("" when none). */
static void cpu_split_caveat(const struct plot_row **v, size_t n, struct plot_vars *vars)
{
	char caveat[1024], label[160];
	size_t len, unsplit = 0;

	len = (size_t)snprintf(caveat, sizeof(caveat),
			       "grey: not split, under %d ticks (%.0f ms) of CPU a run, too few for rusage to tell user from system:",
			       CPU_SPLIT_TICKS, cpu_split_min_ns() / 1e6);
	for (size_t i = 0; i < n; i++) {
		if (cpu_split_resolved(v[i]))
			continue;
		plot_row_label(v[i], label, sizeof(label));
		if (len < sizeof(caveat))
			len += (size_t)snprintf(caveat + len, sizeof(caveat) - len, "%s %s",
						unsplit ? "," : "", label);
		unsplit++;
	}
	plot_var_str(vars, "caveat", unsplit ? caveat : "");
	plot_var_int(vars, "nunsplit", (long)unsplit);
}

/* 5. User and system CPU time per strategy (stacked) with the wall-clock
 * median; a row too short for rusage to split as its total, unsplit. */
long chart_cpu_split(struct plot_ctx *ctx, struct chart_out *out)
{
	const struct plot_row **v = ctx->v;
	char label[160];
	struct plot_slice s;
	double total = 0;
	size_t nbest;

	if (!chart_main_slice(ctx, &s, out))
		return 0;
	nbest = plot_best_rows(ctx, &s, v);
	for (size_t i = 0; i < nbest; i++)
		total += v[i]->user_ns + v[i]->sys_ns;
	if (total <= 0) {
		snprintf(out->why, sizeof(out->why), "summary.csv has no CPU times (user_ns and sys_ns are empty or zero)");
		return 0;
	}
	fputs("# label  user_ms  sys_ms  wall_ms  unsplit_ms (CPU too short to split)\n", out->f);
	for (size_t i = 0; i < nbest; i++) {
		bool split = cpu_split_resolved(v[i]);
		double cpu = (v[i]->user_ns + v[i]->sys_ns) / 1e6;

		plot_row_label(v[i], label, sizeof(label));
		fprintf(out->f, "\"%s\" %.4f %.4f %.4f %.4f\n", label,
			split ? v[i]->user_ns / 1e6 : 0, split ? v[i]->sys_ns / 1e6 : 0,
			v[i]->median_ns / 1e6, split ? 0 : cpu);
	}
	cpu_split_caveat(v, nbest, &out->vars);
	plot_var_title(&out->vars, ctx, "CPU time split: user and system", &s);
	return (long)nbest;
}
