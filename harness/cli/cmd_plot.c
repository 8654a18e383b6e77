// SPDX-License-Identifier: MIT
/*
 * cmd_plot.c - `bench plot [--out DIR] [RESULTS_DIR...]`: the options and
 * operands (the latest results folder when none is named); the charts are
 * drawn by plot_results (harness/plot/plot_run.c).
 */
#include "commands.h"
#include "options/cli.h"
#include "plot/plot.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct plot_args {
	const char *inputs[PLOT_MAX_INPUTS];
	size_t ninputs;
	const char *out;	/* --out, or NULL */
};

static int plot_apply(struct cli_parser *p, const struct cli_option *opt,
		      const struct cli_value *v)
{
	if (opt->id == OPT_PLOT_OUT)
		*(const char **)p->ctx = v->str;
	return 0;
}

/* Parses argv into a. 0, -1 after --help, or the exit code to return. */
static int plot_parse_args(struct plot_args *a, int argc, char **argv)
{
	static char latest[PATH_MAX];
	struct cli_parser p = { .cmd = CMD_PLOT, .apply = plot_apply, .ctx = &a->out,
				.max_operands = PLOT_MAX_INPUTS };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret;
	for (int i = 0; i < p.noperands; i++) {
		struct stat st;

		if (stat(p.operands[i], &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "bench plot: '%s' is not a results folder\n", p.operands[i]);
			return 2;
		}
		a->inputs[a->ninputs++] = p.operands[i];
	}
	if (!a->ninputs) {
		if (!plot_latest_results(latest, sizeof(latest))) {
			fprintf(stderr, "bench plot: no results folder under results/; run bench first or name one\n");
			return 2;
		}
		a->inputs[a->ninputs++] = latest;
	}
	for (size_t i = 0; i <= a->ninputs; i++) {
		const char *name = i < a->ninputs ? a->inputs[i] : a->out;

		if (name && strpbrk(name, "\"'\\")) {
			fprintf(stderr, "bench plot: %s: quotes or backslashes in the folder name are not supported\n", name);
			return 2;
		}
	}
	return 0;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a = { .ninputs = 0 };
	int ret = plot_parse_args(&a, argc, argv);

	if (!ret)
		ret = plot_results(a.inputs, a.ninputs, a.out);
	return ret < 0 ? 0 : ret;
}
