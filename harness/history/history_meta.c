// SPDX-License-Identifier: MIT
/*
 * history_meta.c - the values the history takes from a results folder's
 * meta.json: its schema_version, the build type (part of the class a run
 * is compared within), the commit and when the run started. The file is
 * kept whole in the database; here SQLite's JSON functions parse it (in a
 * connection of its own, in memory: a folder is read before the history is
 * opened) and json_tree picks the string values whose key, at any depth,
 * is one of the names below, so that the reader does not depend on where
 * the metadata nests them. The commit is the one bench was built from, out
 * of `git describe --always --dirty --tags` (bench.git_describe).
 */
#include "history_internal.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

/* NULL unless the text is JSON; then its type ("object", ...). */
static const char type_sql[] = "SELECT CASE WHEN json_valid(?1) THEN json_type(?1) END";

/* The first build_type and git_describe, the start by the rank of its
 * name, and the top level's schema_version (NULL when not an integer). */
static const char values_sql[] =
	"SELECT"
	" (SELECT value FROM json_tree(?1) WHERE type = 'text' AND key = 'build_type'"
	" ORDER BY id LIMIT 1),"
	" (SELECT value FROM json_tree(?1) WHERE type = 'text' AND key = 'git_describe'"
	" ORDER BY id LIMIT 1),"
	" (SELECT value FROM json_tree(?1) WHERE type = 'text' AND key IN"
	" ('start_utc', 'utc_start', 'started_utc', 'started', 'start')"
	" ORDER BY CASE key WHEN 'start_utc' THEN 0 WHEN 'utc_start' THEN 1"
	" WHEN 'started_utc' THEN 2 WHEN 'started' THEN 3 ELSE 4 END, id LIMIT 1),"
	" CASE json_type(?1, '$.schema_version') WHEN 'integer'"
	" THEN json_extract(?1, '$.schema_version') END";

/* Copies s (NULL: "") into out[n], cut short if need be. */
static void copy_cut(char *out, size_t n, const unsigned char *s)
{
	size_t len = s ? strnlen((const char *)s, n - 1) : 0;

	memcpy(out, s ? (const char *)s : "", len);
	out[len] = '\0';
}

/*
 * The commit of a `git describe` value: the hash after "-g" of
 * "TAG-N-gHASH[-dirty]", else the value itself (a hash, or a tag that names
 * the commit), "-dirty" kept: a build of a changed tree is not the commit.
 * "unknown" (a build outside git) names none: "".
 */
static void describe_commit(char *out, size_t n, const char *describe)
{
	const char *g = strstr(describe, "-g"), *hash;

	while (g && strstr(g + 2, "-g"))
		g = strstr(g + 2, "-g");
	hash = g && strspn(g + 2, "0123456789abcdef") >= 4 ? g + 2 : describe;
	copy_cut(out, n, (const unsigned char *)(strcmp(describe, "unknown") ? hash : ""));
}

/* Prepares sql with text bound as ?1. NULL on an error. */
static sqlite3_stmt *prepare_on(sqlite3 *db, const char *sql, const char *text, size_t len)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(st, 1, text, (int)len, SQLITE_STATIC) != SQLITE_OK) {
		sqlite3_finalize(st);
		return NULL;
	}
	return st;
}

/* Is text a JSON object? 1 yes, 0 no, -ENOMEM when SQLite failed. */
static int is_object(sqlite3 *db, const char *text, size_t len)
{
	sqlite3_stmt *st = prepare_on(db, type_sql, text, len);
	int ret = -ENOMEM;

	if (st && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *type = sqlite3_column_text(st, 0);

		ret = type && strcmp((const char *)type, "object") == 0;
	}
	sqlite3_finalize(st);
	return ret;
}

static int read_values(sqlite3 *db, const char *text, size_t len, struct history_meta *m)
{
	sqlite3_stmt *st = prepare_on(db, values_sql, text, len);
	const unsigned char *describe;
	int ret = -ENOMEM;

	if (!st || sqlite3_step(st) != SQLITE_ROW)
		goto out_finalize;
	copy_cut(m->build_type, sizeof(m->build_type), sqlite3_column_text(st, 0));
	describe = sqlite3_column_text(st, 1);
	if (describe)
		describe_commit(m->commit, sizeof(m->commit), (const char *)describe);
	copy_cut(m->started, sizeof(m->started), sqlite3_column_text(st, 2));
	m->version = sqlite3_column_int64(st, 3);
	ret = 0;
out_finalize:
	sqlite3_finalize(st);
	return ret;
}

int history_meta_parse(const char *text, size_t len, struct history_meta *m)
{
	sqlite3 *db = NULL;
	int ret;

	memset(m, 0, sizeof(*m));
	/* JSON has no raw NUL, and SQLite's text would end at one */
	if (len > INT_MAX || memchr(text, '\0', len))
		return -EINVAL;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
		ret = -ENOMEM;
		goto out_close;
	}
	ret = is_object(db, text, len);
	if (ret > 0)
		ret = read_values(db, text, len, m);
	else if (ret == 0)
		ret = -EINVAL;
out_close:
	sqlite3_close(db);
	return ret;
}
