// SPDX-License-Identifier: MIT
/*
 * history_schema_migration.c - a new history is created at the current
 * schema version with copybench's application id and exactly the schema's
 * tables; a file of the previous version (v1) keeps its runs when it is
 * migrated (the new columns get their defaults) and takes new runs; a file
 * from a newer bench is refused, byte for byte untouched; the schema's case
 * columns are, name by name, the identifying columns of the column table
 * (v3 added threads and queue_depth, rebuilding the cases and their children).
 */
#include "history/history_internal.h"
#include "results/columns.h"
#include "support/history_synth.h"
#include "support/testutil.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

static sqlite3 *open_raw(const char *path)
{
	sqlite3 *db = NULL;

	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK);
	return db;
}

static long long query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -2;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static const char *query_text(sqlite3 *db, const char *sql)
{
	static char buf[1024];
	sqlite3_stmt *st;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return "(error)";
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return buf;
}

/* "id," and the column table's identifying columns, in order. */
static const char *bcase_columns(void)
{
	static char buf[512];
	size_t len = (size_t)snprintf(buf, sizeof(buf), "id");

	for (int i = 0; i < COL_NIDS; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, ",%s",
					columns_id((enum col_id)i)->name);
	return buf;
}

static void schema_columns_are_the_ids(void)
{
	char why[160] = "";

	CHECK(history_case_cols_agree(why, sizeof(why)));
	CHECK(why[0] == '\0');
	for (int i = 0; i < COL_NIDS; i++)
		CHECK(strcmp(history_case_col(i), columns_id((enum col_id)i)->name) == 0);
}

static void creation(void)
{
	struct hsynth s = hsynth_default(1);
	const char *db = hsynth_path("new/sub/h.sqlite");
	sqlite3 *raw;

	CHECK_EQ_U64(hrun("add", hsynth_write("r1", &s), "--commit", "c1", "--branch", "main",
			  "--db", db, (char *)NULL), 0);
	raw = open_raw(db);
	CHECK_EQ_U64(query_int(raw, "PRAGMA user_version"), HISTORY_SCHEMA_VERSION);
	CHECK_EQ_U64(query_int(raw, "PRAGMA application_id"), HISTORY_APP_ID);
	CHECK(strcmp(query_text(raw, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name)"),
		     "bcase,label,outcome,run,sample,syscall") == 0);
	CHECK(strcmp(query_text(raw, "SELECT group_concat(name, ',') FROM pragma_table_info('run')"),
		     "id,content_hash,folder,commit_sha,branch,started_utc,added_utc,host,kernel,fs_type,cpu_model,build_type,meta_json") == 0);
	CHECK_EQ_U64(query_int(raw, "SELECT COUNT(*) FROM sample"), 4 * 5);
	/* The table of cases has exactly the column table's identifying columns. */
	CHECK(strcmp(query_text(raw, "SELECT group_concat(name, ',') FROM pragma_table_info('bcase')"),
		     bcase_columns()) == 0);
	sqlite3_close(raw);
}

