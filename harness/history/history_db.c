// SPDX-License-Identifier: MIT
/*
 * history_db.c - the history's SQLite file: its schema and migrations, and
 * how it is opened so that nothing but a sound copybench history is ever
 * written to.
 *
 * The schema has a version (PRAGMA user_version) and the file an
 * application id (PRAGMA application_id). Every version is one migration,
 * an SQL script from the version before; a new file is made by running them
 * all, so the migration path is the creation path. A file is checked
 * through a read-only connection before any write: a file that is not
 * SQLite, a SQLite file of another application, one from a newer bench, a
 * damaged one (quick_check) or one whose tables are not the schema's is
 * refused with one line, untouched. Writers take the write lock at the
 * start of their transaction (BEGIN IMMEDIATE) and wait for each other
 * (busy timeout) instead of failing; the rollback journal keeps the file
 * self-contained for a CI cache.
 */
#include "history_internal.h"
#include "lib/fsinfo.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *history_case_col(int i)
{
	return columns_id((enum col_id)i)->name;
}

/* The next name of a comma-separated list (skipping "b." and blanks) into
 * out; false at the end. */
static bool next_name(const char **p, char *out, size_t n)
{
	size_t len;

	*p += strspn(*p, " ,");
	if (!**p)
		return false;
	if (strncmp(*p, "b.", 2) == 0)
		*p += 2;
	len = strcspn(*p, " ,");
	snprintf(out, n, "%.*s", (int)len, *p);
	*p += len;
	return true;
}

static bool list_agrees(const char *list, const char *what, char *why, size_t n)
{
	const char *p = list;
	char name[64];
	int i = 0;

	for (; next_name(&p, name, sizeof(name)); i++) {
		if (i >= COL_NIDS || strcmp(name, history_case_col(i))) {
			snprintf(why, n, "%s names '%s' where the column table has '%s'", what, name,
				 i < COL_NIDS ? history_case_col(i) : "nothing");
			return false;
		}
	}
	if (i < COL_NIDS) {
		snprintf(why, n, "%s lacks the identifying column '%s'", what, history_case_col(i));
		return false;
	}
	return true;
}

/* HISTORY_CASE_PARAMS is ?1 to ?COL_NIDS. */
static bool params_agree(char *why, size_t n)
{
	const char *p = HISTORY_CASE_PARAMS;
	char name[64], want[16];
	int i = 0;

	for (; next_name(&p, name, sizeof(name)); i++) {
		snprintf(want, sizeof(want), "?%d", i + 1);
		if (strcmp(name, want))
			break;
	}
	if (i == COL_NIDS && !*p)
		return true;
	snprintf(why, n, "HISTORY_CASE_PARAMS has not one parameter per identifying column (%d)",
		 COL_NIDS);
	return false;
}

bool history_case_cols_agree(char *why, size_t n)
{
	return list_agrees(HISTORY_CASE_COLS, "HISTORY_CASE_COLS", why, n) &&
	       list_agrees(HISTORY_CASE_COLS_B, "HISTORY_CASE_COLS_B", why, n) &&
	       params_agree(why, n);
}

/* ------------------------------------------------------------ schema -- */

/* bcase's identifying columns in versions 1 and 2, and 3 (history: never changes). */
#define HISTORY_V1_CASE_COLS "workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,part_size,fsync"
#define HISTORY_V3_CASE_COLS HISTORY_V1_CASE_COLS ",threads,queue_depth"

