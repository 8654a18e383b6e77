// SPDX-License-Identifier: MIT
/* main.c - bench: dispatch to a subcommand, or run benchmarks. */
#include "commands.h"
#include "interrupt.h"

#include <stdio.h>
#include <string.h>

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct subcommand subcommands[] = {
	{ "ab", cmd_ab },
	{ "baseline", cmd_baseline },
	{ "check", cmd_check },
	{ "clean", cmd_clean },
	{ "columns", cmd_columns },	/* for results/README.md */
	{ "copy", cmd_copy },
	{ "evict", cmd_evict },
	{ "gen", cmd_gen },
	{ "history", cmd_history },
	{ "list", cmd_list },
	{ "plot", cmd_plot },
};

int main(int argc, char **argv)
{
	interrupt_install();
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
			if (strcmp(argv[1], subcommands[i].name) == 0)
				return subcommands[i].fn(argc - 1, argv + 1);
		fprintf(stderr, "bench: unknown command '%s' (see bench --help)\n", argv[1]);
		return 2;
	}
	return cmd_run(argc, argv);
}
