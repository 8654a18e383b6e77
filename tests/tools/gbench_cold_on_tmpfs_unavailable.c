// SPDX-License-Identifier: MIT
/*
 * gbench_cold_on_tmpfs_unavailable.c - tmpfs cannot evict a file from the
 * page cache, so bench_gbench --dir on tmpfs reports the cold case skipped
 * with the unavailable reason and no time, while the warm case is timed, and
 * exits 0 (unavailable is no failure). The path of bench_gbench is the first
 * argument; without it, or without a tmpfs at /dev/shm, the test is skipped.
 */
#include "support/testutil.h"

#include <linux/magic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

static char out[1 << 16];

/* The JSON object of benchmark name in out (up to its closing brace), or NULL. */
static const char *json_entry(const char *name, char *entry, size_t n)
{
	char key[256];
	const char *at, *end;

	snprintf(key, sizeof(key), "\"name\": \"%s\"", name);
	at = strstr(out, key);
	if (!at)
		return NULL;
	end = strchr(at, '}');
	if (!end || (size_t)(end - at) >= n)
		return NULL;
	memcpy(entry, at, (size_t)(end - at));
	entry[end - at] = '\0';
	return entry;
}

static bool on_tmpfs(const char *path)
{
	struct statfs fs;

	return statfs(path, &fs) == 0 && fs.f_type == TMPFS_MAGIC;
}

int main(int argc, char **argv)
{
	char dir[] = "/dev/shm/copybench-test-XXXXXX", cmd[1024], entry[4096];

	if (argc < 2 || !on_tmpfs("/dev/shm") || !mkdtemp(dir)) {
		printf("gbench_cold_on_tmpfs_unavailable: skipped: %s\n", argc < 2 ?
		       "bench_gbench was not built (no libbenchmark-dev)" : "no tmpfs at /dev/shm");
		return 77;
	}
	snprintf(cmd, sizeof(cmd),
		 "'%s' --dir='%s' --benchmark_min_time=0.01 --benchmark_format=json --benchmark_filter='^copy/readwrite/size:1M/(warm|cold)/'",
		 argv[1], dir);
	CHECK_EQ_U64(test_run(cmd, out, sizeof(out)), 0);

	CHECK(json_entry("copy/readwrite/size:1M/cold/manual_time", entry, sizeof(entry)) != NULL);
	CHECK(strstr(entry, "\"error_occurred\": true") != NULL);
	CHECK(strstr(entry, "\"error_message\": \"unavailable: cannot evict the source from the page cache (100% resident") != NULL);
	CHECK(strstr(entry, "bytes_per_second") == NULL);
	CHECK(strstr(entry, "\"real_time\": 0.0000000000000000e+00") != NULL);

	CHECK(json_entry("copy/readwrite/size:1M/warm/manual_time", entry, sizeof(entry)) != NULL);
	CHECK(strstr(entry, "error_occurred") == NULL);
	CHECK(strstr(entry, "bytes_per_second") != NULL);

	/* bench_gbench removed its files and its directory. */
	CHECK_EQ_U64(rmdir(dir), 0);
	if (access(dir, F_OK) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CHECK_EQ_U64(system(cmd), 0);
	}
	if (test_failures)
		fprintf(stderr, "bench_gbench said:\n%s", out);
	return test_report("gbench_cold_on_tmpfs_unavailable");
}