/* migration[v - 1] takes a file from version v - 1 to v. */
static const char *const migration[HISTORY_SCHEMA_VERSION] = {
	/* v1: runs and their labels, cases, per-run times, system calls, and
	 * what became of each case (unavailable ones have no runs). */
	"CREATE TABLE run (id INTEGER PRIMARY KEY, content_hash TEXT NOT NULL UNIQUE,"
	" folder TEXT NOT NULL, commit_sha TEXT NOT NULL, branch TEXT NOT NULL,"
	" started_utc TEXT NOT NULL, added_utc TEXT NOT NULL, host TEXT NOT NULL,"
	" kernel TEXT NOT NULL, fs_type TEXT NOT NULL, cpu_model TEXT NOT NULL);"
	"CREATE TABLE label (run_id INTEGER NOT NULL REFERENCES run(id), key TEXT NOT NULL,"
	" value TEXT NOT NULL, PRIMARY KEY (run_id, key));"
	"CREATE TABLE bcase (id INTEGER PRIMARY KEY, workload TEXT NOT NULL,"
	" strategy TEXT NOT NULL, dataset TEXT NOT NULL, size_bytes TEXT NOT NULL,"
	" buffer_bytes TEXT NOT NULL, cache TEXT NOT NULL, batch_lines TEXT NOT NULL,"
	" part_size TEXT NOT NULL, fsync TEXT NOT NULL, UNIQUE (" HISTORY_V1_CASE_COLS "));"
	"CREATE TABLE sample (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase(id), rep INTEGER NOT NULL,"
	" wall_ns REAL NOT NULL, rel REAL, PRIMARY KEY (run_id, case_id, rep));"
	"CREATE TABLE syscall (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase(id), name TEXT NOT NULL,"
	" count INTEGER NOT NULL, PRIMARY KEY (run_id, case_id, name));"
	"CREATE TABLE outcome (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase(id), status TEXT NOT NULL,"
	" class TEXT NOT NULL, verified_runs INTEGER NOT NULL, PRIMARY KEY (run_id, case_id));"
	"CREATE INDEX sample_by_case ON sample (case_id, run_id);",
	/* v2: the build type, which joins host, kernel and filesystem in the
	 * class a run is compared within, and meta.json kept whole. */
	"ALTER TABLE run ADD COLUMN build_type TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE run ADD COLUMN meta_json TEXT;",
	/* v3: threads and queue_depth identify a case. A UNIQUE constraint
	 * cannot be altered, so bcase is made anew, with its children (which
	 * point at the new table, renamed in the end: SQLite rewrites their
	 * references); earlier cases took neither knob: '0'. */
	"CREATE TABLE bcase3 (id INTEGER PRIMARY KEY, workload TEXT NOT NULL,"
	" strategy TEXT NOT NULL, dataset TEXT NOT NULL, size_bytes TEXT NOT NULL,"
	" buffer_bytes TEXT NOT NULL, cache TEXT NOT NULL, batch_lines TEXT NOT NULL,"
	" part_size TEXT NOT NULL, fsync TEXT NOT NULL, threads TEXT NOT NULL DEFAULT '0',"
	" queue_depth TEXT NOT NULL DEFAULT '0', UNIQUE (" HISTORY_V3_CASE_COLS "));"
	"INSERT INTO bcase3 (id, " HISTORY_V1_CASE_COLS ") SELECT id, " HISTORY_V1_CASE_COLS " FROM bcase;"
	"CREATE TABLE sample3 (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase3(id), rep INTEGER NOT NULL,"
	" wall_ns REAL NOT NULL, rel REAL, PRIMARY KEY (run_id, case_id, rep));"
	"INSERT INTO sample3 SELECT run_id, case_id, rep, wall_ns, rel FROM sample;"
	"CREATE TABLE syscall3 (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase3(id), name TEXT NOT NULL,"
	" count INTEGER NOT NULL, PRIMARY KEY (run_id, case_id, name));"
	"INSERT INTO syscall3 SELECT run_id, case_id, name, count FROM syscall;"
	"CREATE TABLE outcome3 (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase3(id), status TEXT NOT NULL,"
	" class TEXT NOT NULL, verified_runs INTEGER NOT NULL, PRIMARY KEY (run_id, case_id));"
	"INSERT INTO outcome3 SELECT run_id, case_id, status, class, verified_runs FROM outcome;"
	"DROP TABLE sample; DROP TABLE syscall; DROP TABLE outcome; DROP TABLE bcase;"
	"ALTER TABLE bcase3 RENAME TO bcase; ALTER TABLE sample3 RENAME TO sample;"
	"ALTER TABLE syscall3 RENAME TO syscall; ALTER TABLE outcome3 RENAME TO outcome;"
	"CREATE INDEX sample_by_case ON sample (case_id, run_id);",
	/* v4: files and file_size identify a case (trees), and a --command
	 * row's template (with its name, in strategy); made anew as in v3;
	 * earlier cases copied no tree ('0') and ran no command (''). */
	"CREATE TABLE bcase4 (id INTEGER PRIMARY KEY, workload TEXT NOT NULL,"
	" strategy TEXT NOT NULL, dataset TEXT NOT NULL, size_bytes TEXT NOT NULL,"
	" buffer_bytes TEXT NOT NULL, cache TEXT NOT NULL, batch_lines TEXT NOT NULL,"
	" part_size TEXT NOT NULL, fsync TEXT NOT NULL, threads TEXT NOT NULL DEFAULT '0',"
	" queue_depth TEXT NOT NULL DEFAULT '0', files TEXT NOT NULL DEFAULT '0',"
	" file_size TEXT NOT NULL DEFAULT '0', command TEXT NOT NULL DEFAULT '',"
	" UNIQUE (" HISTORY_CASE_COLS "));"
	"INSERT INTO bcase4 (id, " HISTORY_V3_CASE_COLS ") SELECT id, " HISTORY_V3_CASE_COLS " FROM bcase;"
	"CREATE TABLE sample4 (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase4(id), rep INTEGER NOT NULL,"
	" wall_ns REAL NOT NULL, rel REAL, PRIMARY KEY (run_id, case_id, rep));"
	"INSERT INTO sample4 SELECT run_id, case_id, rep, wall_ns, rel FROM sample;"
	"CREATE TABLE syscall4 (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase4(id), name TEXT NOT NULL,"
	" count INTEGER NOT NULL, PRIMARY KEY (run_id, case_id, name));"
	"INSERT INTO syscall4 SELECT run_id, case_id, name, count FROM syscall;"
	"CREATE TABLE outcome4 (run_id INTEGER NOT NULL REFERENCES run(id),"
	" case_id INTEGER NOT NULL REFERENCES bcase4(id), status TEXT NOT NULL,"
	" class TEXT NOT NULL, verified_runs INTEGER NOT NULL, PRIMARY KEY (run_id, case_id));"
	"INSERT INTO outcome4 SELECT run_id, case_id, status, class, verified_runs FROM outcome;"
	"DROP TABLE sample; DROP TABLE syscall; DROP TABLE outcome; DROP TABLE bcase;"
	"ALTER TABLE bcase4 RENAME TO bcase; ALTER TABLE sample4 RENAME TO sample;"
	"ALTER TABLE syscall4 RENAME TO syscall; ALTER TABLE outcome4 RENAME TO outcome;"
	"CREATE INDEX sample_by_case ON sample (case_id, run_id);",
};

