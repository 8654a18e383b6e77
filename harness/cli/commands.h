/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the subcommands of bench, all defined in harness/cli/ (the
 * options and usage of each; what it does is in the room of its job).
 * argv[0] is the subcommand's name; each returns the process exit status.
 */
#ifndef COPYBENCH_COMMANDS_H
#define COPYBENCH_COMMANDS_H

#include <stdio.h>

int cmd_run(int argc, char **argv);	/* bench [options] */
int cmd_list(int argc, char **argv);
int cmd_copy(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_evict(int argc, char **argv);
int cmd_clean(int argc, char **argv);
int cmd_ab(int argc, char **argv);	/* cmd_ab.c: two builds, pair by pair */
/* Exit codes: 0 no regression, 1 regression, 2 bad input, 3 inconclusive
 * (CHECK_EXIT_INCONCLUSIVE, check.h). */
int cmd_check(int argc, char **argv);
int cmd_baseline(int argc, char **argv);	/* bench baseline save */
/* Exit codes: 0 when every chart with data was drawn, 1 on an error, 2 on
 * a usage error or when gnuplot is not installed (plot_results, plot.h). */
int cmd_plot(int argc, char **argv);
/* Exit codes: 0 ok, 1 regression or failure, 2 bad input. */
int cmd_history(int argc, char **argv);
int cmd_columns(int argc, char **argv);	/* for results/README.md, not in the usage */

/* bench check, bench baseline and bench history with the report written to
 * out and messages to err. */
int check_cli(int argc, char **argv, FILE *out, FILE *err);
int check_baseline_cli(int argc, char **argv, FILE *out, FILE *err);
int history_cli(int argc, char **argv, FILE *out, FILE *err);

/* `bench --completion bash`: the bash completion script, from the option
 * table (cli_complete.c). */
void cli_completion_bash(FILE *f);

#endif
