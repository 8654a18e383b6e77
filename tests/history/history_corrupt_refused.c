// SPDX-License-Identifier: MIT
/*
 * history_corrupt_refused.c - a file that is not a sound copybench history
 * (text, an empty file, another application's SQLite database, a history
 * with a damaged page, one from a newer bench, one whose tables are not the
 * schema's, a folder) is refused by add, check and export with exit 2 and
 * one line saying why, and left byte for byte as it was, with nothing new
 * beside it.
 */
#include "history/history_internal.h"
#include "support/history_synth.h"
#include "support/testutil.h"

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void write_bytes(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	CHECK(f && fwrite(data, 1, len, f) == len && fclose(f) == 0);
}

static void sql_file(const char *path, const char *sql)
{
	sqlite3 *h = NULL;

	CHECK(sqlite3_open(path, &h) == SQLITE_OK);
	CHECK(sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(h);
}

/* A sound history with one run, at path. */
static void history_file(const char *path)
{
	CHECK_EQ_U64(hrun("add", hsynth_path("r"), "--commit", "c1", "--db", path, (char *)NULL), 0);
}

/* The names in the test folder, one string. */
static void listing(char *out, size_t n)
{
	struct dirent **names;
	int count = scandir(test_tmpdir(), &names, NULL, alphasort);
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < count; i++) {
		if (len < n)
			len += (size_t)snprintf(out + len, n - len, "%s/", names[i]->d_name);
		free(names[i]);
	}
	free(names);
}

/* Every command refuses path with exactly why, leaving everything as it was. */
static void refused(const char *name, const char *why)
{
	const char *path = hsynth_path(name), *data;
	char before[4096], after[4096], line[1024];
	char *copy;
	size_t len = 0, len2 = 0;
	struct stat st;
	bool is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);

	data = is_dir ? "" : hslurp(path, &len);
	copy = malloc(len + 1);
	memcpy(copy, data, len);
	listing(before, sizeof(before));
	for (int cmd = 0; cmd < 3; cmd++) {
		static const char *const who[] = { "add", "check", "export" };
		int rc = cmd == 0 ? hrun("add", hsynth_path("r"), "--commit", "c9", "--db", path, (char *)NULL) :
			 cmd == 1 ? hrun("check", "--current", hsynth_path("r"), "--db", path, (char *)NULL) :
			 hrun("export", "--db", path, (char *)NULL);

		snprintf(line, sizeof(line), "bench history %s: %s: %s; left untouched\n", who[cmd], path, why);
		CHECK_EQ_U64(rc, 2);
		if (strcmp(herr, line))
			fprintf(stderr, "%s, %s: stderr '%s', expected '%s'\n", name, who[cmd], herr, line);
		CHECK(strcmp(herr, line) == 0);
		CHECK(hout[0] == '\0');
	}
	data = is_dir ? "" : hslurp(path, &len2);
	CHECK(len2 == len && memcmp(data, copy, len) == 0);
	listing(after, sizeof(after));
	CHECK(strcmp(before, after) == 0);
	free(copy);
}

int main(void)
{
	struct hsynth s = hsynth_default(2);
	char why[512];
	FILE *f;

	hsynth_write("r", &s);
	write_bytes(hsynth_path("text.sqlite"), "results,folder\n1,2\n", 19);
	refused("text.sqlite", "not a copybench history database (not an SQLite file)");
	write_bytes(hsynth_path("empty.sqlite"), "", 0);
	refused("empty.sqlite", "not a copybench history database (an empty file)");
	sql_file(hsynth_path("other.sqlite"), "CREATE TABLE t (a); INSERT INTO t VALUES (1)");
	refused("other.sqlite", "not a copybench history database (an SQLite file with application_id 0x00000000)");
	sql_file(hsynth_path("app.sqlite"), "PRAGMA application_id = 305419896; CREATE TABLE run (id)");
	refused("app.sqlite", "not a copybench history database (an SQLite file with application_id 0x12345678)");

	history_file(hsynth_path("newer.sqlite"));
	sql_file(hsynth_path("newer.sqlite"), "PRAGMA user_version = 99");
	snprintf(why, sizeof(why), "history schema version 99 is newer than this bench's %d; use a newer bench",
		 HISTORY_SCHEMA_VERSION);
	refused("newer.sqlite", why);

	history_file(hsynth_path("damaged.sqlite"));
	f = fopen(hsynth_path("damaged.sqlite"), "r+b");
	CHECK(f && fseek(f, 4096, SEEK_SET) == 0 && fwrite("\xff\xff\xff\xff\xff\xff\xff\xff", 1, 8, f) == 8);
	if (f)
		fclose(f);
	refused("damaged.sqlite", "the history database is corrupt (quick_check: *** in database main *** Page 2: btreeInitPage() returns error code 11)");

	history_file(hsynth_path("columns.sqlite"));
	sql_file(hsynth_path("columns.sqlite"), "ALTER TABLE sample DROP COLUMN rel");
	snprintf(why, sizeof(why), "the history database is corrupt (table sample has columns (run_id,case_id,rep,wall_ns), schema version %d has (run_id,case_id,rep,wall_ns,rel))", HISTORY_SCHEMA_VERSION);
	refused("columns.sqlite", why);

	mkdir(hsynth_path("folder.sqlite"), 0755);
	refused("folder.sqlite", "not a copybench history database (not a regular file)");
	test_cleanup_dir();
	return test_report("history_corrupt_refused");
}
