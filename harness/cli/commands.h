/* SPDX-License-Identifier: MIT */
/* commands.h - the subcommands of bench. argv[0] is the subcommand's name;
 * each returns the process exit status. */
#ifndef COPYBENCH_COMMANDS_H
#define COPYBENCH_COMMANDS_H

int cmd_run(int argc, char **argv);	/* bench [options] */
int cmd_list(int argc, char **argv);
int cmd_copy(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_evict(int argc, char **argv);
int cmd_clean(int argc, char **argv);
int cmd_ab(int argc, char **argv);	/* cmd_ab.c: two builds, pair by pair */

#endif
