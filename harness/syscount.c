// SPDX-License-Identifier: MIT
/*
 * syscount.c - exact system-call counts of the timed work (see syscount.h).
 *
 * perf: the benchmark child opens, right after fork, one counting-mode
 * tracepoint counter for all syscall entries (raw_syscalls:sys_enter) and
 * one per named syscall (syscalls:sys_enter_<name>, or raw_syscalls:sys_enter
 * filtered on "id == N" when this kernel names the tracepoint differently,
 * as x86_64 does with sendfile64). All are in one group, with inherit=1 so
 * threads and processes started later are counted; the kernel folds their
 * counts in when they exit. One ioctl enables the group in syscount_begin,
 * one disables it in syscount_end. The enabling ioctl enters the kernel
 * while the counters are still off and is not seen; the disabling one is
 * seen by the total and by the "ioctl" counter, so exactly 1 is taken off
 * each. Counts are deltas from a read taken before enabling.
 *
 * ptrace: the parent traces the child (PTRACE_TRACEME + SIGSTOP) and every
 * thread and process it starts, stops each at syscall entry and counts the
 * entries of all tracees between the begin and end markers. The markers are
 * getppid() calls whose first two argument registers hold SYSCOUNT_MAGIC and
 * 1 (begin) or 2 (end); getppid ignores its arguments, so they only serve as
 * a signature the tracer reads with PTRACE_GET_SYSCALL_INFO. The markers
 * themselves are not counted.
 */
#include "syscount.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYSCOUNT_MAGIC		0x636f707962656e63UL	/* "copybenc" */
#define SYSCOUNT_MARK_BEGIN	1UL
#define SYSCOUNT_MARK_END	2UL
#define SYSCOUNT_NR_LIMIT	1024	/* syscall numbers above are "other" */
#define SYSCOUNT_COUNTERS	(SYSCOUNT_NAMES_MAX + 1)	/* [0] is the total */
#define SYSCOUNT_TRACEFS	"/sys/kernel/tracing"

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
};
const size_t syscount_nnames = sizeof(syscount_names) / sizeof(syscount_names[0]);

_Static_assert(sizeof(syscount_names) / sizeof(syscount_names[0]) <= SYSCOUNT_NAMES_MAX,
	       "syscount_names must fit struct syscount.by_name");

/* The numbers this architecture has; a name missing here is never counted. */
static const struct syscount_sysno {
	const char *name;
	long nr;
} syscount_sysnos[] = {
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
};

/* ------------------------------------------------------------- session -- */

struct syscount_tracee {
	pid_t tid;
	bool started;		/* its initial SIGSTOP has been swallowed */
};

struct syscount_session {
	enum syscount_method method;	/* PERF, PTRACE, or OFF for "n/a" */
	char why[160];			/* why the counts are n/a */
	int16_t nr_index[SYSCOUNT_NR_LIMIT];	/* syscall nr -> name index */

	/* perf: counter k counts name cname[k-1]; [0] is the total */
	int ncounters;
	uint64_t tp_id[SYSCOUNT_COUNTERS];
	long tp_filter_nr[SYSCOUNT_COUNTERS];	/* -1: no filter */
	int16_t cname[SYSCOUNT_COUNTERS];
	int fd[SYSCOUNT_COUNTERS];
	int keep_fd[SYSCOUNT_COUNTERS];	/* the parent's idle copy, see below */
	uint64_t base[SYSCOUNT_COUNTERS];
	int open_err;			/* in the child, after syscount_fork */
	char open_why[160];

	/* ptrace: the parent's view */
	pid_t child;
	bool counting, saw_begin, saw_end;
	int trace_err;
	char trace_why[160];
	struct syscount counts;
	struct syscount_tracee *tracees;
	size_t ntracees, cap_tracees;
};

