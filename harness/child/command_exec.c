// SPDX-License-Identifier: MIT
/* command_exec.c - a `--command` row's run in the per-run child (see command_exec.h). */
#include "command_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* After the timeout, SIGALRM comes again this often until the wait ends. */
#define TIMER_REPEAT_US 100000

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

/* A repeating SIGALRM from timeout_s on, which interrupts the wait. */
static int arm_timeout(double timeout_s)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	long long us = (long long)(timeout_s * 1e6);
	struct itimerval it = {
		.it_value = { .tv_sec = us / 1000000, .tv_usec = us % 1000000 },
		.it_interval = { .tv_sec = 0, .tv_usec = TIMER_REPEAT_US },
	};

	timed_out = 0;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL))
		return -errno;
	return 0;
}

static void disarm_timeout(void)
{
	struct itimerval off = { 0 };

	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_DFL);
}

int command_exec_setup(struct command_exec *x, const char *template, const char *src,
		       const char *dst)
{
	char why[160];
	int err;

	x->null_fd = x->err_fd = -1;
	if (command_split(template, src, dst, x->argv, COMMAND_WORDS_MAX, x->words,
			  sizeof(x->words), why, sizeof(why))) {
		snprintf(x->msg, x->msg_size, "the command's template: %s", why);
		return -EINVAL;
	}
	x->null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	x->err_fd = memfd_create("command-stderr", MFD_CLOEXEC);
	if (x->null_fd < 0 || x->err_fd < 0) {
		err = -errno;
		snprintf(x->msg, x->msg_size, "cannot prepare the command's stdin and stderr: %s",
			 strerror(errno));
		goto out_close;
	}
	err = arm_timeout(x->timeout_s);
	if (!err)
		return 0;
	snprintf(x->msg, x->msg_size, "cannot arm the command's timeout: %s", strerror(-err));
out_close:
	command_exec_teardown(x);
	return err;
}

/*
 * The command in a process group of its own, stdin and stdout on
 * /dev/null, stderr into the memory file: posix_spawnp, which clones
 * without copying bench's page tables (vfork), so that the start-up is the
 * program's, not a fork of bench's address space.
 */
static int spawn_command(const struct command_exec *x, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none;
	int err;

	sigemptyset(&none);
	if (posix_spawn_file_actions_init(&fa))
		return -ENOMEM;
	if (posix_spawnattr_init(&attr)) {
		posix_spawn_file_actions_destroy(&fa);
		return -ENOMEM;
	}
	err = posix_spawn_file_actions_adddup2(&fa, x->null_fd, 0);
	err = err ? err : posix_spawn_file_actions_adddup2(&fa, x->null_fd, 1);
	err = err ? err : posix_spawn_file_actions_adddup2(&fa, x->err_fd, 2);
	err = err ? err : posix_spawnattr_setpgroup(&attr, 0);
	err = err ? err : posix_spawnattr_setsigmask(&attr, &none);
	err = err ? err : posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP |
							  POSIX_SPAWN_SETSIGMASK);
	err = err ? err : posix_spawnp(pid, x->argv[0], &fa, &attr, x->argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return -err;
}

/* The first line the command wrote to its stderr, "" when none. */
static void first_stderr_line(const struct command_exec *x, char *out, size_t n)
{
	ssize_t got = pread(x->err_fd, out, n - 1, 0);

	out[got > 0 ? got : 0] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* The message for a command that ended badly (status from wait4). */
static void describe_status(struct command_exec *x, int status)
{
	char line[160], what[64];

	if (WIFSIGNALED(status)) {
		const char *abbrev = sigabbrev_np(WTERMSIG(status));

		snprintf(what, sizeof(what), "was killed by SIG%s", abbrev ? abbrev : "?");
	} else {
		snprintf(what, sizeof(what), "exited with status %d", WEXITSTATUS(status));
	}
	first_stderr_line(x, line, sizeof(line));
	snprintf(x->msg, x->msg_size, "the command %s%s%s%s", what,
		 line[0] ? ": \"" : " (nothing on stderr)", line, line[0] ? "\"" : "");
}

/* Kills the command's process group and reaps the command. */
static void kill_and_reap(pid_t pid)
{
	kill(-pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int command_exec_run(struct command_exec *x)
{
	int status, err;
	pid_t pid;

	err = spawn_command(x, &pid);
	if (err) {
		snprintf(x->msg, x->msg_size, "cannot run %s: %s", x->argv[0], strerror(-err));
		return err;
	}
	*x->group = pid;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return -errno;
		if (timed_out) {
			kill_and_reap(pid);
			snprintf(x->msg, x->msg_size,
				 "the command did not end within the timeout (%g s, --command-timeout): killed with its process group",
				 x->timeout_s);
			return -ETIMEDOUT;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	describe_status(x, status);
	return -ECANCELED;
}

void command_exec_teardown(struct command_exec *x)
{
	disarm_timeout();
	if (x->group && *x->group > 0)
		kill(-*x->group, SIGKILL);	/* what it left running */
	if (x->err_fd >= 0)
		close(x->err_fd);
	if (x->null_fd >= 0)
		close(x->null_fd);
	x->err_fd = x->null_fd = -1;
}
