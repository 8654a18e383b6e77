// SPDX-License-Identifier: MIT
/*
 * syscount_perf.c - counting with the kernel's own counters (see syscount.h).
 *
 * The benchmark child opens, right after fork, one counting-mode tracepoint
 * counter for all syscall entries (raw_syscalls:sys_enter) and one per named
 * syscall (syscalls:sys_enter_<name>, or raw_syscalls:sys_enter filtered on
 * "id == N" when this kernel names the tracepoint differently, as x86_64
 * does with sendfile64). All are in one group, with inherit=1 so threads and
 * processes started later are counted; the kernel folds their counts in when
 * they exit. One ioctl enables the group in syscount_begin, one disables it
 * in syscount_end. The enabling ioctl enters the kernel while the counters
 * are still off and is not seen; the disabling one is seen by the total and
 * by the "ioctl" counter, so exactly 1 is taken off each. Counts are deltas
 * from a read taken before enabling.
 */
#include "syscount_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYSCOUNT_TRACEFS	"/sys/kernel/tracing"

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
	for (k = 0; k < syscount_nsysnos; k++) {
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
 * RCU grace period whenever the last perf user of a tracepoint goes away,
 * one per tracepoint; holding these keeps the children's counters from being
 * the last, so a counted child exits at once instead of paying that wait
 * (the figures are in docs/syscount.md).
 */
int syscount_perf_prepare(struct syscount_session *s, char *why, size_t n)
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

int syscount_perf_begin(struct syscount_session *s)
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
int syscount_perf_end(struct syscount_session *s, struct syscount *out)
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

/*
 * Closing the last perf user of each of our tracepoints costs one RCU grace
 * period apiece in close(2), seconds in all (docs/syscount.md). Nobody needs
 * to wait for that: a detached grandchild (reparented to init at once) holds
 * the last copies and pays it, and this process closes its own copies, which
 * are not the last, and goes on. If the fork fails, the close is simply slow.
 */
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

void syscount_perf_open_child(struct syscount_session *s)
{
	s->open_err = syscount_perf_open_all(s, s->fd, true, s->open_why,
					     sizeof(s->open_why));
}

void syscount_perf_free(struct syscount_session *s, bool wait)
{
	syscount_perf_close(s->fd);
	if (wait)
		syscount_perf_close(s->keep_fd);
	else
		syscount_perf_close_detached(s->keep_fd);
}
