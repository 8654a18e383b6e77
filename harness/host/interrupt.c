// SPDX-License-Identifier: MIT
/* interrupt.c - see interrupt.h. The handler only records the signal; system
 * calls it interrupts return EINTR (no SA_RESTART) so waits notice it. */
#include "interrupt.h"

#include <string.h>

volatile sig_atomic_t interrupt_signal;

static void on_signal(int signo)
{
	interrupt_signal = signo;
}

void interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

void interrupt_reset_child(void)
{
	sigset_t none;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

void interrupt_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, old);
}

void interrupt_restore(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

int interrupt_exit_code(void)
{
	if (interrupt_signal == SIGINT)
		return 130;
	if (interrupt_signal == SIGTERM)
		return 143;
	return 0;
}
