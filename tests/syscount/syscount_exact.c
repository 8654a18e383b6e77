// SPDX-License-Identifier: MIT
/*
 * syscount_exact.c - the perf or ptrace counter (argv[1]) counts exactly the
 * syscalls of the counted region, threads and child processes included.
 *
 * Two runs: an empty begin/end region must count 0 syscalls (the counters'
 * own control calls are not charged), and syscount_work_run must count its
 * pread64, pwrite64, lseek, fdatasync, write and wait4 exactly. The clone
 * family is checked as "at least the thread and the fork": libc may try
 * clone3 and fall back to clone. total must equal the named sum plus other.
 */
#include "support/syscount_work.h"
#include "support/testutil.h"
#include "syscount/syscount.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t by(const struct syscount *c, const char *name)
{
	size_t i;

	for (i = 0; i < syscount_nnames; i++)
		if (!strcmp(syscount_names[i], name))
			return c->by_name[i];
	fprintf(stderr, "no syscall name %s\n", name);
	exit(1);
}

/* The child's side: the region, then its counts back through the pipe. */
static void exact_child(struct syscount_session *s, struct syscount_work *w,
			bool empty, int pipe_wr)
{
	struct syscount c;
	int ok = syscount_begin(s) == 0;

	if (!empty)
		ok &= syscount_work_run(w) == 0;
	ok &= syscount_end(s, &c) == 0;
	if (write(pipe_wr, &c, sizeof(c)) != (ssize_t)sizeof(c))
		ok = 0;
	_exit(ok ? 0 : 1);	/* _exit: no leak checker under a tracer */
}

static int exact_run(struct syscount_session *s, struct syscount_work *w,
		     bool empty, struct syscount *out)
{
	struct syscount from_child, from_parent;
	struct rusage ru;
	int fds[2], st = 0;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = syscount_fork(s);
	if (pid == 0) {
		close(fds[0]);
		exact_child(s, w, empty, fds[1]);
	}
	close(fds[1]);
	memset(&from_parent, 0, sizeof(from_parent));
	CHECK(pid > 0);
	CHECK(syscount_wait(s, pid, &st, &ru, &from_parent) == 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	CHECK(read(fds[0], &from_child, sizeof(from_child)) == (ssize_t)sizeof(from_child));
	close(fds[0]);
	*out = strcmp(syscount_session_method(s), "ptrace") ? from_child : from_parent;
	if (!out->valid)
		fprintf(stderr, "counts invalid: %s\n", out->why);
	return 0;
}

static void check_sum(const struct syscount *c)
{
	uint64_t sum = c->other;
	size_t i;

	for (i = 0; i < syscount_nnames; i++)
		sum += c->by_name[i];
	CHECK_EQ_U64(c->total, sum);
}

static void check_work(const struct syscount *c)
{
	CHECK(c->valid);
	CHECK_EQ_U64(by(c, "pread64"), WORK_PREAD64);
	CHECK_EQ_U64(by(c, "pwrite64"), WORK_PWRITE64);
	CHECK_EQ_U64(by(c, "lseek"), WORK_LSEEK);
	CHECK_EQ_U64(by(c, "fdatasync"), WORK_FDATASYNC);
	CHECK_EQ_U64(by(c, "write"), WORK_WRITE);
	CHECK_EQ_U64(by(c, "wait4"), WORK_WAIT4);
	CHECK_EQ_U64(by(c, "fsync"), 0);
	CHECK_EQ_U64(by(c, "sendfile"), 0);
	CHECK(by(c, "clone") + by(c, "clone3") >= 2);
	CHECK(by(c, "clone") >= 1);
	CHECK_EQ_U64(by(c, "exit"), 1);		/* the thread's */
	CHECK_EQ_U64(by(c, "exit_group"), 1);	/* the child process's */
	check_sum(c);
}

int main(int argc, char **argv)
{
	enum syscount_method m = SYSCOUNT_PERF;
	struct syscount_session *s;
	struct syscount_work w;
	struct syscount c;
	char why[160];
	int err;

	if (argc > 1 && !strcmp(argv[1], "ptrace"))
		m = SYSCOUNT_PTRACE;
	unsetenv("COPYBENCH_SYSCOUNT");
	err = syscount_session_new(&s, m, why, sizeof(why));
	if (err) {
		printf("skipped: %s\n", why);
		return 77;
	}
	CHECK(!strcmp(syscount_session_method(s), m == SYSCOUNT_PERF ? "perf" : "ptrace"));
	CHECK(syscount_work_prepare(&w, test_tmpdir()) == 0);

	exact_run(s, &w, true, &c);
	CHECK(c.valid);
	CHECK(!strcmp(c.method, syscount_session_method(s)));
	CHECK_EQ_U64(c.total, 0);
	check_sum(&c);

	exact_run(s, &w, false, &c);
	check_work(&c);
	printf("%s: total %llu, other %llu, clone %llu, clone3 %llu, futex %llu, mmap %llu\n",
	       c.method, (unsigned long long)c.total, (unsigned long long)c.other,
	       (unsigned long long)by(&c, "clone"), (unsigned long long)by(&c, "clone3"),
	       (unsigned long long)by(&c, "futex"), (unsigned long long)by(&c, "mmap"));

	syscount_work_close(&w);
	syscount_session_free(s);
	test_cleanup_dir();
	return test_report(argv[0]);
}
