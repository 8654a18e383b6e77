// SPDX-License-Identifier: MIT
/*
 * source_change_detected.c - dataset_file_changed (datasets/user_file.c)
 * tells each way a --source file can change after it was hashed, by the
 * first field that differs: replaced by another file, resized, rewritten
 * (mtime), rewritten with its mtime set back (ctime), gone; and an untouched
 * file is unchanged. dataset_from_file refuses what is no regular file or
 * empty.
 */
#include "datasets/dataset.h"
#include "support/testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char path[PATH_MAX];

static void write_file(const char *p, const char *text)
{
	FILE *f = fopen(p, "w");

	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

/* A fresh file hashed as a --source; false when that failed. */
static bool fresh(struct dataset *d)
{
	char why[160];

	write_file(path, "the user's own bytes\n");
	if (dataset_from_file(d, path, why, sizeof(why))) {
		fprintf(stderr, "dataset_from_file: %s\n", why);
		return false;
	}
	return true;
}

/* Waits until the clock has moved past the file's timestamps (coarse). */
static void next_tick(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static void expect_change(const struct dataset *d, int want, const char *what)
{
	char got[160] = "";
	int ret = dataset_file_changed(d, got, sizeof(got));

	CHECK(ret == want);
	if (what && strcmp(got, what)) {
		test_failures++;
		fprintf(stderr, "changed: '%s', expected '%s'\n", got, what);
	}
	test_checks++;
}

static void rewrite_keeping_mtime(void)
{
	struct stat st;
	int fd = open(path, O_WRONLY);

	CHECK(fd >= 0 && fstat(fd, &st) == 0);
	next_tick();
	CHECK(pwrite(fd, "T", 1, 0) == 1);
	CHECK(futimens(fd, (struct timespec[2]){ { .tv_nsec = UTIME_OMIT }, st.st_mtim }) == 0);
	close(fd);
}

int main(void)
{
	char other[PATH_MAX + 8], why[160];
	struct dataset d;

	snprintf(path, sizeof(path), "%s/source", test_tmpdir());
	snprintf(other, sizeof(other), "%s.new", path);

	CHECK(fresh(&d) && d.kind == DATASET_FILE && d.size == 21);
	expect_change(&d, 0, "");

	CHECK(fresh(&d));
	write_file(other, "the user's own bytes\n");
	CHECK(rename(other, path) == 0);
	expect_change(&d, 1, "it was replaced by another file");

	CHECK(fresh(&d));
	CHECK(truncate(path, 5) == 0);
	expect_change(&d, 1, "its size changed");

	CHECK(fresh(&d));
	next_tick();
	write_file(path, "THE user's own bytes\n");
	expect_change(&d, 1, "its mtime changed");

	CHECK(fresh(&d));
	rewrite_keeping_mtime();
	expect_change(&d, 1, "its ctime changed");

	CHECK(fresh(&d));
	CHECK(unlink(path) == 0);
	expect_change(&d, -ENOENT, NULL);

	CHECK(dataset_from_file(&d, test_tmpdir(), why, sizeof(why)) == -EINVAL);
	CHECK(strcmp(why, "is not a regular file") == 0);
	write_file(path, "");
	CHECK(dataset_from_file(&d, path, why, sizeof(why)) == -ENODATA);
	CHECK(strcmp(why, "is empty") == 0);

	test_cleanup_dir();
	return test_report("source_change_detected");
}
