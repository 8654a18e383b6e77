// SPDX-License-Identifier: MIT
/*
 * history_add_idempotent.c - `bench history add`: a folder added twice, or a
 * copy of it, or the same folder with a meta.json written later, is one run;
 * an add of several folders is whole or nothing; meta.json's build type and
 * start are taken, and without it the start is when runs.csv was written;
 * labels are kept; outside a git work tree the commit is the one meta.json
 * names (bench.git_describe, reduced to its commit), else it must be given.
 */
#include "support/history_synth.h"
#include "support/testutil.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utime.h>

static char db[600];

static long long count(const char *sql)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st;
	long long v = -1;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return v;
}

static const char *text(const char *sql)
{
	static char buf[1024];
	sqlite3 *h = NULL;
	sqlite3_stmt *st;

	snprintf(buf, sizeof(buf), "(none)");
	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return buf;
}

static int add(const char *dir, const char *commit)
{
	return hrun("add", dir, "--commit", commit, "--branch", "main", "--db", db, (char *)NULL);
}

static void copy_file(const char *from_dir, const char *to_dir, const char *name)
{
	char from[700], to[700];
	size_t len;
	const char *data;
	FILE *f;

	snprintf(from, sizeof(from), "%s/%s", from_dir, name);
	snprintf(to, sizeof(to), "%s/%s", to_dir, name);
	data = hslurp(from, &len);
	f = fopen(to, "wb");
	CHECK(data && f && fwrite(data, 1, len, f) == len && fclose(f) == 0);
}

static void write_file(const char *dir, const char *name, const char *content)
{
	char path[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f && fputs(content, f) >= 0 && fclose(f) == 0);
}

static void same_folder_once(void)
{
	struct hsynth s = hsynth_default(1);
	const char *a = hsynth_write("a", &s), *copy = hsynth_path("a-copy");

	CHECK_EQ_U64(add(a, "c1"), 0);
	CHECK(strstr(hout, "a: added as run 1 (commit c1, branch main, 4 cases, 20 runs)\n"));
	CHECK_EQ_U64(add(a, "c2"), 0);
	CHECK(strstr(hout, "a: already in the history as run 1 (commit c1): nothing added\n"));
	mkdir(copy, 0755);
	copy_file(a, copy, "runs.csv");
	copy_file(a, copy, "summary.csv");
	copy_file(a, copy, "syscalls.csv");
	write_file(copy, "meta.json", "{\"build_type\": \"Release\"}");
	CHECK_EQ_U64(add(copy, "c3"), 0);
	CHECK(strstr(hout, "already in the history as run 1"));
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM run"), 1);
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM sample"), 20);
	/* read and total of three copies; memcpy has its total in runs.csv */
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM syscall"), 7);
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM outcome"), 4);
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM bcase"), 4);
}

static void whole_or_nothing(void)
{
	struct hsynth s = hsynth_default(2);
	const char *b = hsynth_write("b", &s), *bad;

	CHECK_EQ_U64(hrun("add", hsynth_path("a"), b, "--commit", "c4", "--branch", "main",
			  "--db", db, (char *)NULL), 0);
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM run"), 2);
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM bcase"), 4);
	s = hsynth_default(3);
	hsynth_write("c", &s);
	s = hsynth_default(4);
	bad = hsynth_write("bad", &s);
	write_file(bad, "runs.csv", "workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,part_size,fsync,rep,wall_ns\ncopy,readwrite,random,1,0,warm,0,0,0,1,-5\n");
	CHECK_EQ_U64(hrun("add", hsynth_path("c"), bad, "--commit", "c5", "--db", db, (char *)NULL), 2);
	CHECK(strstr(herr, "bad/runs.csv: line 2: bad rep, wall_ns or syscalls value\n"));
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM run"), 2);
	write_file(bad, "runs.csv", "");
	s = hsynth_default(5);
	s.meta = "{\"build_type\": ";
	CHECK_EQ_U64(add(hsynth_write("badmeta", &s), "c6"), 2);
	CHECK(strstr(herr, "badmeta/meta.json: not a JSON object\n"));
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM run"), 2);
	s = hsynth_default(5);
	s.meta = "{\"schema_version\": 99, \"bench\": {\"build_type\": \"Release\"}}";
	CHECK_EQ_U64(add(hsynth_write("newmeta", &s), "c6"), 2);
	CHECK(strstr(herr, "newmeta/meta.json: schema_version 99 is newer than this bench's 2; use a newer bench\n"));
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM run"), 2);
}

