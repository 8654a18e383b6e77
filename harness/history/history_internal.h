/* SPDX-License-Identifier: MIT */
/*
 * history_internal.h - the pieces of `bench history` shared by its files:
 *   history_db.c       opening, checking, creating and migrating the database
 *   history_folder.c   a results folder read for the history (hash, environment)
 *   history_meta.c     the few values read from a folder's meta.json
 *   history_add.c      `bench history add`
 *   history_series.c   per case, the medians of each commit, in commit order
 *   history_check.c    `bench history check`
 *   history_changes.c  change points (Pettitt's test, binary segmentation)
 *   history_plot.c     `bench history plot`
 *   history_export.c   `bench history export`
 * Private to harness/history/: another room uses history.h.
 */
#ifndef COPYBENCH_HISTORY_INTERNAL_H
#define COPYBENCH_HISTORY_INTERNAL_H

#ifndef COPYBENCH_ROOM_HISTORY
#error "history_internal.h is private to harness/history/; include history.h"
#endif

#include "history.h"
#include "check/checkset.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The schema this bench writes; older files are migrated up to it. */
#define HISTORY_SCHEMA_VERSION 4
/* PRAGMA application_id of a copybench history: "cbhi". */
#define HISTORY_APP_ID 0x63626869
/* How long a writer waits for another one before giving up. */
#define HISTORY_BUSY_MS 60000
/*
 * The identifying columns of table bcase, as the SQL of the queries names
 * them: those of the column table (results/columns.c), in order. Opening a
 * history checks them name by name against that table (history_db.c), and
 * a new identifying column needs a migration there.
 */
#define HISTORY_CASE_COLS "workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,part_size,fsync,threads,queue_depth,files,file_size,command"
#define HISTORY_CASE_COLS_B "b.workload, b.strategy, b.dataset, b.size_bytes, b.buffer_bytes, b.cache, b.batch_lines, b.part_size, b.fsync, b.threads, b.queue_depth, b.files, b.file_size, b.command"
/* One parameter per identifying column, for the values of a case. */
#define HISTORY_CASE_PARAMS "?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14"
/* The runs of one class (and branch, when :branch is not NULL), as r. */
#define HISTORY_CLASS_WHERE "r.host = :host AND r.kernel = :kernel AND r.fs_type = :fs AND r.build_type = :build AND (:branch IS NULL OR r.branch = :branch)"

struct history_db {
	sqlite3 *db;
	const char *path;
	int version;		/* user_version when opened */
};

/* ------------------------------------------------------ history_db.c -- */

/*
 * Opens the history at path. An existing file is first opened read-only and
 * checked (application_id, schema version, tables, quick_check); a file that
 * is not a copybench history, is corrupt or comes from a newer bench is
 * refused with one line on err and never modified. A missing file is
 * created (create true; else refused) whole, under a temporary name and
 * linked into place, so no other process ever sees it half made. An older
 * schema is migrated. 0, or -1 after saying why.
 */
int history_db_open(struct history_db *h, const char *path, bool create,
		    const struct history_io *io);
/* The same, creating a missing file at schema version (for tests). */
int history_db_open_version(struct history_db *h, const char *path,
			    int version, const struct history_io *io);
void history_db_close(struct history_db *h);
/*
 * BEGIN IMMEDIATE (waiting up to HISTORY_BUSY_MS for another writer), then
 * the migrations the file still needs. 0 or -1 after saying why.
 */
int history_db_begin(struct history_db *h, const struct history_io *io);
int history_db_commit(struct history_db *h, const struct history_io *io);
void history_db_rollback(struct history_db *h);
/* Runs sql (no rows). 0 or -1 after saying why. */
int history_db_exec(struct history_db *h, const char *sql, const struct history_io *io);
/* Prepares sql; NULL after saying why. */
sqlite3_stmt *history_db_prepare(struct history_db *h, const char *sql,
				 const struct history_io *io);
/* Says that a step of h failed (sqlite's message), once. -1. */
int history_db_fail(struct history_db *h, const struct history_io *io, const char *what);
/* The identifying columns of a case, in the schema's order (those of columns.h). */
/* bcase's identifying column i: the column table's name for it. */
const char *history_case_col(int i);
/* HISTORY_CASE_COLS, HISTORY_CASE_COLS_B and HISTORY_CASE_PARAMS follow the
 * column table's identifying columns. true, or false with the first
 * difference in why. */
bool history_case_cols_agree(char *why, size_t n);

/* -------------------------------------------------- history_folder.c -- */

