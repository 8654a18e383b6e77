// SPDX-License-Identifier: MIT
#include "testutil.h"
#include "lib/csv.h"

#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
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

static void slurp_stream(FILE *f, char *buf, size_t n)
{
	size_t got = 0;

	if (f) {
		rewind(f);
		got = fread(buf, 1, n - 1, f);
		fclose(f);
	}
	buf[got] = '\0';
}

int test_cli_capture(int (*cli)(int, char **, FILE *, FILE *), int argc, char **argv,
		     char *out_buf, size_t on, char *err_buf, size_t en)
{
	FILE *out = tmpfile(), *err = tmpfile();
	int ret = out && err ? cli(argc, argv, out, err) : -1;

	slurp_stream(out, out_buf, on);
	slurp_stream(err, err_buf, en);
	return ret;
}

const char *test_csv_lookup(const char *text, const char *key_col, const char *key,
			    const char *col, char *cell, size_t n)
{
	struct csv_table t;
	char why[256];
	int kc, cc;

	snprintf(cell, n, "%s", "");
	if (csv_parse(text, strlen(text), &t, why, sizeof(why))) {
		snprintf(cell, n, "(unparseable)");
		return cell;
	}
	kc = csv_col(&t, key_col);
	cc = csv_col(&t, col);
	for (size_t r = 0; kc >= 0 && cc >= 0 && r < t.nrows; r++)
		if (strcmp(csv_cell(&t, r, (size_t)kc), key) == 0)
			snprintf(cell, n, "%s", csv_cell(&t, r, (size_t)cc));
	csv_free(&t);
	return cell;
}


void test_synth_ids(struct csv_writer *w, const char *strategy, bool limit)
{
	csv_str(w, limit ? "limit" : "copy");
	csv_str(w, strategy);
	csv_str(w, "random");
	csv_u64(w, 1048576);
	csv_u64(w, strcmp(strategy, "readwrite") == 0 ? 131072 : 0);
	csv_str(w, "warm");
	csv_u64(w, 0);	/* batch_lines */
	csv_u64(w, 0);	/* part_size */
	csv_u64(w, 0);	/* fsync */
}

double test_uniform(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (double)(*state >> 11) / (double)(1ULL << 52) - 1.0;
}

int test_pattern_file(const char *path, size_t len)
{
	char *buf = malloc(len ? len : 1);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ok = buf && fd >= 0;

	if (ok) {
		for (size_t i = 0; i < len; i++)
			buf[i] = (char)(i * 131 + 7);
		ok = write(fd, buf, len) == (ssize_t)len;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return ok ? 0 : -1;
}
