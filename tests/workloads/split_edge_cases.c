// SPDX-License-Identifier: MIT
/*
 * split_edge_cases - the split workload on small inputs, with every strategy
 * that can copy ranges and with the naive `lines` splitter: empty source, one
 * line, no trailing newline, a line exactly the part size, a line one byte
 * over (-EFBIG, its message, and no parts left after remove_output), and many
 * lines at part sizes 64, 100 and 4096. Part contents and counts are checked
 * byte for byte against a greedy split computed here.
 */
#include "support/testutil.h"
#include "workloads/workload.h"
#include "workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

extern const struct workload workload_split;

/* The naive splitter's name: the workload picks its path by it. */
static const struct copy_strategy split_lines_stand_in = {
	.name = "lines",
	.description = "stand-in for the lines strategy when it is not built",
	.flags = STRATEGY_NAIVE,
};

struct part {
	size_t off, len;
};

/* Greedy split: as many whole lines as fit. -1 when a line is too long. */
static int expected_parts(const char *s, size_t n, size_t part, struct part *out,
			  size_t *nparts, size_t *bad_at)
{
	size_t start = 0, np = 0;

	while (start < n) {
		size_t end = start, fit = start;

		while (end < n) {
			const char *nl = memchr(s + end, '\n', n - end);
			size_t next = nl ? (size_t)(nl - s) + 1 : n;

			if (next - start > part)
				break;
			fit = end = next;
		}
		if (fit == start) {
			*bad_at = start;
			*nparts = np;
			return -1;
		}
		out[np++] = (struct part){ start, fit - start };
		start = fit;
	}
	*nparts = np;
	return 0;
}

