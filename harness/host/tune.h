/* SPDX-License-Identifier: MIT */
/*
 * tune.h - `--tune` (root): quiet the machine for the length of a run, like
 * pyperf's `system tune`, and put everything back afterwards. Today one
 * knob: a virtual machine's free-page reporting (virtio-balloon), which
 * hands memory the guest frees back to the host, so that the next run that
 * allocates it pays a host fault per page (docs/noise.md). Raising
 * page_reporting_order above the largest page order the kernel has turns
 * reporting off; the old value is restored when the run ends, also after
 * Ctrl-C.
 */
#ifndef COPYBENCH_TUNE_H
#define COPYBENCH_TUNE_H

#include <stdbool.h>
#include <stddef.h>

struct tune_state {
	bool reporting_off;	/* we changed page_reporting_order */
	char old_order[16];	/* its value before */
};

/*
 * Applies the tuning; what it did (or why it could not) goes into said.
 * 0, or -errno when a knob exists but could not be changed (not root).
 */
int tune_apply(struct tune_state *t, char *said, size_t n);
/* Puts back what tune_apply changed. */
void tune_restore(struct tune_state *t);

#endif