/* A v1 file with one run in it, as the previous bench wrote it. */
static void make_v1(const char *db)
{
	struct history_io io = { "test", stdout, stderr };
	struct history_db h;
	sqlite3 *raw;

	CHECK(history_db_open_version(&h, db, 1, &io) == 0);
	history_db_close(&h);
	raw = open_raw(db);
	CHECK_EQ_U64(query_int(raw, "PRAGMA user_version"), 1);
	CHECK(strcmp(query_text(raw, "SELECT group_concat(name, ',') FROM pragma_table_info('run')"),
		     "id,content_hash,folder,commit_sha,branch,started_utc,added_utc,host,kernel,fs_type,cpu_model") == 0);
	CHECK(sqlite3_exec(raw,
		"INSERT INTO run VALUES (1, 'oldhash', 'old', 'c0', 'main', '2024-01-01T00:00:00Z',"
		" '2024-01-01T00:00:01Z', 'vm', '6.1.0-test', 'ext4', 'Test CPU');"
		"INSERT INTO bcase VALUES (1, 'copy', 'readwrite', 'random', '1048576', '131072',"
		" 'warm', '0', '0', '0');"
		"INSERT INTO sample VALUES (1, 1, 1, 1000000, 10.0);",
		NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(raw);
}

static void migration(void)
{
	struct hsynth s = hsynth_default(2);
	const char *db = hsynth_path("v1.sqlite");
	sqlite3 *raw;

	make_v1(db);
	CHECK_EQ_U64(hrun("add", hsynth_write("r2", &s), "--commit", "c2", "--branch", "main",
			  "--db", db, (char *)NULL), 0);
	raw = open_raw(db);
	CHECK_EQ_U64(query_int(raw, "PRAGMA user_version"), HISTORY_SCHEMA_VERSION);
	CHECK_EQ_U64(query_int(raw, "SELECT COUNT(*) FROM run"), 2);
	/* v3 made the cases anew: the old one kept its id and took '0' knobs,
	 * its runs' samples still point at it, and the keys still hold. */
	CHECK(strcmp(query_text(raw, "SELECT group_concat(name, ',') FROM pragma_table_info('bcase')"),
		     bcase_columns()) == 0);
	CHECK(strcmp(query_text(raw, "SELECT strategy || '|' || threads || '|' || queue_depth || '|' || command FROM bcase WHERE id = 1"),
		     "readwrite|0|0|") == 0);
	CHECK_EQ_U64(query_int(raw, "SELECT COUNT(*) FROM pragma_foreign_key_check"), 0);
	CHECK(sqlite3_exec(raw, "PRAGMA foreign_keys = ON;"
		"INSERT INTO sample VALUES (1, 999, 1, 1000000, 10.0);", NULL, NULL, NULL) != SQLITE_OK);
	/* Two cases that differ only in threads, or in a command's template,
	 * are two cases. */
	CHECK(sqlite3_exec(raw, "INSERT INTO bcase (workload, strategy, dataset, size_bytes,"
		" buffer_bytes, cache, batch_lines, part_size, fsync, threads, queue_depth, command)"
		" VALUES ('copy', 'readwrite', 'random', '1048576', '131072', 'warm', '0', '0', '0', '0', '0', 'cp {src} {dst}')",
		NULL, NULL, NULL) == SQLITE_OK);
	CHECK(sqlite3_exec(raw, "INSERT INTO bcase (workload, strategy, dataset, size_bytes,"
		" buffer_bytes, cache, batch_lines, part_size, fsync, threads, queue_depth)"
		" VALUES ('copy', 'readwrite', 'random', '1048576', '131072', 'warm', '0', '0', '0', '4', '0')",
		NULL, NULL, NULL) == SQLITE_OK);
	CHECK(strcmp(query_text(raw, "SELECT commit_sha || '|' || build_type || '|' || (meta_json IS NULL) FROM run WHERE id = 1"),
		     "c0||1") == 0);
	CHECK_EQ_U64(query_int(raw, "SELECT COUNT(*) FROM sample WHERE run_id = 1"), 1);
	CHECK_EQ_U64(query_int(raw, "SELECT COUNT(*) FROM sample WHERE run_id = 2"), 20);
	sqlite3_close(raw);
	/* A reading command migrates too. */
	db = hsynth_path("v1b.sqlite");
	make_v1(db);
	CHECK_EQ_U64(hrun("export", "--table", "runs", "--db", db, (char *)NULL), 0);
	CHECK(strstr(hout, "\n1,c0,main,2024-01-01T00:00:00Z,vm,6.1.0-test,ext4,Test CPU,,"));
	raw = open_raw(db);
	CHECK_EQ_U64(query_int(raw, "PRAGMA user_version"), HISTORY_SCHEMA_VERSION);
	sqlite3_close(raw);
}

static void newer_refused(void)
{
	const char *db = hsynth_path("v1.sqlite");
	char *before;
	size_t len, len2;
	const char *now;
	sqlite3 *raw = open_raw(db);

	char sql[64], line[160];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", HISTORY_SCHEMA_VERSION + 1);
	snprintf(line, sizeof(line), "history schema version %d is newer than this bench's %d; use a newer bench; left untouched\n",
		 HISTORY_SCHEMA_VERSION + 1, HISTORY_SCHEMA_VERSION);
	CHECK(sqlite3_exec(raw, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(raw);
	now = hslurp(db, &len);
	before = malloc(len);
	memcpy(before, now, len);
	CHECK_EQ_U64(hrun("add", hsynth_path("r1"), "--commit", "c3", "--db", db, (char *)NULL), 2);
	CHECK(strstr(herr, line));
	now = hslurp(db, &len2);
	CHECK(len2 == len && memcmp(now, before, len) == 0);
	free(before);
}

int main(void)
{
	schema_columns_are_the_ids();
	creation();
	migration();
	newer_refused();
	test_cleanup_dir();
	return test_report("history_schema_migration");
}
