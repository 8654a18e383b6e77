// SPDX-License-Identifier: MIT
/*
 * cmd_history.c - `bench history SUBCOMMAND`: the usage and the dispatch to
 * add, check, changes, plot and export (harness/history/, history.h). Each
 * subcommand parses its options with the option table (cli_table.c).
 */
#include "cli.h"
#include "commands.h"
#include "history.h"

#include <string.h>

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv, const struct history_io *io);
} subcommands[] = {
	{ "add", history_add_cli },
	{ "changes", history_changes_cli },
	{ "check", history_check_cli },
	{ "export", history_export_cli },
	{ "plot", history_plot_cli },
};

int history_cli(int argc, char **argv, FILE *out, FILE *err)
{
	char who[64];

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cli_help(CMD_HISTORY, out);
		return 0;
	}
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		fprintf(out, "bench (copybench) %s\n", COPYBENCH_VERSION);
		return 0;
	}
	for (size_t i = 0; argc >= 2 && i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		struct history_io io = { .who = who, .out = out, .err = err };

		if (strcmp(argv[1], subcommands[i].name))
			continue;
		snprintf(who, sizeof(who), "bench history %s", subcommands[i].name);
		return subcommands[i].fn(argc - 1, argv + 1, &io);
	}
	if (argc < 2)
		fprintf(err, "bench history: which one: add, check, changes, plot or export? (see bench history --help)\n");
	else if (argv[1][0] == '-')
		fprintf(err, "bench history: unknown option '%s' (see bench history --help)\n", argv[1]);
	else
		fprintf(err, "bench history: unknown subcommand '%s' (see bench history --help)\n", argv[1]);
	return 2;
}

int cmd_history(int argc, char **argv)
{
	return history_cli(argc, argv, stdout, stderr);
}