static int write_file(const char *path, const char *s, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ok = fd >= 0 && write(fd, s, n) == (ssize_t)n;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* Is file `path` exactly s[0..n)? */
static int file_equals(const char *path, const char *s, size_t n)
{
	char *buf = malloc(n + 1);
	int fd = open(path, O_RDONLY);
	ssize_t got = fd >= 0 ? read(fd, buf, n + 1) : -1;
	int ok = got == (ssize_t)n && memcmp(buf, s, n) == 0;

	if (fd >= 0)
		close(fd);
	free(buf);
	return ok;
}

static int part_exists(const char *dst, unsigned idx)
{
	char path[PATH_MAX];

	split_part_path(dst, idx, path, sizeof(path));
	return access(path, F_OK) == 0;
}

/* A workload's message, whole. */
#define MSG_MAX sizeof(((struct run_ctx *)0)->msg)

static int run_split(struct case_spec *c, const char *src, const char *dst, char *msg)
{
	struct run_ctx ctx = { .c = c, .src = src, .dst = dst };
	int err;

	err = workload_split.setup(&ctx);
	if (!err) {
		err = workload_split.run(&ctx);
		workload_split.teardown(&ctx);
	}
	snprintf(msg, MSG_MAX, "%s", ctx.msg);
	return err;
}

/* Splits s[0..n) with strategy s at part size `part` and checks everything. */
static void check_split(const struct copy_strategy *strat, const char *s, size_t n,
			uint64_t part)
{
	static unsigned serial;
	struct part *want = malloc((n + 1) * sizeof(*want));
	struct dataset ds = { .kind = DATASET_TEXT, .size = n };
	struct case_spec c = {
		.wl = &workload_split, .strategy = strat, .ds = &ds,
		.buffer = 4096, .part_size = part, .queue_depth = 4, .threads = 2,
	};
	char dst[PATH_MAX], msg[MSG_MAX], why[256], expect_msg[256];
	size_t nparts = 0, bad_at = 0;
	int bad, err;

	snprintf(ds.path, sizeof(ds.path), "%s/src-%u", test_tmpdir(), serial);
	snprintf(dst, sizeof(dst), "%s/out-%u", test_tmpdir(), serial++);
	CHECK(write_file(ds.path, s, n) == 0);
	ds.hash = XXH3_64bits(s, n);
	bad = expected_parts(s, n, part, want, &nparts, &bad_at);

	CHECK(workload_split.prepare(&c, why, sizeof(why)) == 0);
	CHECK_EQ_U64(c.expect_size, n);
	err = run_split(&c, ds.path, dst, msg);
	if (bad) {
		snprintf(expect_msg, sizeof(expect_msg),
			 "line at byte %zu is longer than the part size (%llu bytes)",
			 bad_at, (unsigned long long)part);
		CHECK_EQ_U64(-err, EFBIG);
		CHECK(strcmp(msg, expect_msg) == 0);
		if (strcmp(msg, expect_msg))
			fprintf(stderr, "  %s: got message \"%s\"\n", strat->name, msg);
	} else {
		CHECK_EQ_U64(err, 0);
		for (size_t i = 0; i < nparts; i++) {
			char path[PATH_MAX];

			split_part_path(dst, (unsigned)i, path, sizeof(path));
			CHECK(file_equals(path, s + want[i].off, want[i].len));
		}
		CHECK(!part_exists(dst, (unsigned)nparts));
		CHECK_EQ_U64(workload_split.verify(&c, dst, why, sizeof(why)), 0);
	}
	if (err && !bad)
		fprintf(stderr, "  %s part %llu: %s (%s)\n", strat->name,
			(unsigned long long)part, strerror(-err), msg);
	workload_split.remove_output(&c, dst);
	CHECK(!part_exists(dst, 0));
	unlink(ds.path);
	free(want);
}

/* A broken output must fail verification: a stray byte in the last part. */
static void check_verify_rejects(const struct copy_strategy *strat)
{
	const char *s = "one\ntwo\nthree\n";
	struct dataset ds = { .kind = DATASET_TEXT, .size = strlen(s) };
	struct case_spec c = { .wl = &workload_split, .strategy = strat, .ds = &ds,
				.buffer = 4096, .part_size = 8 };
	char dst[PATH_MAX], msg[MSG_MAX], why[256], path[PATH_MAX];
	int fd;

	snprintf(ds.path, sizeof(ds.path), "%s/vsrc", test_tmpdir());
	snprintf(dst, sizeof(dst), "%s/vout", test_tmpdir());
	CHECK(write_file(ds.path, s, ds.size) == 0);
	ds.hash = XXH3_64bits(s, ds.size);
	CHECK(workload_split.prepare(&c, why, sizeof(why)) == 0);
	CHECK_EQ_U64(run_split(&c, ds.path, dst, msg), 0);
	CHECK_EQ_U64(workload_split.verify(&c, dst, why, sizeof(why)), 0);
	split_part_path(dst, 1, path, sizeof(path));
	fd = open(path, O_WRONLY | O_APPEND);
	CHECK(fd >= 0 && write(fd, "x", 1) == 1);
	close(fd);
	CHECK(workload_split.verify(&c, dst, why, sizeof(why)) != 0);
	workload_split.remove_output(&c, dst);
	CHECK(!part_exists(dst, 0) && !part_exists(dst, 1));
	unlink(ds.path);
}

/* Deterministic lines of 0..60 characters (empty lines included). */
static char *many_lines(size_t nlines, size_t *n)
{
	char *s = malloc(nlines * 62 + 1);
	uint32_t x = 12345;
	size_t p = 0;

	for (size_t i = 0; i < nlines; i++) {
		size_t len;

		x = x * 1103515245u + 12345u;
		len = (x >> 16) % 61;
		for (size_t j = 0; j < len; j++)
			s[p++] = (char)('a' + (i + j) % 26);
		s[p++] = '\n';
	}
	*n = p;
	return s;
}

static void check_strategy(const struct copy_strategy *strat)
{
	static const uint64_t sizes[] = { 64, 100, 4096 };
	size_t n;
	char *many = many_lines(2000, &n);

	printf("strategy %s\n", strat->name);
	check_split(strat, "", 0, 64);
	check_split(strat, "hello\n", 6, 64);
	check_split(strat, "hello", 5, 64);
	check_split(strat, "aa\nbbb\ncc\n", 10, 7);
	check_split(strat, "one\ntwo\nthree", 13, 8);
	check_split(strat, "abc\n", 4, 4);			/* exactly the size */
	check_split(strat, "abc\nabc\n", 8, 4);
	check_split(strat, "abcd\n", 5, 4);			/* one byte over */
	check_split(strat, "ab\nabcd\n", 8, 4);			/* over, after a part */
	check_split(strat, "ab\nabcde", 8, 4);			/* last line too long */
	check_split(strat, "\n\n\n", 3, 1);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_split(strat, many, n, sizes[i]);
	check_split(strat, many, n - 1, 100);			/* no final '\n' */
	check_verify_rejects(strat);
	free(many);
}

static int already_listed(const struct copy_strategy **list, size_t n,
			  const struct copy_strategy *s)
{
	for (size_t i = 0; i < n; i++)
		if (list[i] == s)
			return 1;
	return 0;
}

int main(void)
{
	static const char *const named[] = { "readwrite", "copy_file_range", "sendfile" };
	const struct copy_strategy *list[64];
	size_t nlist = 0;
	char why[256];

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		const struct copy_strategy *s = strategy_find(named[i]);

		if (s)
			list[nlist++] = s;
		else
			printf("strategy %s: not in this build, skipped\n", named[i]);
	}
	list[nlist++] = strategy_find("lines") ? strategy_find("lines") : &split_lines_stand_in;
	for (size_t i = 0; i < strategy_count && nlist < 64; i++)
		if ((strategy_table[i]->flags & STRATEGY_RANGE) &&
		    !(strategy_table[i]->flags & STRATEGY_TEST_ONLY) &&
		    !already_listed(list, nlist, strategy_table[i]))
			list[nlist++] = strategy_table[i];

	for (size_t i = 0; i < nlist; i++) {
		if (strategy_probe(list[i], test_tmpdir(), why, sizeof(why))) {
			printf("strategy %s: unavailable: %s\n", list[i]->name, why);
			continue;
		}
		check_strategy(list[i]);
	}
	test_cleanup_dir();
	return test_report("split_edge_cases");
}
