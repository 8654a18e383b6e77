/* SPDX-License-Identifier: MIT */
/* testutil.h - a tiny check macro set for the C tests. */
#ifndef COPYBENCH_TESTUTIL_H
#define COPYBENCH_TESTUTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct csv_writer;

extern int test_failures;
extern int test_checks;

#define CHECK(cond) do { \
	test_checks++; \
	if (!(cond)) { \
		test_failures++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ_U64(a, b) do { \
	unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
	test_checks++; \
	if (a_ != b_) { \
		test_failures++; \
		fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", \
			__FILE__, __LINE__, #a, a_, #b, b_); \
	} \
} while (0)

/* Prints "N checks: N passed, N failed" and returns the exit code. */
int test_report(const char *name);
/* A fresh temporary directory for the test (removed by test_cleanup_dir). */
const char *test_tmpdir(void);
void test_cleanup_dir(void);
/* Writes a file of len bytes of a fixed pattern (byte i is i * 131 + 7) at
 * path. 0 or -1. */
int test_pattern_file(const char *path, size_t len);
/*
 * Runs a shell command, capturing its standard output (up to n - 1 bytes,
 * NUL-terminated) into out; returns its exit status, or -1 if it could not
 * run or was killed.
 */
int test_run(const char *cmd, char *out, size_t n);
/*
 * Runs cli(argc, argv, out, err), a subcommand's testable core, with what it
 * writes captured into out_buf and err_buf (NUL-terminated, cut to size).
 * Returns cli's result.
 */
int test_cli_capture(int (*cli)(int, char **, FILE *, FILE *), int argc, char **argv,
		     char *out_buf, size_t on, char *err_buf, size_t en);
/*
 * From CSV text: the cell of column col in the (last) row whose column
 * key_col is key, copied into cell; "" when there is none, "(unparseable)"
 * when the text is not CSV. Returns cell.
 */
const char *test_csv_lookup(const char *text, const char *key_col, const char *key,
			    const char *col, char *cell, size_t n);
/*
 * For synthetic results folders: the identifying columns CID_WORKLOAD to
 * CID_FSYNC of enum col_id (columns.h; the caller writes the rest, from
 * CID_THREADS on) of a warm 1 MiB `random` case of strategy (workload
 * "limit" when limit; a 128K buffer for readwrite, none otherwise), and a
 * deterministic xorshift64 draw in [-1, 1).
 */
void test_synth_ids(struct csv_writer *w, const char *strategy, bool limit);
double test_uniform(uint64_t *state);
/* The `bench` executable under test (env BENCH), or NULL. */
const char *test_bench(void);

#endif