static void syscount_set_invalid(struct syscount *c, const char *method,
				 const char *why)
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
	for (k = 0; k < sizeof(syscount_sysnos) / sizeof(syscount_sysnos[0]); k++) {
		long nr = syscount_sysnos[k].nr;

		for (i = 0; i < syscount_nnames; i++)
			if (!strcmp(syscount_names[i], syscount_sysnos[k].name))
				break;
		if (i < syscount_nnames && nr >= 0 && nr < SYSCOUNT_NR_LIMIT)
			s->nr_index[nr] = (int16_t)i;
	}
}

static int syscount_name_index(const char *name)
{
	size_t i;

	for (i = 0; i < syscount_nnames; i++)
		if (!strcmp(syscount_names[i], name))
			return (int)i;
	return -1;
}

/* ---------------------------------------------------------------- perf -- */

static int syscount_perf_open(uint64_t id, int group_fd, bool inherit)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.disabled = 1;
	attr.inherit = inherit;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, group_fd,
			    PERF_FLAG_FD_CLOEXEC);
}

static int syscount_perf_filter(int fd, long nr)
{
	char filter[32];

	if (nr < 0)
		return 0;
	snprintf(filter, sizeof(filter), "id == %ld", nr);
	return ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter) ? -errno : 0;
}

static int syscount_read_id(const char *dir, const char *event, uint64_t *id)
{
	char path[256];
	unsigned long long v;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/events/%s/id", dir, event);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	n = fscanf(f, "%llu", &v);
	fclose(f);
	if (n != 1)
		return -EINVAL;
	*id = v;
	return 0;
}

/*
 * Finds the tracefs events. When tracefs is not mounted and we are root,
 * mounts it at its standard place: a benign, read-only use here, and the
 * same thing "perf trace" asks the administrator to do.
 */
static const char *syscount_find_tracefs(char *why, size_t n)
{
	static const char *const dirs[] = { SYSCOUNT_TRACEFS, "/sys/kernel/debug/tracing" };
	uint64_t id;
	size_t i;
	int err;

	for (i = 0; i < 2; i++) {
		err = syscount_read_id(dirs[i], "raw_syscalls/sys_enter", &id);
		if (!err)
			return dirs[i];
		if (err == -EACCES) {
			snprintf(why, n, "tracepoint ids under %s: Permission denied (tracefs is for root)", dirs[i]);
			return NULL;
		}
	}
	if (geteuid() != 0) {
		snprintf(why, n, "no tracefs with raw_syscalls events (%s not mounted and not root to mount it)", SYSCOUNT_TRACEFS);
		return NULL;
	}
	if (mount("nodev", SYSCOUNT_TRACEFS, "tracefs", 0, NULL)) {
		snprintf(why, n, "mount -t tracefs nodev %s: %s", SYSCOUNT_TRACEFS, strerror(errno));
		return NULL;
	}
	err = syscount_read_id(SYSCOUNT_TRACEFS, "raw_syscalls/sys_enter", &id);
	if (!err)
		return SYSCOUNT_TRACEFS;
	snprintf(why, n, "no raw_syscalls:sys_enter tracepoint in tracefs: %s", strerror(-err));
	return NULL;
}

static int syscount_perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "re");
	int v = 99;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 99;
		fclose(f);
	}
	return v;
}

/* syscalls:sys_enter_<name>, or sys_enter_<name>64 (x86_64's sendfile64). */
static int syscount_syscall_tp_id(const char *dir, const char *name, uint64_t *id)
{
	char event[96];

	snprintf(event, sizeof(event), "syscalls/sys_enter_%s", name);
	if (!syscount_read_id(dir, event, id))
		return 0;
	snprintf(event, sizeof(event), "syscalls/sys_enter_%s64", name);
	return syscount_read_id(dir, event, id);
}

/*
 * The total, then one counter per name this architecture has. A name whose
 * tracepoint is called otherwise here counts raw_syscalls:sys_enter with a
 * filter on its number instead. 0 or -errno.
 */
