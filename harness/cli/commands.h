/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the subcommands of bench, all defined in harness/cli/ (the
 * options and usage of each; what it does is in the room of its job).
 * argv[0] is the subcommand's name; each returns the process exit status.
 */
#ifndef COPYBENCH_COMMANDS_H
#define COPYBENCH_COMMANDS_H

#include "options/cli.h"

#include <stdio.h>

/*
 * Each command's function, cmd_NAME, from CLI_COMMAND_LIST (options/cli.h):
 * cmd_run is `bench [options]`; cmd_check's exit codes are 0 no regression,
 * 1 regression, 2 bad input, 3 inconclusive (CHECK_EXIT_INCONCLUSIVE,
 * check.h); cmd_plot's 0 when every chart with data was drawn, 1 on an
 * error, 2 on a usage error or without gnuplot (plot_results, plot.h);
 * cmd_columns writes the column table for results/README.md.
 */
/*
 * The whole of bench: a subcommand by its name, or `bench [options]`; the
 * process exit status. The product's main() is this alone; a program that
 * is bench plus strategies of its own (the tests' bench_fixtures) registers
 * them first (strategy_register_extra, strategies/strategy.h).
 */
int bench_main(int argc, char **argv);

#define COMMANDS_DECLARE(id, name, fn, summary) int fn(int argc, char **argv);
#define COMMANDS_NO_SUB(...)
CLI_COMMAND_LIST(COMMANDS_DECLARE, COMMANDS_NO_SUB)
#undef COMMANDS_DECLARE
#undef COMMANDS_NO_SUB

/*
 * Each history subcommand's function, from CLI_HISTORY_LIST: `bench history
 * NAME ...` with argv[0] NAME and io naming it in messages ("bench history
 * NAME"); it returns the exit status. cmd_history.c dispatches to them; a
 * new one may live in a file of its own (cmd_history_<name>.c).
 */
struct history_io;
#define COMMANDS_DECLARE_SUB(id, name, fn, synopsis, summary) \
	int fn(int argc, char **argv, const struct history_io *io);
CLI_HISTORY_LIST(COMMANDS_DECLARE_SUB)
#undef COMMANDS_DECLARE_SUB

/* bench check, bench baseline and bench history with the report written to
 * out and messages to err. */
int check_cli(int argc, char **argv, FILE *out, FILE *err);
int check_baseline_cli(int argc, char **argv, FILE *out, FILE *err);
int history_cli(int argc, char **argv, FILE *out, FILE *err);

/* `bench --completion bash`: the bash completion script, from the option
 * table (cli_complete.c). */
void cli_completion_bash(FILE *f);

#endif
