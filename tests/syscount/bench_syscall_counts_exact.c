// SPDX-License-Identifier: MIT
/*
 * bench_syscall_counts_exact.c - the syscall counts bench reports, end to end:
 *   - readwrite with a 64 KiB buffer on a 64 MiB file: exactly 1024 pread64
 *     and 1024 pwrite64 (+1 fadvise64), by both mechanisms, in `bench copy
 *     --count-syscalls` and in a run's syscalls.csv;
 *   - copy_file_range on 64 MiB: at most 2 copy_file_range calls;
 *   - `bench copy --count-syscalls` agrees with `strace -c -f` of the same
 *     command once the setup (strace of the same command on an empty
 *     source) is subtracted, for every syscall and in total.
 */
#include "datasets/dataset.h"
#include "support/testutil.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SIZE_64M (64ull << 20)

static char out[1 << 16];

/* "  name    N" in bench copy --count-syscalls output; -1 when absent. */
static long long count_of(const char *text, const char *name)
{
	char pat[64];
	const char *p = text;

	snprintf(pat, sizeof(pat), "  %s ", name);
	while ((p = strstr(p, pat))) {
		if (p == text || p[-1] == '\n')
			return strtoll(p + strlen(pat), NULL, 10);
		p++;
	}
	return -1;
}

static long long total_of(const char *text)
{
	const char *p = strstr(text, "): ");

	return p ? strtoll(p + 3, NULL, 10) : -1;
}

static void copy_counts(const char *method, const char *strategy, const char *src)
{
	char cmd[2048], dst[600];

	snprintf(dst, sizeof(dst), "%s/dst-%s-%s", test_tmpdir(), method, strategy);
	snprintf(cmd, sizeof(cmd),
		 "COPYBENCH_SYSCOUNT=%s '%s' copy --strategy %s --buffer 64K --count-syscalls '%s' '%s'",
		 method, test_bench(), strategy, src, dst);
	CHECK_EQ_U64(test_run(cmd, out, sizeof(out)), 0);
	unlink(dst);
}

static void check_copy_command(const char *method, const char *src)
{
	copy_counts(method, "readwrite", src);
	if (strstr(out, "n/a")) {
		printf("skip %s: %s", method, out);
		return;
	}
	printf("%s readwrite:\n%s", method, out);
	CHECK_EQ_U64(count_of(out, "pread64"), 1024);
	CHECK_EQ_U64(count_of(out, "pwrite64"), 1024);
	CHECK_EQ_U64(count_of(out, "fadvise64"), 1);
	/* the buffer: fresh pages, one mmap and one munmap whatever the heap */
	CHECK_EQ_U64(count_of(out, "mmap"), 1);
	CHECK_EQ_U64(count_of(out, "munmap"), 1);
	CHECK_EQ_U64(total_of(out), 2051);
	copy_counts(method, "copy_file_range", src);
	printf("%s copy_file_range:\n%s", method, out);
	CHECK(count_of(out, "copy_file_range") >= 1 && count_of(out, "copy_file_range") <= 2);
	CHECK_EQ_U64(total_of(out), (unsigned long long)count_of(out, "copy_file_range"));
}

/* The run's syscalls.csv has the same exact counts. */
static void check_run_csv(void)
{
	char cmd[2048];
	const char *tmp = test_tmpdir();

	snprintf(cmd, sizeof(cmd),
		 "'%s' --strategy readwrite --buffer 64K --size 64M --repeat 1 --no-limits --quiet --dir '%s/data' --out '%s/res' >/dev/null && "
		 "grep -E '^copy,readwrite,random,67108864,65536,warm,0,0,0,0,0,0,0,,0,(pread64|pwrite64|fadvise64|total),' '%s/res/syscalls.csv' | cut -d, -f16,17",
		 test_bench(), tmp, tmp, tmp);
	CHECK_EQ_U64(test_run(cmd, out, sizeof(out)), 0);
	printf("syscalls.csv:\n%s", out);
	CHECK(strstr(out, "pread64,1024\n") != NULL);
	CHECK(strstr(out, "pwrite64,1024\n") != NULL);
	CHECK(strstr(out, "fadvise64,1\n") != NULL);
	CHECK(strstr(out, "total,2051\n") != NULL);
}

