// SPDX-License-Identifier: MIT
/*
 * history_concurrent_add.c - two processes adding to one history at once:
 * while a third holds the write lock both wait (they are still running when
 * it is released, not failed), then both succeed and both runs are in; two
 * processes creating the same new history at once both succeed, one of
 * them making the file, and no temporary file is left beside it.
 */
#include "support/history_synth.h"
#include "support/testutil.h"

#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A child adding dir to db: its pid. It exits with bench history's code. */
static pid_t add_in_child(const char *dir, const char *commit, const char *db, int go_fd)
{
	pid_t pid = fork();
	char c;

	if (pid)
		return pid;
	if (go_fd >= 0 && read(go_fd, &c, 1) != 1)
		_exit(99);
	_exit(hrun("add", dir, "--commit", commit, "--branch", "main", "--db", db, (char *)NULL));
}

static int exit_code(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static long long count_runs(const char *db)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "SELECT COUNT(*) FROM run", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return v;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/*
 * A process holding the write lock of db until a byte comes on release_fd;
 * it writes a byte to locked_fd once it holds it. (Its own process: an
 * SQLite connection must not cross a fork.)
 */
static pid_t hold_lock(const char *db, int locked_fd, int release_fd)
{
	pid_t pid = fork();
	sqlite3 *h = NULL;
	char c;

	if (pid)
		return pid;
	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(h, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK ||
	    write(locked_fd, "l", 1) != 1 || read(release_fd, &c, 1) != 1 ||
	    sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		_exit(1);
	sqlite3_close(h);
	_exit(0);
}

/* Both writers wait for a lock held elsewhere, then both get in. */
static void writers_wait(void)
{
	struct hsynth s = hsynth_default(1);
	const char *db = hsynth_path("h.sqlite"), *a, *b;
	int locked[2], release[2], status;
	pid_t holder, pa, pb;
	char c;

	CHECK_EQ_U64(hrun("add", hsynth_write("first", &s), "--commit", "c0", "--db", db, (char *)NULL), 0);
	s = hsynth_default(2);
	a = hsynth_write("a", &s);
	s = hsynth_default(3);
	b = hsynth_write("b", &s);
	CHECK(pipe(locked) == 0 && pipe(release) == 0);
	holder = hold_lock(db, locked[1], release[0]);
	CHECK(read(locked[0], &c, 1) == 1);
	pa = add_in_child(a, "ca", db, -1);
	pb = add_in_child(b, "cb", db, -1);
	sleep_ms(1500);
	CHECK(waitpid(pa, &status, WNOHANG) == 0);	/* still waiting */
	CHECK(waitpid(pb, &status, WNOHANG) == 0);
	CHECK(write(release[1], "r", 1) == 1);
	CHECK_EQ_U64(exit_code(holder), 0);
	CHECK_EQ_U64(exit_code(pa), 0);
	CHECK_EQ_U64(exit_code(pb), 0);
	CHECK_EQ_U64(count_runs(db), 3);
	close(locked[0]);
	close(locked[1]);
	close(release[0]);
	close(release[1]);
}

/* Two processes make the same new history at once. */
static void creators_race(void)
{
	const char *db = hsynth_path("new.sqlite");
	int go[2];
	pid_t pa, pb;
	DIR *d;
	struct dirent *e;
	int left = 0;

	CHECK(pipe(go) == 0);
	pa = add_in_child(hsynth_path("a"), "ca", db, go[0]);
	pb = add_in_child(hsynth_path("b"), "cb", db, go[0]);
	CHECK(write(go[1], "gg", 2) == 2);	/* both start together */
	close(go[0]);
	close(go[1]);
	CHECK_EQ_U64(exit_code(pa), 0);
	CHECK_EQ_U64(exit_code(pb), 0);
	CHECK_EQ_U64(count_runs(db), 2);
	d = opendir(test_tmpdir());
	while (d && (e = readdir(d)))
		left += strncmp(e->d_name, "new.sqlite", 10) == 0 && strcmp(e->d_name, "new.sqlite");
	if (d)
		closedir(d);
	CHECK_EQ_U64(left, 0);
}

int main(void)
{
	writers_wait();
	creators_race();
	test_cleanup_dir();
	return test_report("history_concurrent_add");
}