static void metadata_and_labels(void)
{
	struct hsynth s = hsynth_default(6);
	struct utimbuf t = { 1580702706, 1580702706 };	/* 2020-02-03T04:05:06Z */
	char path[700];
	const char *e;

	s.meta = "{\"schema_version\": 1, \"build\": {\"build_type\": \"Release\", \"flags\": [\"-O2\", 3, true, null]},"
		 " \"time\": {\"start_utc\": \"2025-01-02T03:04:05Z\", \"end_utc\": \"2025-01-02T03:05:00Z\"},"
		 " \"note\": \"a \\\"quoted\\\" \\u00e9 value\"}";
	CHECK_EQ_U64(hrun("add", hsynth_write("d", &s), "--commit", "c7", "--branch", "main",
			  "--label", "ci=gha", "--label", "os=debian 12", "--db", db, (char *)NULL), 0);
	CHECK(strcmp(text("SELECT build_type || '|' || started_utc FROM run WHERE commit_sha = 'c7'"),
		     "Release|2025-01-02T03:04:05Z") == 0);
	CHECK(strcmp(text("SELECT meta_json FROM run WHERE commit_sha = 'c7'"), s.meta) == 0);
	CHECK(strcmp(text("SELECT group_concat(key || '=' || value, ';') FROM (SELECT * FROM label ORDER BY key)"),
		     "ci=gha;os=debian 12") == 0);
	s = hsynth_default(7);
	e = hsynth_write("e", &s);
	snprintf(path, sizeof(path), "%s/runs.csv", e);
	CHECK(utime(path, &t) == 0);
	CHECK_EQ_U64(add(e, "c8"), 0);
	CHECK(strcmp(text("SELECT build_type || '|' || started_utc || '|' || (meta_json IS NULL) FROM run WHERE commit_sha = 'c8'"),
		     "|2020-02-03T04:05:06Z|1") == 0);
	CHECK_EQ_U64(hrun("add", e, "--commit", "c9", "--label", "nokey", "--db", db, (char *)NULL), 2);
	CHECK(strcmp(herr, "bench history add: --label 'nokey': not KEY=VALUE\n") == 0);
}

/* Outside git: folder name, written with meta, is added as commit want. */
static void meta_commit(const char *name, uint64_t seed, const char *meta, const char *want)
{
	struct hsynth s = hsynth_default(seed);
	char line[200];

	s.meta = meta;
	hsynth_write(name, &s);
	CHECK_EQ_U64(hrun("add", name, "--db", db, (char *)NULL), 0);
	snprintf(line, sizeof(line), "%s: added as run ", name);
	CHECK(strstr(hout, line) == hout);
	snprintf(line, sizeof(line), " (commit %s, branch unknown, ", want);
	CHECK(strstr(hout, line) != NULL);
}

static void git_or_commit(void)
{
	char cwd[4096], out[64];
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "cd '%s' && git rev-parse HEAD 2>/dev/null", test_tmpdir());
	if (test_run(cmd, out, sizeof(out)) == 0) {
		printf("note: the temporary folder is in a git work tree: the no-git case is not checked\n");
		return;
	}
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(chdir(test_tmpdir()) == 0);
	CHECK_EQ_U64(hrun("add", "a", "--db", db, (char *)NULL), 2);
	CHECK(strcmp(herr, "bench history add: no --commit given, git rev-parse HEAD failed here (not a git work tree?) and a/meta.json names no commit: give it with --commit SHA\n") == 0);
	CHECK_EQ_U64(count("SELECT COUNT(*) FROM run"), 4);
	CHECK_EQ_U64(hrun("add", "c", "--commit", "c10", "--db", db, (char *)NULL), 0);
	CHECK(strstr(hout, "c: added as run 5 (commit c10, branch unknown, 4 cases, 20 runs)\n"));
	meta_commit("f", 8, "{\"bench\": {\"git_describe\": \"80a625b\"}}", "80a625b");
	meta_commit("g", 9, "{\"bench\": {\"git_describe\": \"v0.1-12-g1234abcd-dirty\"}}",
		    "1234abcd-dirty");
	meta_commit("h", 10, "{\"bench\": {\"git_describe\": \"v0.1\"}}", "v0.1");
	CHECK(chdir(cwd) == 0);
}

int main(void)
{
	snprintf(db, sizeof(db), "%s", hsynth_path("h.sqlite"));
	same_folder_once();
	whole_or_nothing();
	metadata_and_labels();
	git_or_commit();
	test_cleanup_dir();
	return test_report("history_add_idempotent");
}
