// SPDX-License-Identifier: MIT
/*
 * syscount_off_reports_why.c - COPYBENCH_SYSCOUNT=off gives counts that are
 * invalid, method "n/a", reason "counting disabled", and the child still runs
 * and is waited for; an unknown value is refused with a reason.
 */
#include "support/testutil.h"
#include "syscount/syscount.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct syscount_session *s;
	struct syscount c;
	char why[160];
	int st = -1;
	pid_t pid;

	(void)argc;
	setenv("COPYBENCH_SYSCOUNT", "sometimes", 1);
	CHECK(syscount_session_new(&s, SYSCOUNT_AUTO, why, sizeof(why)) == -EINVAL);
	CHECK(strstr(why, "COPYBENCH_SYSCOUNT=sometimes") != NULL);

	setenv("COPYBENCH_SYSCOUNT", "off", 1);
	CHECK(syscount_session_new(&s, SYSCOUNT_PERF, why, sizeof(why)) == 0);
	CHECK(!strcmp(syscount_session_method(s), "n/a"));
	pid = syscount_fork(s);
	if (pid == 0) {
		syscount_begin(s);
		syscount_end(s, &c);
		_exit(!c.valid && !strcmp(c.why, "counting disabled") ? 3 : 4);
	}
	memset(&c, 0, sizeof(c));
	CHECK(syscount_wait(s, pid, &st, NULL, &c) == 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3);
	CHECK(!c.valid);
	CHECK(!strcmp(c.method, "n/a"));
	CHECK(!strcmp(c.why, "counting disabled"));
	syscount_session_free(s);
	return test_report(argv[0]);
}
