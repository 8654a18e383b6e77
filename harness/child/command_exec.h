/* SPDX-License-Identifier: MIT */
/*
 * command_exec.h - a `--command` row's run, in the per-run child.
 *
 * setup (untimed): the template split into words with the run's paths, the
 * command's stdin and stdout on /dev/null, its stderr into a memory file,
 * the timeout armed (SIGALRM, repeating so that none is missed).
 * run (timed, counted): posix_spawnp (a vfork-like clone, then exec) in a
 * process group of its own, wait. The clock therefore holds the spawn, the
 * program's whole life (loader, start-up, its copy, exit) and the wait: a
 * whole process, as hyperfine times it. A command that exits non-zero or dies fails with its status and
 * the first line of its stderr; one that outlives the timeout is killed
 * with its whole process group.
 * teardown (untimed): the timeout disarmed, whatever is left of the
 * command's process group killed, the files closed.
 *
 * The process group is written to *group (memory shared with bench's
 * parent process), so that the parent kills it too when bench is
 * interrupted (child.h, child_work.group).
 */
#ifndef COPYBENCH_COMMAND_EXEC_H
#define COPYBENCH_COMMAND_EXEC_H

#include <stddef.h>

#include "options/command.h"

struct command_exec {
	char *argv[COMMAND_WORDS_MAX];
	char words[8192];
	int null_fd;
	int err_fd;		/* the command's stderr: a memfd */
	double timeout_s;
	volatile int *group;	/* shared with the parent; 0 until started */
	char *msg;		/* the run's error detail */
	size_t msg_size;
};

/* 0 or -errno with x->msg filled. */
int command_exec_setup(struct command_exec *x, const char *template, const char *src,
		       const char *dst);
/* 0 when the command exited 0; -ETIMEDOUT, -ECANCELED (a non-zero exit
 * or a signal) or -errno, with x->msg filled. */
int command_exec_run(struct command_exec *x);
void command_exec_teardown(struct command_exec *x);

#endif
