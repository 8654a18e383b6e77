// SPDX-License-Identifier: MIT
/*
 * syscount_work.c - the known syscall sequence (see syscount_work.h).
 *
 * In order: 100 pread64 of 4 KiB, 37 pwrite64, 5 lseek, 3 fdatasync, a
 * thread doing 10 pread64 (created and joined: libc adds mmap, mprotect,
 * rt_sigprocmask, clone3, futex, madvise... which the tests do not pin),
 * then fork() (one clone) of a child that writes 7 times to /dev/null and
 * _exits, reaped with waitpid (one wait4).
 */
#include "syscount_work.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORK_BLOCK	4096
#define WORK_BLOCKS	16

int syscount_work_prepare(struct syscount_work *w, const char *dir)
{
	char path[512], buf[WORK_BLOCK];
	int i;

	snprintf(path, sizeof(path), "%s/syscount-work", dir);
	w->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (w->fd < 0)
		return -errno;
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < WORK_BLOCKS; i++)
		if (pwrite(w->fd, buf, sizeof(buf), (off_t)i * WORK_BLOCK) != WORK_BLOCK)
			goto out_close_fd;
	w->devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (w->devnull < 0)
		goto out_close_fd;
	return 0;

out_close_fd:
	close(w->fd);
	return -EIO;
}

void syscount_work_close(struct syscount_work *w)
{
	close(w->devnull);
	close(w->fd);
}

static int work_preads(int fd, int n)
{
	char buf[WORK_BLOCK];
	int i, bad = 0;

	for (i = 0; i < n; i++)
		if (pread(fd, buf, sizeof(buf), (off_t)(i % WORK_BLOCKS) * WORK_BLOCK) != WORK_BLOCK)
			bad++;
	return bad;
}

static void *work_thread(void *arg)
{
	int fd = *(int *)arg;

	return work_preads(fd, 10) ? (void *)1 : NULL;
}

static void work_child(int devnull)
{
	int i;

	for (i = 0; i < WORK_WRITE; i++)
		if (write(devnull, "0123456789abcdef", 16) != 16)
			_exit(1);
	_exit(0);
}

int syscount_work_run(struct syscount_work *w)
{
	char buf[512] = { 0 };
	void *thread_ret = NULL;
	pthread_t thr;
	int i, st, bad;
	pid_t pid;

	bad = work_preads(w->fd, 100);
	for (i = 0; i < WORK_PWRITE64; i++)
		bad += pwrite(w->fd, buf, sizeof(buf), 65536 + (off_t)i * 512) != 512;
	for (i = 0; i < WORK_LSEEK; i++)
		bad += lseek(w->fd, 0, i % 2 ? SEEK_END : SEEK_SET) < 0;
	for (i = 0; i < WORK_FDATASYNC; i++)
		bad += fdatasync(w->fd) != 0;
	if (pthread_create(&thr, NULL, work_thread, &w->fd))
		return -EAGAIN;
	pthread_join(thr, &thread_ret);
	bad += thread_ret != NULL;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		work_child(w->devnull);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		bad++;
	return bad ? -EIO : 0;
}
