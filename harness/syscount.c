// SPDX-License-Identifier: MIT
/*
 * syscount.c - exact system-call counts of the timed work (see syscount.h):
 * the names counted one by one, the session, the choice of method and the
 * public API. The mechanisms live in syscount_perf.c (the kernel's
 * tracepoint counters) and syscount_ptrace.c (the tracer); what the three
 * files share is in syscount_priv.h.
 */
#include "syscount_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>

/* ----------------------------------------------------------- the names -- */

const char *const syscount_names[] = {
	"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv",
	"pwritev", "mmap", "munmap", "madvise", "mremap", "sendfile",
	"copy_file_range", "splice", "vmsplice", "tee", "io_uring_enter",
	"io_uring_setup", "io_uring_register", "ioctl", "fsync", "fdatasync",
	"openat", "close", "lseek", "fadvise64", "ftruncate", "fallocate",
	"futex", "clone", "clone3", "wait4", "pipe2", "fcntl", "socket",
	"socketpair", "connect", "accept", "accept4", "bind", "listen",
	"setsockopt", "sendto", "recvfrom", "sendmsg", "recvmsg", "shutdown",
	/* what strategies call to learn about their files */
	"dup", "newfstatat", "statx", "fstatfs",
	/* what libc calls on its own: memory, malloc's seed, threads, exit */
	"brk", "mprotect", "getrandom", "rt_sigaction", "rt_sigprocmask",
	"rseq", "set_robust_list", "exit", "exit_group",
	/* what channels call to find their peer, and to make shared memory */
	"getsockname", "getpid", "kill", "waitid", "memfd_create",
	/* what a sanitizer's runtime calls on its own */
	"gettid", "sigaltstack", "sched_getaffinity",
};
const size_t syscount_nnames = sizeof(syscount_names) / sizeof(syscount_names[0]);

_Static_assert(sizeof(syscount_names) / sizeof(syscount_names[0]) <= SYSCOUNT_NAMES_MAX,
	       "syscount_names must fit struct syscount.by_name");

