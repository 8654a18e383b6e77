// SPDX-License-Identifier: MIT
/*
 * hyperfine_script_small.c - tools/hyperfine-compare.sh on a 1 MiB file with
 * 2 runs writes the JSON, CSV and Markdown exports of both cache states into
 * the results folder. Skipped when hyperfine is not installed or bench has no
 * working `copy` command (its --help must
 * mention --strategy).
 */
#include "support/testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool nonempty(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_size > 0;
}

int main(void)
{
	static const char *const states[] = { "warm", "cold" };
	static const char *const exts[] = { "json", "csv", "md" };
	const char *bench = getenv("BENCH"), *src = getenv("SOURCE_DIR");
	const char *tmp = test_tmpdir();
	char cmd[4096], out[1024], path[1200];

	snprintf(cmd, sizeof(cmd), "'%s' copy --help 2>&1 | grep -q -e --strategy", bench ? bench : "bench");
	if (!bench || !src || system("command -v hyperfine >/dev/null 2>&1") != 0 ||
	    system(cmd) != 0) {
		printf("hyperfine_script_small: skipped: needs hyperfine and a bench with a working copy command\n");
		test_cleanup_dir();
		return 77;
	}
	snprintf(out, sizeof(out), "%s/results", tmp);
	snprintf(cmd, sizeof(cmd),
		 "bash '%s/tools/hyperfine-compare.sh' --bench '%s' --size 1M --runs 2 --warmup 1 "
		 "--out '%s' --workdir '%s' --no-plot >'%s/stdout' 2>'%s/stderr'",
		 src, bench, out, tmp, tmp, tmp);
	CHECK_EQ_U64(system(cmd), 0);
	for (int s = 0; s < 2; s++)
		for (int e = 0; e < 3; e++) {
			snprintf(path, sizeof(path), "%s/hyperfine-%s.%s", out, states[s], exts[e]);
			CHECK(nonempty(path));
		}
	snprintf(path, sizeof(path), "%s/stdout", tmp);
	CHECK(nonempty(path));
	test_cleanup_dir();
	return test_report("hyperfine_script_small");
}