static int syscount_perf_plan(struct syscount_session *s, const char *dir)
{
	size_t k;
	int err = syscount_read_id(dir, "raw_syscalls/sys_enter", &s->tp_id[0]);

	if (err)
		return err;
	s->ncounters = 1;
	s->tp_filter_nr[0] = -1;
	s->cname[0] = -1;
	for (k = 0; k < sizeof(syscount_sysnos) / sizeof(syscount_sysnos[0]); k++) {
		const struct syscount_sysno *sn = &syscount_sysnos[k];
		int c = s->ncounters++;

		s->cname[c] = (int16_t)syscount_name_index(sn->name);
		s->tp_filter_nr[c] = -1;
		if (!syscount_syscall_tp_id(dir, sn->name, &s->tp_id[c]))
			continue;
		s->tp_id[c] = s->tp_id[0];
		s->tp_filter_nr[c] = sn->nr;
	}
	return 0;
}

static void syscount_perf_close(int *fd)
{
	int c;

	for (c = 0; c < SYSCOUNT_COUNTERS; c++) {
		if (fd[c] >= 0)
			close(fd[c]);
		fd[c] = -1;
	}
}

/*
 * Opens the whole group on the calling process into fd[]; 0 or -errno, why
 * filled. inherit is for the counting group; the parent's idle copy has none.
 */
static int syscount_perf_open_all(struct syscount_session *s, int *fd, bool inherit,
				  char *why, size_t n)
{
	int c, err;

	for (c = 0; c < s->ncounters; c++) {
		const char *name = c ? syscount_names[s->cname[c]] : "total";

		fd[c] = syscount_perf_open(s->tp_id[c], c ? fd[0] : -1, inherit);
		if (fd[c] < 0) {
			err = -errno;
			snprintf(why, n, "perf_event_open(%s tracepoint %llu): %s (perf_event_paranoid=%d; needs <= 1, or CAP_PERFMON)",
				 name, (unsigned long long)s->tp_id[c], strerror(-err),
				 syscount_perf_paranoid());
			goto out_close_all;
		}
		err = syscount_perf_filter(fd[c], s->tp_filter_nr[c]);
		if (err) {
			snprintf(why, n, "PERF_EVENT_IOC_SET_FILTER(id == %ld) for %s: %s",
				 s->tp_filter_nr[c], name, strerror(-err));
			goto out_close_all;
		}
	}
	return 0;

out_close_all:
	syscount_perf_close(fd);
	return err;
}

/*
 * In the parent: finds the tracepoints and opens the group once, and keeps
 * it open, disabled, until syscount_session_free. The kernel waits for an
 * RCU grace period (tens of ms) whenever the last perf user of a tracepoint
 * goes away; holding these keeps the children's counters from being the
 * last, so a counted child exits at once instead of about 2 s later.
 */
static int syscount_perf_prepare(struct syscount_session *s, char *why, size_t n)
{
	const char *dir = syscount_find_tracefs(why, n);
	int err;

	if (!dir)
		return -ENOENT;
	err = syscount_perf_plan(s, dir);
	if (err) {
		snprintf(why, n, "reading the raw_syscalls:sys_enter id under %s: %s", dir, strerror(-err));
		return err;
	}
	return syscount_perf_open_all(s, s->keep_fd, false, why, n);
}

static int syscount_perf_read(struct syscount_session *s, uint64_t *v)
{
	int c;

	for (c = 0; c < s->ncounters; c++)
		if (read(s->fd[c], &v[c], sizeof(v[c])) != (ssize_t)sizeof(v[c]))
			return -EIO;
	return 0;
}