#define RUN_V2 RUN_V1 ",build_type,meta_json"
#define RUN_V1 "id,content_hash,folder,commit_sha,branch,started_utc,added_utc,host,kernel,fs_type,cpu_model"

#define SAMPLE_COLS "run_id,case_id,rep,wall_ns,rel"
#define SYSCALL_COLS "run_id,case_id,name,count"
#define OUTCOME_COLS "run_id,case_id,status,class,verified_runs"

/* The columns of every table, as they are at each version. */
static const struct {
	const char *name;
	const char *cols[HISTORY_SCHEMA_VERSION];
} schema[] = {
	{ "run", { RUN_V1, RUN_V2, RUN_V2, RUN_V2 } },
	{ "label", { "run_id,key,value", "run_id,key,value", "run_id,key,value", "run_id,key,value" } },
	{ "bcase", { "id," HISTORY_V1_CASE_COLS, "id," HISTORY_V1_CASE_COLS, "id," HISTORY_V3_CASE_COLS,
		     "id," HISTORY_CASE_COLS } },
	{ "sample", { SAMPLE_COLS, SAMPLE_COLS, SAMPLE_COLS, SAMPLE_COLS } },
	{ "syscall", { SYSCALL_COLS, SYSCALL_COLS, SYSCALL_COLS, SYSCALL_COLS } },
	{ "outcome", { OUTCOME_COLS, OUTCOME_COLS, OUTCOME_COLS, OUTCOME_COLS } },
};

/* ---------------------------------------------------------- messages -- */

int history_db_fail(struct history_db *h, const struct history_io *io, const char *what)
{
	fprintf(io->err, "%s: %s: %s: %s\n", io->who, h->path, what, sqlite3_errmsg(h->db));
	return -1;
}

/* The one line of a file refused: why, and that it was not touched. -1. */
__attribute__((format(printf, 3, 4)))
static int refuse(const struct history_io *io, const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(io->err, "%s: %s: ", io->who, path);
	va_start(ap, fmt);
	vfprintf(io->err, fmt, ap);
	va_end(ap);
	fputs("; left untouched\n", io->err);
	return -1;
}

int history_db_exec(struct history_db *h, const char *sql, const struct history_io *io)
{
	if (sqlite3_exec(h->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return history_db_fail(h, io, "writing failed");
	return 0;
}

sqlite3_stmt *history_db_prepare(struct history_db *h, const char *sql,
				 const struct history_io *io)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(h->db, sql, -1, &st, NULL) != SQLITE_OK) {
		history_db_fail(h, io, "reading failed");
		return NULL;
	}
	return st;
}

/* ------------------------------------------------------------ checks -- */

