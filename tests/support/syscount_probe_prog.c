// SPDX-License-Identifier: MIT
/*
 * syscount_probe_prog.c - runs syscount_work_run between two marker calls
 * that are easy to find in strace -f output: access() of the nonexistent
 * names "syscount-probe-begin" and "syscount-probe-end".
 * Usage: syscount_probe_prog DIR   (DIR holds the temporary file)
 */
#include "syscount_work.h"

#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct syscount_work w;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	if (syscount_work_prepare(&w, argv[1]))
		return 1;
	access("syscount-probe-begin", F_OK);
	err = syscount_work_run(&w);
	access("syscount-probe-end", F_OK);
	syscount_work_close(&w);
	fflush(stdout);
	_exit(err ? 1 : 0);	/* _exit: a leak checker cannot run under strace */
}