static int syscount_perf_begin(struct syscount_session *s)
{
	if (s->open_err)
		return s->open_err;
	if (syscount_perf_read(s, s->base))
		return -EIO;
	if (ioctl(s->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
		return -errno;
	return 0;
}

/* The disabling ioctl is the one control syscall the counters see. */
static int syscount_perf_end(struct syscount_session *s, struct syscount *out)
{
	uint64_t now[SYSCOUNT_COUNTERS], named = 0;
	int c, ioctl_idx = syscount_name_index("ioctl");

	if (s->open_err) {
		syscount_set_invalid(out, "perf", s->open_why);
		return s->open_err;
	}
	if (ioctl(s->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP) ||
	    syscount_perf_read(s, now)) {
		syscount_set_invalid(out, "perf", "disabling or reading the perf counters failed");
		return -EIO;
	}
	memset(out, 0, sizeof(*out));
	out->total = now[0] - s->base[0] - 1;
	for (c = 1; c < s->ncounters; c++) {
		uint64_t d = now[c] - s->base[c];

		if (s->cname[c] == ioctl_idx)
			d -= 1;
		out->by_name[s->cname[c]] = d;
		named += d;
	}
	if (now[0] - s->base[0] < 1 || named > out->total) {
		syscount_set_invalid(out, "perf", "perf counters inconsistent: named syscalls exceed the total");
		return -EIO;
	}
	out->other = out->total - named;
	out->valid = true;
	snprintf(out->method, sizeof(out->method), "perf");
	return 0;
}

/* -------------------------------------------------------------- ptrace -- */

#define SYSCOUNT_PTRACE_OPTIONS (PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | \
	PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | \
	PTRACE_O_EXITKILL)

/* Can this process trace a child? Forks a throwaway one to find out. */
static int syscount_ptrace_probe(char *why, size_t n)
{
	int status, err = 0;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(errno & 0x7f);
		raise(SIGSTOP);
		_exit(0);
	}
	if (waitpid(pid, &status, __WALL) != pid) {
		err = -errno;
		snprintf(why, n, "ptrace probe: waitpid: %s", strerror(errno));
		kill(pid, SIGKILL);
	} else if (WIFEXITED(status)) {
		err = WEXITSTATUS(status) ? -WEXITSTATUS(status) : -ECHILD;
		snprintf(why, n, "ptrace(PTRACE_TRACEME): %s", strerror(-err));
		return err;
	} else if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)SYSCOUNT_PTRACE_OPTIONS)) {
		err = -errno;
		snprintf(why, n, "ptrace(PTRACE_SETOPTIONS): %s", strerror(errno));
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, __WALL) < 0 && errno == EINTR)
		;
	return err;
}

static struct syscount_tracee *syscount_tracee_find(struct syscount_session *s,
						    pid_t tid)
{
	size_t i;

	for (i = 0; i < s->ntracees; i++)
		if (s->tracees[i].tid == tid)
			return &s->tracees[i];
	return NULL;
}

static struct syscount_tracee *syscount_tracee_add(struct syscount_session *s,
						   pid_t tid, bool started)
{
	struct syscount_tracee *t = syscount_tracee_find(s, tid);

	if (t)
		return t;
	if (s->ntracees == s->cap_tracees) {
		size_t cap = s->cap_tracees ? 2 * s->cap_tracees : 16;
		void *p = realloc(s->tracees, cap * sizeof(*s->tracees));

		if (!p)
			return NULL;
		s->tracees = p;
		s->cap_tracees = cap;
	}
	t = &s->tracees[s->ntracees++];
	t->tid = tid;
	t->started = started;
	return t;
}

static void syscount_tracee_remove(struct syscount_session *s, pid_t tid)
{
	struct syscount_tracee *t = syscount_tracee_find(s, tid);

	if (t)
		*t = s->tracees[--s->ntracees];
}

static void syscount_trace_fail(struct syscount_session *s, const char *what, int err)
{
	if (s->trace_err)
		return;
	s->trace_err = err;
	snprintf(s->trace_why, sizeof(s->trace_why), "%s: %s", what, strerror(err));
}