/* The numbers this architecture has; a name missing here is never counted. */
const struct syscount_sysno syscount_sysnos[] = {
#ifdef SYS_read
	{ "read", SYS_read },
#endif
#ifdef SYS_write
	{ "write", SYS_write },
#endif
#ifdef SYS_pread64
	{ "pread64", SYS_pread64 },
#endif
#ifdef SYS_pwrite64
	{ "pwrite64", SYS_pwrite64 },
#endif
#ifdef SYS_readv
	{ "readv", SYS_readv },
#endif
#ifdef SYS_writev
	{ "writev", SYS_writev },
#endif
#ifdef SYS_preadv
	{ "preadv", SYS_preadv },
#endif
#ifdef SYS_pwritev
	{ "pwritev", SYS_pwritev },
#endif
#ifdef SYS_mmap
	{ "mmap", SYS_mmap },
#endif
#ifdef SYS_munmap
	{ "munmap", SYS_munmap },
#endif
#ifdef SYS_madvise
	{ "madvise", SYS_madvise },
#endif
#ifdef SYS_mremap
	{ "mremap", SYS_mremap },
#endif
#ifdef SYS_sendfile
	{ "sendfile", SYS_sendfile },
#endif
#ifdef SYS_copy_file_range
	{ "copy_file_range", SYS_copy_file_range },
#endif
#ifdef SYS_splice
	{ "splice", SYS_splice },
#endif
#ifdef SYS_vmsplice
	{ "vmsplice", SYS_vmsplice },
#endif
#ifdef SYS_tee
	{ "tee", SYS_tee },
#endif
#ifdef SYS_io_uring_enter
	{ "io_uring_enter", SYS_io_uring_enter },
#endif
#ifdef SYS_io_uring_setup
	{ "io_uring_setup", SYS_io_uring_setup },
#endif
#ifdef SYS_io_uring_register
	{ "io_uring_register", SYS_io_uring_register },
#endif
#ifdef SYS_ioctl
	{ "ioctl", SYS_ioctl },
#endif
#ifdef SYS_fsync
	{ "fsync", SYS_fsync },
#endif
#ifdef SYS_fdatasync
	{ "fdatasync", SYS_fdatasync },
#endif
#ifdef SYS_openat
	{ "openat", SYS_openat },
#endif
#ifdef SYS_close
	{ "close", SYS_close },
#endif
#ifdef SYS_lseek
	{ "lseek", SYS_lseek },
#endif
#ifdef SYS_fadvise64
	{ "fadvise64", SYS_fadvise64 },
#endif
#ifdef SYS_ftruncate
	{ "ftruncate", SYS_ftruncate },
#endif
#ifdef SYS_fallocate
	{ "fallocate", SYS_fallocate },
#endif
#ifdef SYS_futex
	{ "futex", SYS_futex },
#endif
#ifdef SYS_clone
	{ "clone", SYS_clone },
#endif
#ifdef SYS_clone3
	{ "clone3", SYS_clone3 },
#endif
#ifdef SYS_wait4
	{ "wait4", SYS_wait4 },
#endif
#ifdef SYS_pipe2
	{ "pipe2", SYS_pipe2 },
#endif
#ifdef SYS_fcntl
	{ "fcntl", SYS_fcntl },
#endif
#ifdef SYS_socket
	{ "socket", SYS_socket },
#endif
#ifdef SYS_socketpair
	{ "socketpair", SYS_socketpair },
#endif
#ifdef SYS_connect
	{ "connect", SYS_connect },
#endif
#ifdef SYS_accept
	{ "accept", SYS_accept },
#endif
#ifdef SYS_accept4
	{ "accept4", SYS_accept4 },
#endif
#ifdef SYS_bind
	{ "bind", SYS_bind },
#endif
#ifdef SYS_listen
	{ "listen", SYS_listen },
#endif
#ifdef SYS_setsockopt
	{ "setsockopt", SYS_setsockopt },
#endif
#ifdef SYS_sendto
	{ "sendto", SYS_sendto },
#endif
#ifdef SYS_recvfrom
	{ "recvfrom", SYS_recvfrom },
#endif
#ifdef SYS_sendmsg
	{ "sendmsg", SYS_sendmsg },
#endif
#ifdef SYS_recvmsg
	{ "recvmsg", SYS_recvmsg },
#endif
#ifdef SYS_shutdown
	{ "shutdown", SYS_shutdown },
#endif
#ifdef SYS_dup
	{ "dup", SYS_dup },
#endif
#ifdef SYS_newfstatat
	{ "newfstatat", SYS_newfstatat },
#endif
#ifdef SYS_statx
	{ "statx", SYS_statx },
#endif
#ifdef SYS_fstatfs
	{ "fstatfs", SYS_fstatfs },
#endif
#ifdef SYS_brk
	{ "brk", SYS_brk },
#endif
#ifdef SYS_mprotect
	{ "mprotect", SYS_mprotect },
#endif
#ifdef SYS_getrandom
	{ "getrandom", SYS_getrandom },
#endif
#ifdef SYS_rt_sigaction
	{ "rt_sigaction", SYS_rt_sigaction },
#endif
#ifdef SYS_rt_sigprocmask
	{ "rt_sigprocmask", SYS_rt_sigprocmask },
#endif
#ifdef SYS_rseq
	{ "rseq", SYS_rseq },
#endif
#ifdef SYS_set_robust_list
	{ "set_robust_list", SYS_set_robust_list },
#endif
#ifdef SYS_exit
	{ "exit", SYS_exit },
#endif
#ifdef SYS_exit_group
	{ "exit_group", SYS_exit_group },
#endif
#ifdef SYS_getsockname
	{ "getsockname", SYS_getsockname },
#endif
#ifdef SYS_getpid
	{ "getpid", SYS_getpid },
#endif
#ifdef SYS_memfd_create
	{ "memfd_create", SYS_memfd_create },
#endif
#ifdef SYS_kill
	{ "kill", SYS_kill },
#endif
#ifdef SYS_waitid
	{ "waitid", SYS_waitid },
#endif
#ifdef SYS_gettid
	{ "gettid", SYS_gettid },
#endif
#ifdef SYS_sigaltstack
	{ "sigaltstack", SYS_sigaltstack },
#endif
#ifdef SYS_sched_getaffinity
	{ "sched_getaffinity", SYS_sched_getaffinity },
#endif
};
const size_t syscount_nsysnos = sizeof(syscount_sysnos) / sizeof(syscount_sysnos[0]);

/* ------------------------------------------------------------- session -- */

void syscount_set_invalid(struct syscount *c, const char *method, const char *why)
{
	memset(c, 0, sizeof(*c));
	c->valid = false;
	snprintf(c->method, sizeof(c->method), "%s", method);
	snprintf(c->why, sizeof(c->why), "%s", why);
}

static void syscount_build_index(struct syscount_session *s)
{
	size_t i, k;

	for (i = 0; i < SYSCOUNT_NR_LIMIT; i++)
		s->nr_index[i] = -1;
	for (k = 0; k < syscount_nsysnos; k++) {
		long nr = syscount_sysnos[k].nr;

		for (i = 0; i < syscount_nnames; i++)
			if (!strcmp(syscount_names[i], syscount_sysnos[k].name))
				break;
		if (i < syscount_nnames && nr >= 0 && nr < SYSCOUNT_NR_LIMIT)
			s->nr_index[nr] = (int16_t)i;
	}
}

int syscount_name_index(const char *name)
{
	size_t i;

	for (i = 0; i < syscount_nnames; i++)
		if (!strcmp(syscount_names[i], name))
			return (int)i;
	return -1;
}

/* ---------------------------------------------------------- public API -- */

