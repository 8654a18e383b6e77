// SPDX-License-Identifier: MIT
/*
 * stats_and_csv_exact.c - summary statistics on known samples, and CSV written
 * atomically then read back field for field (quotes, commas, newlines), and
 * malformed CSV refused with the line named.
 */
#include "lib/csv.h"
#include "lib/stats.h"
#include "support/testutil.h"

#include <dirent.h>
#include <errno.h>
#include <unistd.h>
#include <math.h>
#include <string.h>

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9 * (fabs(b) + 1);
}
#define NEAR(a, b) near((a), (b))

static void check_stats(void)
{
	static const double s[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	static const double odd[] = { 100, 1, 3, 2, 4 };
	struct stats st;

	stats_compute(s, 8, &st);
	CHECK_EQ_U64(st.n, 8);
	CHECK(NEAR(st.median, 4.5));
	CHECK(NEAR(st.min, 2) && NEAR(st.max, 9));
	CHECK(NEAR(st.mean, 5));
	CHECK(NEAR(st.stddev, sqrt(32.0 / 7.0)));	/* sample, n - 1 */
	CHECK(NEAR(st.cv, sqrt(32.0 / 7.0) / 5));
	stats_compute(odd, 5, &st);
	CHECK(NEAR(st.median, 3));
	CHECK(NEAR(st.mean, 22));
	CHECK(odd[0] == 100 && odd[1] == 1);		/* input left alone */
	stats_compute(odd, 1, &st);
	CHECK(NEAR(st.median, 100) && st.stddev == 0 && st.cv == 0);
	stats_compute(odd, 0, &st);
	CHECK(st.n == 0 && st.median == 0 && st.mean == 0);
	CHECK(stats_median(odd, 0) == 0);
}

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void check_csv_roundtrip(void)
{
	static const char *const tricky[] = {
		"plain", "with,comma", "with \"quotes\"", "two\nlines", "", "crlf\r\nend",
	};
	char path[600], why[256];
	struct csv_writer w;
	struct csv_table t;

	snprintf(path, sizeof(path), "%s/t.csv", test_tmpdir());
	CHECK(csv_open(&w, path) == 0);
	CHECK_EQ_U64(entries(test_tmpdir()), 1);	/* only the temp file */
	for (int i = 0; i < 6; i++)
		csv_str(&w, i ? "c" : "name");
	csv_end_row(&w);
	for (int i = 0; i < 6; i++)
		csv_str(&w, tricky[i]);
	csv_end_row(&w);
	csv_u64(&w, 18446744073709551615ull);
	csv_i64(&w, -42);
	csv_dbl(&w, 3.14159, 2);
	csv_str(&w, "x");
	csv_str(&w, "y");
	csv_str(&w, "z");
	csv_end_row(&w);
	CHECK(access(path, F_OK) != 0);			/* nothing before commit */
	CHECK(csv_commit(&w) == 0);
	CHECK_EQ_U64(entries(test_tmpdir()), 1);	/* temp renamed, not left */
	CHECK(csv_read(path, &t, why, sizeof(why)) == 0);
	CHECK_EQ_U64(t.ncols, 6);
	CHECK_EQ_U64(t.nrows, 2);
	for (int i = 0; t.nrows == 2 && i < 6; i++)
		CHECK(strcmp(csv_cell(&t, 0, (size_t)i), tricky[i]) == 0);
	if (t.nrows == 2) {
		CHECK(strcmp(csv_cell(&t, 1, 0), "18446744073709551615") == 0);
		CHECK(strcmp(csv_cell(&t, 1, 1), "-42") == 0);
		CHECK(strcmp(csv_cell(&t, 1, 2), "3.14") == 0);
	}
	CHECK(csv_col(&t, "name") == 0 && csv_col(&t, "nope") == -1);
	csv_free(&t);
	unlink(path);
	CHECK(csv_open(&w, path) == 0);
	csv_str(&w, "half");
	csv_abort(&w);
	CHECK_EQ_U64(entries(test_tmpdir()), 0);	/* abort leaves nothing */
}

static void check_csv_errors(void)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "a,b\n1,2,3\n", "line 2: 3 fields, the header has 2" },
		{ "a,b\n\"1,2\n", "line 2: unterminated quoted field" },
		{ "a,b\n\"1\"x,2\n", "line 2: text after a closing quote" },
		{ "a,b\n1\"2,3\n", "line 2: quote inside an unquoted field" },
		{ "", "no header line" },
	};
	struct csv_table t;
	char why[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		CHECK(csv_parse(bad[i].text, strlen(bad[i].text), &t, why, sizeof(why)) == -EINVAL);
		if (strcmp(why, bad[i].why))
			fprintf(stderr, "csv error %zu: '%s', expected '%s'\n", i, why, bad[i].why);
		CHECK(strcmp(why, bad[i].why) == 0);
	}
	CHECK(csv_parse("a,b\r\n1,2\r\n", 10, &t, why, sizeof(why)) == 0);
	CHECK(t.nrows == 1 && strcmp(csv_cell(&t, 0, 1), "2") == 0);
	csv_free(&t);
	CHECK(csv_read("/nonexistent/x.csv", &t, why, sizeof(why)) == -ENOENT);
	CHECK(strstr(why, "/nonexistent/x.csv") != NULL);
}

int main(void)
{
	check_stats();
	check_csv_roundtrip();
	check_csv_errors();
	test_cleanup_dir();
	return test_report("stats_and_csv_exact");
}
