// SPDX-License-Identifier: MIT
/* bench_main.c - bench: dispatch to a subcommand, or run benchmarks. */
#include "commands.h"
#include "host/interrupt.h"

#include <stdio.h>
#include <string.h>

/* CLI_COMMAND_LIST (cli.h): each command's function, in a table. */
#define COMMAND_ENTRY(id, name, fn, summary) { name, fn },
#define NO_SUB(...)

static const struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
} subcommands[] = {
	CLI_COMMAND_LIST(COMMAND_ENTRY, NO_SUB)
};

int bench_main(int argc, char **argv)
{
	interrupt_install();
	if (argc > 1 && argv[1][0] != '-') {
		for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
			if (subcommands[i].name[0] && strcmp(argv[1], subcommands[i].name) == 0)
				return subcommands[i].fn(argc - 1, argv + 1);
		fprintf(stderr, "bench: unknown command '%s' (see bench --help)\n", argv[1]);
		return 2;
	}
	return cmd_run(argc, argv);
}