static int syscount_parse_env(enum syscount_method *m, char *why, size_t n)
{
	const char *v = getenv("COPYBENCH_SYSCOUNT");

	if (!v || !*v)
		return 0;
	if (!strcmp(v, "perf"))
		*m = SYSCOUNT_PERF;
	else if (!strcmp(v, "ptrace"))
		*m = SYSCOUNT_PTRACE;
	else if (!strcmp(v, "off"))
		*m = SYSCOUNT_OFF;
	else if (!strcmp(v, "auto"))
		*m = SYSCOUNT_AUTO;
	else {
		snprintf(why, n, "COPYBENCH_SYSCOUNT=%s: expected perf, ptrace, off or auto", v);
		return -EINVAL;
	}
	return 0;
}

/* AUTO: perf, else ptrace (the perf reason is kept in why), else n/a. */
static int syscount_choose(struct syscount_session *s, enum syscount_method m,
			   char *why, size_t n)
{
	char perf_why[160] = "", ptrace_why[160] = "";
	int err;

	if (m == SYSCOUNT_OFF) {
		snprintf(s->why, sizeof(s->why), "counting disabled");
		return 0;
	}
	if (m != SYSCOUNT_PTRACE) {
		err = syscount_perf_prepare(s, perf_why, sizeof(perf_why));
		if (!err) {
			s->method = SYSCOUNT_PERF;
			return 0;
		}
		snprintf(why, n, "perf: %s", perf_why);
		if (m == SYSCOUNT_PERF)
			return err;
	}
	err = syscount_ptrace_probe(ptrace_why, sizeof(ptrace_why));
	if (!err) {
		s->method = SYSCOUNT_PTRACE;
		return 0;
	}
	if (m == SYSCOUNT_PTRACE) {
		snprintf(why, n, "ptrace: %s", ptrace_why);
		return err;
	}
	snprintf(s->why, sizeof(s->why), "perf: %.70s; ptrace: %.70s", perf_why, ptrace_why);
	snprintf(why, n, "%s", s->why);
	return 0;
}

int syscount_session_new(struct syscount_session **out, enum syscount_method m,
			 char *why, size_t n)
{
	struct syscount_session *s;
	int err, c;

	*out = NULL;
	if (n)
		why[0] = '\0';
	err = syscount_parse_env(&m, why, n);
	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->method = SYSCOUNT_OFF;
	for (c = 0; c < SYSCOUNT_COUNTERS; c++)
		s->fd[c] = s->keep_fd[c] = -1;
	syscount_build_index(s);
	err = syscount_choose(s, m, why, n);
	if (err) {
		free(s);
		return err;
	}
	*out = s;
	return 0;
}

static void session_free(struct syscount_session *s, bool wait)
{
	if (!s)
		return;
	syscount_perf_free(s, wait);
	free(s->tracees);
	free(s);
}

void syscount_session_free(struct syscount_session *s)
{
	session_free(s, false);
}

void syscount_session_end(struct syscount_session *s)
{
	session_free(s, true);
}

const char *syscount_session_method(const struct syscount_session *s)
{
	switch (s->method) {
	case SYSCOUNT_PERF:
		return "perf";
	case SYSCOUNT_PTRACE:
		return "ptrace";
	default:
		return "n/a";
	}
}

bool syscount_counted_by_parent(const struct syscount_session *s)
{
	return s->method == SYSCOUNT_PTRACE;
}

pid_t syscount_fork(struct syscount_session *s)
{
	pid_t pid = fork();

	if (pid < 0)
		return pid;
	if (pid == 0) {
		if (s->method == SYSCOUNT_PERF)
			syscount_perf_open_child(s);
		else if (s->method == SYSCOUNT_PTRACE)
			syscount_ptrace_child();
		return 0;
	}
	if (s->method == SYSCOUNT_PTRACE)
		syscount_ptrace_attach(s, pid);
	return pid;
}

int syscount_begin(struct syscount_session *s)
{
	switch (s->method) {
	case SYSCOUNT_PERF:
		return syscount_perf_begin(s);
	case SYSCOUNT_PTRACE:
		syscount_ptrace_mark(SYSCOUNT_MARK_BEGIN);
		return 0;
	default:
		return 0;
	}
}

int syscount_end(struct syscount_session *s, struct syscount *out)
{
	switch (s->method) {
	case SYSCOUNT_PERF:
		return syscount_perf_end(s, out);
	case SYSCOUNT_PTRACE:
		syscount_ptrace_mark(SYSCOUNT_MARK_END);
		syscount_set_invalid(out, "ptrace", "counted by the tracing parent in syscount_wait");
		return 0;
	default:
		syscount_set_invalid(out, "n/a", s->why);
		return 0;
	}
}

int syscount_wait(struct syscount_session *s, pid_t pid, int *status,
		  struct rusage *ru, struct syscount *out)
{
	struct rusage r;
	int st;

	if (s->method == SYSCOUNT_PTRACE && pid == s->child)
		return syscount_ptrace_wait(s, pid, status, ru, out);
	while (wait4(pid, &st, 0, &r) < 0)
		if (errno != EINTR)
			return -errno;
	if (status)
		*status = st;
	if (ru)
		*ru = r;
	if (s->method == SYSCOUNT_OFF && out)
		syscount_set_invalid(out, "n/a", s->why);
	return 0;
}