/* A syscall-entry stop: a marker switches counting, anything else counts. */
static void syscount_trace_entry(struct syscount_session *s, pid_t tid)
{
	struct __ptrace_syscall_info info;
	struct syscount *c = &s->counts;
	long nr;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(info), &info) <= 0) {
		syscount_trace_fail(s, "ptrace(PTRACE_GET_SYSCALL_INFO)", errno);
		return;
	}
	if (info.op != PTRACE_SYSCALL_INFO_ENTRY)
		return;
	nr = (long)info.entry.nr;
	if (nr == SYS_getppid && info.entry.args[0] == SYSCOUNT_MAGIC) {
		if (info.entry.args[1] == SYSCOUNT_MARK_BEGIN) {
			memset(c, 0, sizeof(*c));
			s->counting = s->saw_begin = true;
			s->saw_end = false;
			return;
		}
		if (info.entry.args[1] == SYSCOUNT_MARK_END) {
			s->counting = false;
			s->saw_end = true;
			return;
		}
	}
	if (!s->counting)
		return;
	c->total++;
	if (nr >= 0 && nr < SYSCOUNT_NR_LIMIT && s->nr_index[nr] >= 0)
		c->by_name[s->nr_index[nr]]++;
	else
		c->other++;
}

/* Decides what one stop means and which signal, if any, to deliver. */
static int syscount_trace_stop(struct syscount_session *s, pid_t tid, int status)
{
	struct syscount_tracee *t = syscount_tracee_find(s, tid);
	int sig = WSTOPSIG(status), event = status >> 16;
	unsigned long msg;
	siginfo_t si;

	if (!t)
		t = syscount_tracee_add(s, tid, false);
	if (!t)
		syscount_trace_fail(s, "tracking a new task", ENOMEM);
	if (sig == (SIGTRAP | 0x80)) {
		syscount_trace_entry(s, tid);
		return 0;
	}
	if (event) {
		if ((event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK ||
		     event == PTRACE_EVENT_CLONE) &&
		    !ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) &&
		    !syscount_tracee_add(s, (pid_t)msg, false))
			syscount_trace_fail(s, "tracking a new task", ENOMEM);
		return 0;
	}
	if (t && !t->started && sig == SIGSTOP) {
		t->started = true;	/* the stop every new tracee begins with */
		return 0;
	}
	if (ptrace(PTRACE_GETSIGINFO, tid, NULL, &si))
		return 0;		/* group-stop: let it run on */
	return sig;
}

/* Fills *out from what the tracer saw. */
static void syscount_trace_result(struct syscount_session *s, struct syscount *out)
{
	if (s->trace_err)
		syscount_set_invalid(out, "ptrace", s->trace_why);
	else if (!s->saw_begin)
		syscount_set_invalid(out, "ptrace", "the child never reached syscount_begin");
	else if (!s->saw_end)
		syscount_set_invalid(out, "ptrace", "the child never reached syscount_end");
	else {
		*out = s->counts;
		out->valid = true;
		snprintf(out->method, sizeof(out->method), "ptrace");
	}
}

/*
 * Runs the traced tree until the child and every task it started have
 * exited. The child's own wait4 status and rusage are returned.
 */
static int syscount_ptrace_wait(struct syscount_session *s, pid_t pid, int *status,
				struct rusage *ru, struct syscount *out)
{
	bool child_done = false;
	struct rusage r;
	int st, sig;
	pid_t tid;

	while (!child_done || s->ntracees) {
		tid = wait4(-1, &st, __WALL, &r);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD && child_done)
				break;
			return -errno;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			syscount_tracee_remove(s, tid);
			if (tid == pid) {
				child_done = true;
				if (status)
					*status = st;
				if (ru)
					*ru = r;
			}
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		sig = syscount_trace_stop(s, tid, st);
		ptrace(PTRACE_SYSCALL, tid, NULL, (void *)(long)sig);
	}
	if (out)
		syscount_trace_result(s, out);
	return 0;
}

