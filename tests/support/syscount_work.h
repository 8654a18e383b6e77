/* SPDX-License-Identifier: MIT */
/*
 * syscount_work.h - a fixed sequence of system calls whose counts are known
 * exactly, shared by the syscount tests and the probe program run under
 * strace. It uses a thread and a child process, as the timed work may.
 */
#ifndef COPYBENCH_SYSCOUNT_WORK_H
#define COPYBENCH_SYSCOUNT_WORK_H

/* What syscount_work_run issues itself (libc adds calls around threads). */
#define WORK_PREAD64	110	/* 100 in the caller, 10 in the thread */
#define WORK_PWRITE64	37
#define WORK_LSEEK	5
#define WORK_FDATASYNC	3
#define WORK_WRITE	7	/* in the forked child, to /dev/null */
#define WORK_WAIT4	1	/* waitpid for that child */

struct syscount_work {
	int fd;			/* a 64 KiB temporary file */
	int devnull;
};

/* Creates the file under dir and opens /dev/null; 0 or -errno. */
int syscount_work_prepare(struct syscount_work *w, const char *dir);
/* The counted sequence; 0 when every call did what it should. */
int syscount_work_run(struct syscount_work *w);
void syscount_work_close(struct syscount_work *w);

#endif
