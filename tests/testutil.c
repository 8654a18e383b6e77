// SPDX-License-Identifier: MIT
#include "testutil.h"

#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/wait.h>
#include <unistd.h>

int test_failures;
int test_checks;
static char tmpdir[256];

int test_report(const char *name)
{
	if (test_checks == 0) {
		fprintf(stderr, "%s: no checks ran\n", name);
		return 1;
	}
	printf("%s: %d checks, %d failed\n", name, test_checks, test_failures);
	return test_failures ? 1 : 0;
}

const char *test_tmpdir(void)
{
	const char *base = getenv("TMPDIR");

	if (tmpdir[0])
		return tmpdir;
	snprintf(tmpdir, sizeof(tmpdir), "%s/copybench-test-XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		exit(1);
	}
	return tmpdir;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

void test_cleanup_dir(void)
{
	if (tmpdir[0])
		nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	tmpdir[0] = '\0';
}

int test_run(const char *cmd, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");
	size_t got = 0;
	int status;

	if (!p)
		return -1;
	if (out && n) {
		got = fread(out, 1, n - 1, p);
		out[got] = '\0';
	}
	while (fgetc(p) != EOF)
		;
	status = pclose(p);
	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

const char *test_bench(void)
{
	const char *b = getenv("BENCH");

	return b && *b ? b : NULL;
}
