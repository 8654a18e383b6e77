/* SPDX-License-Identifier: MIT */
/*
 * firsttouch.h - what fresh anonymous memory costs on this machine: the
 * time to touch a page the process never touched, per 4 KiB, on 4 KiB
 * pages and on transparent huge pages. The guest's page fault and zeroing
 * on bare metal (a fraction of a microsecond per 4 KiB); on some virtual
 * machines also the host's work for every new page mapping, tens of
 * microseconds. Strategies that allocate their buffers inside the clock
 * (full-buffer's whole-file buffer, a page cache grown for the output) pay
 * it: the fact explains why they are slow on one machine and not on
 * another. Measured once per invocation: 1 MiB and one huge page, three
 * rounds (bench may run in a memory cgroup of a few tens of MiB).
 */
#ifndef COPYBENCH_FIRSTTOUCH_H
#define COPYBENCH_FIRSTTOUCH_H

struct first_touch {
	double us_4k;		/* µs per 4 KiB page on 4 KiB pages; < 0 unknown */
	double us_huge;		/* µs per 4 KiB on huge pages; < 0 none here */
};

void first_touch_measure(struct first_touch *ft);

#endif
