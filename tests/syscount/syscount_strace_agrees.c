// SPDX-License-Identifier: MIT
/*
 * syscount_strace_agrees.c - strace -f and syscount count the same
 * pread64, pwrite64, lseek, fdatasync, write, wait4, clone and clone3 calls
 * for the same sequence (syscount_work_run). strace counts the lines between
 * the probe program's two marker calls (argv[1] is that program); syscount
 * counts the region between begin and end, with every method that can run.
 * Skips when strace is not installed.
 */
#include "support/syscount_work.h"
#include "support/testutil.h"
#include "syscount/syscount.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const compared[] = {
	"pread64", "pwrite64", "lseek", "fdatasync", "write", "wait4", "clone", "clone3",
};
#define NCOMPARED (sizeof(compared) / sizeof(compared[0]))

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char dir[512], full[600];
	size_t len;

	while (path && *path) {
		len = strcspn(path, ":");
		snprintf(dir, sizeof(dir), "%.*s", (int)len, path);
		snprintf(full, sizeof(full), "%s/%s", dir, prog);
		if (!access(full, X_OK))
			return true;
		path += len + (path[len] == ':');
	}
	return false;
}

static int run_strace(const char *probe, const char *dir, const char *out)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execlp("strace", "strace", "-f", "-qq", "-o", out, probe, dir, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* One line of strace -f: "PID name(args) = ret"; resumed halves skipped. */
static void count_line(const char *line, uint64_t *counts)
{
	const char *p = strchr(line, ' ');
	size_t i, len;

	if (!p)
		return;
	while (*p == ' ')	/* strace pads the pid column */
		p++;
	if (*p == '<' || *p == '+' || *p == '-')
		return;
	len = strcspn(p, "(");
	for (i = 0; i < NCOMPARED; i++)
		if (strlen(compared[i]) == len && !strncmp(p, compared[i], len))
			counts[i]++;
}

static int parse_strace(const char *file, uint64_t *counts)
{
	char line[1024];
	int state = 0;		/* 0 before, 1 inside, 2 after the region */
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "syscount-probe-begin"))
			state = 1;
		else if (strstr(line, "syscount-probe-end"))
			state = 2;
		else if (state == 1)
			count_line(line, counts);
	}
	fclose(f);
	return state == 2 ? 0 : -1;
}

static int count_with(enum syscount_method m, struct syscount_work *w, struct syscount *c)
{
	struct syscount_session *s;
	struct syscount from_child;
	char why[160];
	int fds[2], st = 0;
	pid_t pid;

	if (syscount_session_new(&s, m, why, sizeof(why)))
		return -1;
	if (pipe(fds))
		return -1;
	pid = syscount_fork(s);
	if (pid == 0) {
		syscount_begin(s);
		syscount_work_run(w);
		syscount_end(s, c);
		_exit(write(fds[1], c, sizeof(*c)) == (ssize_t)sizeof(*c) ? 0 : 1);
	}
	CHECK(syscount_wait(s, pid, &st, NULL, c) == 0);
	CHECK(read(fds[0], &from_child, sizeof(from_child)) == (ssize_t)sizeof(from_child));
	if (m == SYSCOUNT_PERF)
		*c = from_child;
	close(fds[0]);
	close(fds[1]);
	syscount_session_free(s);
	return 0;
}

static uint64_t by(const struct syscount *c, const char *name)
{
	size_t i;

	for (i = 0; i < syscount_nnames; i++)
		if (!strcmp(syscount_names[i], name))
			return c->by_name[i];
	return UINT64_MAX;
}

int main(int argc, char **argv)
{
	static const enum syscount_method methods[] = { SYSCOUNT_PERF, SYSCOUNT_PTRACE };
	uint64_t traced[NCOMPARED] = { 0 };
	struct syscount_work w;
	struct syscount c;
	char out[512];
	size_t i, k;
	int ran = 0;

	if (argc != 2 || !in_path("strace")) {
		printf("skipped: strace is not installed\n");
		return 77;
	}
	unsetenv("COPYBENCH_SYSCOUNT");
	snprintf(out, sizeof(out), "%s/strace.out", test_tmpdir());
	CHECK(run_strace(argv[1], test_tmpdir(), out) == 0);
	CHECK(parse_strace(out, traced) == 0);
	CHECK_EQ_U64(traced[0], WORK_PREAD64);
	CHECK(syscount_work_prepare(&w, test_tmpdir()) == 0);
	for (k = 0; k < 2; k++) {
		if (count_with(methods[k], &w, &c))
			continue;
		ran++;
		CHECK(c.valid);
		for (i = 0; i < NCOMPARED; i++) {
			if (by(&c, compared[i]) != traced[i])
				fprintf(stderr, "%s: %s %llu, strace %llu\n", c.method, compared[i],
					(unsigned long long)by(&c, compared[i]),
					(unsigned long long)traced[i]);
			CHECK_EQ_U64(by(&c, compared[i]), traced[i]);
		}
	}
	syscount_work_close(&w);
	test_cleanup_dir();
	if (!ran) {
		printf("skipped: neither perf nor ptrace counting can run here\n");
		return 77;
	}
	return test_report(argv[0]);
}