/* Parent side of syscount_fork: takes the child from its first stop. */
static int syscount_ptrace_attach(struct syscount_session *s, pid_t pid)
{
	int status;

	s->child = pid;
	s->ntracees = 0;
	s->counting = s->saw_begin = s->saw_end = false;
	s->trace_err = 0;
	memset(&s->counts, 0, sizeof(s->counts));
	while (waitpid(pid, &status, __WALL | WUNTRACED) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFSTOPPED(status))
		return -ECHILD;
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)SYSCOUNT_PTRACE_OPTIONS)) {
		/* the child could not be traced: let it run uncounted */
		syscount_trace_fail(s, "tracing the child", errno);
		kill(pid, SIGCONT);
		return 0;
	}
	if (!syscount_tracee_add(s, pid, true))
		syscount_trace_fail(s, "tracking the child", ENOMEM);
	ptrace(PTRACE_SYSCALL, pid, NULL, NULL);
	return 0;
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

/*
 * Closing the last perf user of ~50 tracepoints costs one RCU grace period
 * each, about 2 s in all, in close(2). Nobody needs to wait for that: a
 * detached grandchild (reparented to init at once) holds the last copies and
 * pays it, and this process closes its own copies, which are not the last,
 * and goes on. If the fork fails, the close is simply slow.
 */
/* Closes every descriptor but the counters in fd[] and keep. */
static void syscount_close_others(const int *fd, int keep)
{
	int top = keep;

	for (int c = 0; c < SYSCOUNT_COUNTERS; c++)
		top = fd[c] > top ? fd[c] : top;
	for (int i = 0; i <= top; i++) {
		bool ours = i == keep;

		for (int c = 0; c < SYSCOUNT_COUNTERS && !ours; c++)
			ours = fd[c] == i;
		if (!ours)
			close(i);
	}
	close_range((unsigned)top + 1, ~0u, 0);
}

static void syscount_perf_close_detached(int *fd)
{
	int gate[2];
	pid_t pid;
	char c;

	if (fd[0] < 0 || pipe(gate)) {
		syscount_perf_close(fd);
		return;
	}
	pid = fork();
	if (pid == 0) {
		if (fork() == 0) {
			/* hold nothing but the counters (no caller waits on a
			 * pipe we inherited), and wait until the parent's copies
			 * are gone: ours are then the last */
			syscount_close_others(fd, gate[0]);
			while (read(gate[0], &c, 1) < 0 && errno == EINTR)
				;
			syscount_perf_close(fd);
		}
		_exit(0);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	syscount_perf_close(fd);
	close(gate[0]);
	close(gate[1]);
}

void syscount_session_free(struct syscount_session *s)
{
	if (!s)
		return;
	syscount_perf_close(s->fd);
	syscount_perf_close_detached(s->keep_fd);
	free(s->tracees);
	free(s);
}

void syscount_session_end(struct syscount_session *s)
{
	if (!s)
		return;
	syscount_perf_close(s->fd);
	syscount_perf_close(s->keep_fd);
	free(s->tracees);
	free(s);
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
	int err;

	if (pid < 0)
		return pid;
	if (pid == 0) {
		if (s->method == SYSCOUNT_PERF) {
			s->open_err = syscount_perf_open_all(s, s->fd, true, s->open_why,
							     sizeof(s->open_why));
		} else if (s->method == SYSCOUNT_PTRACE) {
			/* if TRACEME fails the stop is a plain job-control
			 * stop: the parent finds it cannot trace and resumes us */
			ptrace(PTRACE_TRACEME, 0, NULL, NULL);
			raise(SIGSTOP);
		}
		return 0;
	}
	if (s->method == SYSCOUNT_PTRACE) {
		err = syscount_ptrace_attach(s, pid);
		if (err)
			syscount_trace_fail(s, "waiting for the child to stop", -err);
	}
	return pid;
}

int syscount_begin(struct syscount_session *s)
{
	switch (s->method) {
	case SYSCOUNT_PERF:
		return syscount_perf_begin(s);
	case SYSCOUNT_PTRACE:
		syscall(SYS_getppid, SYSCOUNT_MAGIC, SYSCOUNT_MARK_BEGIN);
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
		syscall(SYS_getppid, SYSCOUNT_MAGIC, SYSCOUNT_MARK_END);
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
