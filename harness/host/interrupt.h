/* SPDX-License-Identifier: MIT */
/*
 * interrupt.h - SIGINT/SIGTERM: note them, let the run loop stop at a safe
 * point, clean up, and exit 130/143. Critical sections (writing results,
 * removing temp data) block both signals so a second Ctrl-C cannot cut them.
 */
#ifndef COPYBENCH_INTERRUPT_H
#define COPYBENCH_INTERRUPT_H

#include <signal.h>

extern volatile sig_atomic_t interrupt_signal;	/* 0, SIGINT or SIGTERM */

void interrupt_install(void);
/* In a forked child: default actions again, nothing blocked. */
void interrupt_reset_child(void);
void interrupt_block(sigset_t *old);
void interrupt_restore(const sigset_t *old);
/* 130 for SIGINT, 143 for SIGTERM, 0 when not interrupted. */
int interrupt_exit_code(void);

#endif
