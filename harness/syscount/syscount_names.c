// SPDX-License-Identifier: MIT
/*
 * syscount_names.c - the system calls counted one by one: their names, their
 * numbers on this architecture, a name's index, and an invalid count. The
 * ground floor of syscount/: the session (syscount.c) and both mechanisms
 * (syscount_perf.c, syscount_ptrace.c) read it; it reads none of them.
 */
#include "syscount_internal.h"

#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

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
	/* what tree methods call to walk a tree and make its folders */
	"getdents64", "mkdirat",
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
#ifdef SYS_getdents64
	{ "getdents64", SYS_getdents64 },
#endif
#ifdef SYS_mkdirat
	{ "mkdirat", SYS_mkdirat },
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

void syscount_set_invalid(struct syscount *c, const char *method, const char *why)
{
	memset(c, 0, sizeof(*c));
	c->valid = false;
	snprintf(c->method, sizeof(c->method), "%s", method);
	snprintf(c->why, sizeof(c->why), "%s", why);
}

int syscount_name_index(const char *name)
{
	size_t i;

	for (i = 0; i < syscount_nnames; i++)
		if (!strcmp(syscount_names[i], name))
			return (int)i;
	return -1;
}