/* Where, on what and how a run was made. */
struct history_env {
	char host[128], kernel[128], fs_type[64], cpu_model[160], build_type[64];
};

/* One summary.csv row: what became of a case (unavailable ones too). */
struct history_outcome {
	const char *id[COL_NIDS];	/* into the folder's summary table */
	const char *status, *cls;
	uint64_t verified;
};

struct history_folder {
	char path[PATH_MAX];
	char hash[33];		/* XXH3-128 of runs.csv, summary.csv, syscalls.csv */
	char started[32];	/* UTC, ISO 8601 */
	struct history_env env;
	struct checkset set;	/* runs (wall, rel) and syscall counts per case */
	struct csv_table summary;	/* empty without summary.csv */
	struct history_outcome *outcomes;
	size_t noutcomes;
	char *meta_json;	/* meta.json whole, NULL without one */
	char commit[80];	/* the commit meta.json names, "" if none */
};

/* Reads a results folder. 0, or -1 after saying why. */
int history_folder_load(struct history_folder *f, const char *dir,
			const struct history_io *io);
void history_folder_free(struct history_folder *f);
/* "2025-12-01T10:00:00Z" for t. */
void history_utc(time_t t, char *out, size_t n);

/* ---------------------------------------------------- history_meta.c -- */

/* The values of meta.json bench history reads; "" or 0 when absent. */
struct history_meta {
	int64_t version;	/* the top level's schema_version (META_SCHEMA_VERSION) */
	char build_type[64];
	char started[32];
	char commit[80];	/* from bench.git_describe: the commit bench was built from */
};

/*
 * Reads text (len bytes, a JSON object) with SQLite's JSON functions: its
 * schema_version, and the first string value whose key, at any depth, is
 * build_type, git_describe, or a start's (start_utc, then utc_start,
 * started_utc, started, start). 0, -EINVAL when text is not a JSON object,
 * or -ENOMEM.
 */
int history_meta_parse(const char *text, size_t len, struct history_meta *m);

/* ------------------------------------------------- history_series.c -- */

struct history_commit {
	char sha[80];
	char date[16];		/* "2025-12-01", of its first run */
	int64_t first_run;
};

/*
 * One case over the commits: per commit (NAN where it did not run) the
 * median of its runs' medians, the fastest and slowest rep, and the level
 * check and changes judge by: the median of its runs' fastest reps.
 */
struct history_series {
	char label[192];
	char workload[64];
	uint64_t size;
	double *median_ns, *min_ns, *max_ns, *level_ns;	/* ncommits each */
	size_t npoints;		/* commits where it ran */
};

struct history_set {
	struct history_env env;	/* the class: the latest run's */
	size_t nruns, nother;	/* runs in the class; runs left out */
	struct history_commit *commits;
	size_t ncommits;
	struct history_series *series;
	size_t nseries;
};

/* Binds :host, :kernel, :fs, :build (from e) and :branch where st has them. */
void history_bind_class(sqlite3_stmt *st, const struct history_env *e, const char *branch);
/* The class of the latest run (of branch, unless NULL). 0, or -1 after saying why. */
int history_latest_class(struct history_db *h, const char *branch,
			 struct history_env *e, const struct history_io *io);
/* Loads the class of the latest run matching f. 0, or -1 after saying why. */
int history_set_load(struct history_db *h, const struct history_filter *f,
		     struct history_set *s, const struct history_io *io);
void history_set_free(struct history_set *s);
/* The class line: "host vm, Linux 6.1, ext4, build Release". */
void history_env_text(const struct history_env *e, char *out, size_t n);

/* ------------------------------------------------ history_changes.c -- */

struct history_change {
	size_t at;		/* index of the first commit of the new level */
	double before, after;	/* medians of the segments' levels, ns */
	double p;		/* permutation p-value of the split */
};

/*
 * The change points of one series (the levels of its commits, in order): a
 * binary segmentation with Pettitt's rank statistic and a permutation test
 * of alpha; a level change smaller than min_shift (a fraction) is not one.
 * Fills up to max changes in commit order; their number, or -ENOMEM.
 */
long history_change_points(const struct history_series *s, size_t ncommits,
			   double alpha, double min_shift,
			   struct history_change *out, size_t max);

/* The spread of a window's figures: 1.4826 MAD of their logs times
 * history_spread_factor(n), the small-sample correction (history_check.c). */
double history_log_spread(const double *v, size_t n);
double history_spread_factor(size_t n);

#endif
