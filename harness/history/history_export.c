// SPDX-License-Identifier: MIT
/*
 * history_export.c - `bench history export [--format csv] [--table
 * samples|syscalls|runs] [--out FILE]`: the history as CSV, so that its data
 * is never locked in. samples: one row per measured run of a case, with its
 * run's commit and machine; syscalls: one row per case, run and system call;
 * runs: one row per results folder added, labels as "k=v;k=v".
 */
#include "history_internal.h"
#include "lib/csv.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define RUN_COLS "r.id AS run_id, r.commit_sha AS commit_sha, r.branch AS branch," \
	" r.started_utc AS started_utc, r.host AS host, r.kernel AS kernel," \
	" r.fs_type AS fs_type, r.cpu_model AS cpu_model, r.build_type AS build_type"

static const struct {
	const char *name;
	const char *sql;
} tables[] = {
	{ "samples", "SELECT " RUN_COLS ", " HISTORY_CASE_COLS_B ", s.rep AS rep,"
		     " CAST(s.wall_ns AS INTEGER) AS wall_ns, round(s.rel, 6) AS rel_to_memcpy"
		     " FROM sample s JOIN run r ON r.id = s.run_id JOIN bcase b ON b.id = s.case_id"
		     " ORDER BY r.id, b.id, s.rep" },
	{ "syscalls", "SELECT " RUN_COLS ", " HISTORY_CASE_COLS_B ", y.name AS syscall,"
		      " y.count AS count FROM syscall y JOIN run r ON r.id = y.run_id"
		      " JOIN bcase b ON b.id = y.case_id ORDER BY r.id, b.id, y.name" },
	{ "runs", "SELECT " RUN_COLS ", r.added_utc AS added_utc, r.folder AS folder,"
		  " r.content_hash AS content_hash, (SELECT group_concat(l.key || '=' || l.value, ';')"
		  " FROM label l WHERE l.run_id = r.id) AS labels FROM run r ORDER BY r.id" },
};

/* Every row of st as CSV, the header from its column names. */
static int write_rows(struct history_db *h, sqlite3_stmt *st, struct csv_writer *w,
		      const struct history_io *io)
{
	int ncols = sqlite3_column_count(st), rc;

	for (int i = 0; i < ncols; i++)
		csv_str(w, sqlite3_column_name(st, i));
	csv_end_row(w);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < ncols; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);

			csv_str(w, v ? (const char *)v : "");
		}
		csv_end_row(w);
	}
	return rc == SQLITE_DONE ? 0 : history_db_fail(h, io, "reading failed");
}

int history_export(const struct history_export_opts *o, const struct history_io *io)
{
	struct csv_writer w = { .f = io->out, .first_field = 1 };
	struct history_db h;
	sqlite3_stmt *st;
	int ret;

	if (history_db_open(&h, o->db, false, io))
		return 2;
	ret = 1;
	st = history_db_prepare(&h, tables[o->table].sql, io);
	if (!st)
		goto out_close;
	if (o->out && csv_open(&w, o->out)) {
		fprintf(io->err, "%s: %s: %s\n", io->who, o->out, strerror(errno));
		goto out_finalize;
	}
	if (write_rows(&h, st, &w, io)) {
		if (o->out)
			csv_abort(&w);
		goto out_finalize;
	}
	if (o->out && csv_commit(&w)) {
		fprintf(io->err, "%s: %s: writing failed\n", io->who, o->out);
		goto out_finalize;
	}
	ret = ferror(io->out) ? 1 : 0;
out_finalize:
	sqlite3_finalize(st);
out_close:
	history_db_close(&h);
	return ret;
}