/* `strace -c -f` of bench copy as "name calls" lines into buf. */
static int strace_table(const char *src, const char *tag, char *buf, size_t n)
{
	char cmd[4096], log[600], dst[600];
	int ret;

	snprintf(log, sizeof(log), "%s/strace-%s.txt", test_tmpdir(), tag);
	snprintf(dst, sizeof(dst), "%s/dst-strace-%s", test_tmpdir(), tag);
	snprintf(cmd, sizeof(cmd),
		 "ASAN_OPTIONS=detect_leaks=0 COPYBENCH_SYSCOUNT=perf strace -f -c -o '%s' '%s' copy --strategy readwrite --buffer 64K --count-syscalls '%s' '%s' >/dev/null && "
		 "awk '$4 ~ /^[0-9]+$/ && $NF != \"total\" {print $NF, $4}' '%s'",
		 log, test_bench(), src, dst, log);
	ret = test_run(cmd, buf, n);
	unlink(dst);
	return ret;
}

static long long table_count(const char *table, const char *name)
{
	char pat[80];
	const char *p = table;

	snprintf(pat, sizeof(pat), "%s ", name);
	while ((p = strstr(p, pat))) {
		if (p == table || p[-1] == '\n')
			return strtoll(p + strlen(pat), NULL, 10);
		p++;
	}
	return 0;
}

/*
 * strace -c -f of the whole command counts the process's setup too (the
 * loader, opening the files, forking, the counters, renaming). The setup is
 * identified by tracing the same command on an empty source, whose copy makes
 * no call: the difference of the two tables must be exactly bench's count.
 */
static void check_strace_agrees(const char *src)
{
	static char full[8192], empty[8192];
	static const char *const names[] = { "pread64", "pwrite64", "fadvise64", "read", "write" };
	char esrc[600];
	uint64_t hash;
	long long diff_total = 0;

	if (test_run("command -v strace >/dev/null", NULL, 0) != 0) {
		printf("skip strace comparison: strace is not installed\n");
		return;
	}
	snprintf(esrc, sizeof(esrc), "%s/empty", test_tmpdir());
	CHECK(dataset_generate(DATASET_RANDOM, 0, 1, esrc, &hash) == 0);
	CHECK_EQ_U64(strace_table(src, "full", full, sizeof(full)), 0);
	CHECK_EQ_U64(strace_table(esrc, "empty", empty, sizeof(empty)), 0);
	copy_counts("perf", "readwrite", src);
	if (strstr(out, "n/a")) {
		printf("skip strace comparison: %s", out);
		return;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		long long d = table_count(full, names[i]) - table_count(empty, names[i]);
		long long ours = count_of(out, names[i]);

		printf("strace difference %-10s %lld, bench %lld\n", names[i], d, ours < 0 ? 0 : ours);
		CHECK_EQ_U64(d, ours < 0 ? 0 : ours);
	}
	for (const char *p = full; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		char name[64];
		long long calls;

		/* glibc seeds malloc's hardening key with getrandom in the
		 * parent, lazily: its count varies from run to run */
		if (sscanf(p, "%63s %lld", name, &calls) == 2 && strcmp(name, "getrandom"))
			diff_total += calls - table_count(empty, name);
	}
	printf("strace difference total %lld, bench %lld\n", diff_total, total_of(out));
	CHECK_EQ_U64(diff_total, total_of(out));
}

int main(void)
{
	char src[600];
	uint64_t hash;

	if (!test_bench()) {
		printf("skip: BENCH is not set\n");
		return 77;
	}
	snprintf(src, sizeof(src), "%s/src", test_tmpdir());
	CHECK(dataset_generate(DATASET_RANDOM, SIZE_64M, 1, src, &hash) == 0);
	check_copy_command("perf", src);
	check_copy_command("ptrace", src);
	check_run_csv();
	check_strace_agrees(src);
	test_cleanup_dir();
	return test_report("bench_syscall_counts_exact");
}