/* A PRAGMA's integer value. SQLITE_OK or sqlite's error code. */
static int pragma_int(sqlite3 *db, const char *sql, int *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* The columns of a table, comma-joined in order ("" when there is none). */
static int table_columns(sqlite3 *db, const char *table, char *out, size_t n)
{
	sqlite3_stmt *st;
	size_t len = 0;
	int rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1)", -1, &st, NULL);

	out[0] = '\0';
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && len < n)
		len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "," : "",
					(const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* quick_check's first line: "ok" for a sound file. */
static int quick_check(sqlite3 *db, char *out, size_t n)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
		for (char *p = out; (p = strchr(p, '\n'));)
			*p = ' ';	/* the refusal is one line */
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Refuses a file sqlite could not read: what it is, in words. -1. */
static int refuse_unreadable(const struct history_io *io, const char *path,
			     sqlite3 *db, int rc)
{
	if (rc == SQLITE_NOTADB)
		return refuse(io, path, "not a copybench history database (not an SQLite file)");
	if (rc == SQLITE_CORRUPT)
		return refuse(io, path, "the history database is corrupt (%s)", sqlite3_errmsg(db));
	return refuse(io, path, "cannot read the history database (%s)", sqlite3_errmsg(db));
}

/* Whether every table is the schema's at version v; why filled if not. */
static int schema_matches(sqlite3 *db, int v, char *why, size_t n)
{
	char cols[1024];
	int rc;

	for (size_t i = 0; i < sizeof(schema) / sizeof(schema[0]); i++) {
		rc = table_columns(db, schema[i].name, cols, sizeof(cols));
		if (rc != SQLITE_OK)
			return rc;
		if (strcmp(cols, schema[i].cols[v - 1])) {
			snprintf(why, n, "table %s has columns (%s), schema version %d has (%s)",
				 schema[i].name, cols, v, schema[i].cols[v - 1]);
			return SQLITE_MISMATCH;
		}
	}
	return SQLITE_OK;
}

/* The checks of an open file: id, version, soundness, tables. 0 or -1. */
static int check_file(sqlite3 *db, const char *path, int *version,
		      const struct history_io *io)
{
	char text[512] = "";
	int app = 0, rc;

	rc = pragma_int(db, "PRAGMA application_id", &app);
	if (rc == SQLITE_OK)
		rc = pragma_int(db, "PRAGMA user_version", version);
	if (rc != SQLITE_OK)
		return refuse_unreadable(io, path, db, rc);
	if ((uint32_t)app != HISTORY_APP_ID)
		return refuse(io, path, "not a copybench history database (an SQLite file with application_id 0x%08x)", (uint32_t)app);
	if (*version > HISTORY_SCHEMA_VERSION)
		return refuse(io, path, "history schema version %d is newer than this bench's %d; use a newer bench", *version, HISTORY_SCHEMA_VERSION);
	if (*version < 1)
		return refuse(io, path, "the history database is corrupt (no schema version)");
	rc = quick_check(db, text, sizeof(text));
	if (rc != SQLITE_OK)
		return refuse_unreadable(io, path, db, rc);
	if (strcmp(text, "ok"))
		return refuse(io, path, "the history database is corrupt (quick_check: %s)", text);
	rc = schema_matches(db, *version, text, sizeof(text));
	if (rc == SQLITE_MISMATCH)
		return refuse(io, path, "the history database is corrupt (%s)", text);
	if (rc != SQLITE_OK)
		return refuse_unreadable(io, path, db, rc);
	return 0;
}

/* Opens path read-only and checks it. 0 with *version, or -1. */
static int check_read_only(const char *path, int *version, const struct history_io *io)
{
	sqlite3 *db = NULL;
	int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);

	if (rc != SQLITE_OK) {
		fprintf(io->err, "%s: %s: cannot open (%s)\n", io->who, path,
			db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, HISTORY_BUSY_MS);
	rc = check_file(db, path, version, io);
	sqlite3_close(db);
	return rc;
}

/* ------------------------------------------------------- migrations -- */

/* Runs the migrations from version `from` to `to` in the open transaction. */
static int migrate(sqlite3 *db, int from, int to)
{
	char sql[64];

	for (int v = from; v < to; v++)
		if (sqlite3_exec(db, migration[v], NULL, NULL, NULL) != SQLITE_OK)
			return -1;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", to);
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int history_db_begin(struct history_db *h, const struct history_io *io)
{
	int version = 0;

	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return history_db_fail(h, io, "cannot take the write lock");
	/* Another bench may have migrated the file since it was checked. */
	if (pragma_int(h->db, "PRAGMA user_version", &version) != SQLITE_OK)
		goto out_rollback;
	if (version > HISTORY_SCHEMA_VERSION) {
		history_db_rollback(h);
		return refuse(io, h->path, "history schema version %d is newer than this bench's %d; use a newer bench", version, HISTORY_SCHEMA_VERSION);
	}
	if (version < h->version && migrate(h->db, version, h->version))
		goto out_rollback;
	return 0;
out_rollback:
	history_db_fail(h, io, "migrating the schema failed");
	history_db_rollback(h);
	return -1;
}

int history_db_commit(struct history_db *h, const struct history_io *io)
{
	if (sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	history_db_fail(h, io, "commit failed");
	history_db_rollback(h);
	return -1;
}

void history_db_rollback(struct history_db *h)
{
	if (!sqlite3_get_autocommit(h->db))
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
}

/* -------------------------------------------------------- creation -- */

/* Writes a new history of the given version at tmp. 0 or -1. */
static int create_at(const char *tmp, int version, const struct history_io *io)
{
	sqlite3 *db = NULL;
	char sql[64];
	int rc = sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE, NULL);

	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", (int)HISTORY_APP_ID);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = migrate(db, 0, version) ? SQLITE_ERROR : SQLITE_OK;
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		fprintf(io->err, "%s: %s: cannot create the history database (%s)\n", io->who,
			tmp, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

/*
 * Makes a new history at path: written whole under a temporary name, then
 * linked to path, which fails if another bench made it first (then theirs
 * is used). 0 or -1.
 */
static int create_file(const char *path, int version, const struct history_io *io)
{
	char tmp[PATH_MAX], dir[PATH_MAX], made[PATH_MAX];
	mode_t mask = umask(0);
	char *slash;
	int fd, err, ret = -1;

	umask(mask);
	made[0] = '\0';
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		err = fs_make_dirs(dir, made, sizeof(made));
		if (err < 0) {
			fprintf(io->err, "%s: %s: %s\n", io->who, dir, strerror(-err));
			return -1;
		}
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new-XXXXXX", path) >= sizeof(tmp) ||
	    (fd = mkstemp(tmp)) < 0) {
		fprintf(io->err, "%s: %s: cannot create (%s)\n", io->who, path, strerror(errno));
		goto out_unmake_dirs;
	}
	fchmod(fd, 0666 & ~mask);
	close(fd);
	if (create_at(tmp, version, io))
		goto out_unlink;
	if (link(tmp, path) && errno != EEXIST) {
		fprintf(io->err, "%s: %s: cannot create (%s)\n", io->who, path, strerror(errno));
		goto out_unlink;
	}
	ret = 0;
out_unlink:
	unlink(tmp);
out_unmake_dirs:
	if (ret)
		fs_unmake_dirs(dir, made);
	return ret;
}

/* ------------------------------------------------------------- open -- */

/* The read-write connection to a checked file. 0 or -1. */
static int open_checked(struct history_db *h, const struct history_io *io)
{
	if (sqlite3_open_v2(h->path, &h->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		history_db_fail(h, io, "cannot open");
		history_db_close(h);
		return -1;
	}
	sqlite3_busy_timeout(h->db, HISTORY_BUSY_MS);
	if (history_db_exec(h, "PRAGMA foreign_keys = ON", io)) {
		history_db_close(h);
		return -1;
	}
	return 0;
}

static int open_at(struct history_db *h, const char *path, bool create,
		   int target, const struct history_io *io)
{
	struct stat st;
	int version = 0;
	char why[160];

	memset(h, 0, sizeof(*h));
	h->path = path;
	if (!history_case_cols_agree(why, sizeof(why)))
		return refuse(io, path, "this bench is inconsistent: %s", why);
	if (stat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode))
			return refuse(io, path, "not a copybench history database (not a regular file)");
		if (st.st_size == 0)
			return refuse(io, path, "not a copybench history database (an empty file)");
	} else if (errno == ENOENT && create) {
		if (create_file(path, target, io))
			return -1;
	} else if (errno == ENOENT) {
		fprintf(io->err, "%s: %s: no history database here (bench history add makes one)\n", io->who, path);
		return -1;
	} else {
		fprintf(io->err, "%s: %s: %s\n", io->who, path, strerror(errno));
		return -1;
	}
	if (check_read_only(path, &version, io) || open_checked(h, io))
		return -1;
	h->version = target;
	if (version < target && (history_db_begin(h, io) || history_db_commit(h, io))) {
		history_db_close(h);
		return -1;
	}
	return 0;
}

int history_db_open(struct history_db *h, const char *path, bool create,
		    const struct history_io *io)
{
	return open_at(h, path, create, HISTORY_SCHEMA_VERSION, io);
}

int history_db_open_version(struct history_db *h, const char *path,
			    int version, const struct history_io *io)
{
	return open_at(h, path, true, version, io);
}

void history_db_close(struct history_db *h)
{
	if (h->db)
		sqlite3_close(h->db);
	h->db = NULL;
}
