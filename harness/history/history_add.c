// SPDX-License-Identifier: MIT
/*
 * history_add.c - `bench history add DIR... [--commit SHA] [--branch NAME]
 * [--label K=V]...`: results folders into the history, each once.
 *
 * Every folder is read and checked before the database is touched; then all
 * of them go in within one transaction, so an add is whole or nothing. A
 * folder whose content (history_folder.c) is already in the history adds
 * nothing and says so. The commit and branch come from git in the current
 * directory unless given; outside a git work tree the commit is the one each
 * folder's meta.json names (the commit bench was built from), and the
 * branch "unknown".
 */
#include "history_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* --------------------------------------------------------------- git -- */

/* The first line git prints for args, in the current directory. 0 or -1. */
static int git_line(char *const args[], char *out, size_t n)
{
	int fds[2], status, devnull;
	ssize_t got = 0, r;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		devnull = open("/dev/null", O_RDWR);
		dup2(devnull, 0);
		dup2(devnull, 2);
		dup2(fds[1], 1);
		close(fds[0]);
		execvp("git", args);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && (size_t)got + 1 < n &&
	       (r = read(fds[0], out + got, n - 1 - (size_t)got)) > 0)
		got += r;
	close(fds[0]);
	out[got] = '\0';
	out[strcspn(out, "\n")] = '\0';
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 && out[0] ? 0 : -1;
}

/* The commit and branch from git when not given (NULL commit: no git here). */
static void add_git(struct history_add_opts *o)
{
	static char *const head[] = { "git", "rev-parse", "HEAD", NULL };
	static char *const branch[] = { "git", "rev-parse", "--abbrev-ref", "HEAD", NULL };

	if (!o->commit && !git_line(head, o->git_commit, sizeof(o->git_commit)))
		o->commit = o->git_commit;
	if (!o->branch) {
		if (git_line(branch, o->git_branch, sizeof(o->git_branch)))
			snprintf(o->git_branch, sizeof(o->git_branch), "unknown");
		o->branch = o->git_branch;
	}
}

/* ------------------------------------------------------------ insert -- */

enum { ST_FIND, ST_RUN, ST_LABEL, ST_CASE_NEW, ST_CASE_ID, ST_SAMPLE, ST_SYSCALL,
       ST_OUTCOME, ST_COUNT };

static const char *const add_sql[ST_COUNT] = {
	[ST_FIND] = "SELECT id, commit_sha FROM run WHERE content_hash = ?1",
	[ST_RUN] = "INSERT INTO run (content_hash, folder, commit_sha, branch, started_utc,"
		   " added_utc, host, kernel, fs_type, cpu_model, build_type, meta_json)"
		   " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	[ST_LABEL] = "INSERT INTO label (run_id, key, value) VALUES (?1, ?2, ?3)",
	[ST_CASE_NEW] = "INSERT OR IGNORE INTO bcase (" HISTORY_CASE_COLS ")"
			" VALUES (" HISTORY_CASE_PARAMS ")",
	[ST_CASE_ID] = "SELECT id FROM bcase WHERE (" HISTORY_CASE_COLS ") = (" HISTORY_CASE_PARAMS ")",
	[ST_SAMPLE] = "INSERT INTO sample (run_id, case_id, rep, wall_ns, rel)"
		      " VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_SYSCALL] = "INSERT INTO syscall (run_id, case_id, name, count) VALUES (?1, ?2, ?3, ?4)",
	[ST_OUTCOME] = "INSERT INTO outcome (run_id, case_id, status, class, verified_runs)"
		       " VALUES (?1, ?2, ?3, ?4, ?5)",
};

struct adder {
	struct history_db *h;
	const struct history_io *io;
	const struct history_add_opts *o;
	sqlite3_stmt *st[ST_COUNT];
	int64_t run_id;
};

/* Steps a statement that returns no row, and resets it. 0 or -1. */
static int step_done(struct adder *a, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : history_db_fail(a->h, a->io, what);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

/* The id of the case with these identifying values, made when new. */
static int64_t case_id(struct adder *a, const char *const *id)
{
	sqlite3_stmt *ins = a->st[ST_CASE_NEW], *get = a->st[ST_CASE_ID];
	int64_t cid = -1;

	for (int i = 0; i < COL_NIDS; i++) {
		bind_text(ins, i + 1, id[i]);
		bind_text(get, i + 1, id[i]);
	}
	if (step_done(a, ins, "adding a case failed"))
		return -1;
	if (sqlite3_step(get) == SQLITE_ROW)
		cid = sqlite3_column_int64(get, 0);
	else
		history_db_fail(a->h, a->io, "finding a case failed");
	sqlite3_reset(get);
	sqlite3_clear_bindings(get);
	return cid;
}

static int add_case(struct adder *a, const struct checkset_case *c)
{
	sqlite3_stmt *s = a->st[ST_SAMPLE], *y = a->st[ST_SYSCALL];
	int64_t cid = case_id(a, (const char *const *)c->id);

	if (cid < 0)
		return -1;
	for (size_t k = 0; k < c->nruns; k++) {
		sqlite3_bind_int64(s, 1, a->run_id);
		sqlite3_bind_int64(s, 2, cid);
		sqlite3_bind_int64(s, 3, c->rep[k]);
		sqlite3_bind_double(s, 4, c->wall[k]);
		if (c->rel_ok)
			sqlite3_bind_double(s, 5, c->rel[k]);
		if (step_done(a, s, "adding a run failed (a rep twice in runs.csv?)"))
			return -1;
	}
	for (size_t k = 0; k <= c->ncounts; k++) {
		if (k == c->ncounts && !c->has_total)
			break;
		sqlite3_bind_int64(y, 1, a->run_id);
		sqlite3_bind_int64(y, 2, cid);
		bind_text(y, 3, k < c->ncounts ? c->counts[k].name : "total");
		sqlite3_bind_int64(y, 4, (sqlite3_int64)(k < c->ncounts ? c->counts[k].count : c->total));
		if (step_done(a, y, "adding system-call counts failed"))
			return -1;
	}
	return 0;
}

static int add_outcome(struct adder *a, const struct history_outcome *oc)
{
	sqlite3_stmt *st = a->st[ST_OUTCOME];
	int64_t cid = case_id(a, oc->id);

	if (cid < 0)
		return -1;
	sqlite3_bind_int64(st, 1, a->run_id);
	sqlite3_bind_int64(st, 2, cid);
	bind_text(st, 3, oc->status);
	bind_text(st, 4, oc->cls);
	sqlite3_bind_int64(st, 5, (sqlite3_int64)oc->verified);
	return step_done(a, st, "adding a case's outcome failed (a case twice in summary.csv?)");
}

/* The commit of folder f: --commit, git's HEAD, or what its meta.json names. */
static const char *folder_commit(const struct history_add_opts *o, const struct history_folder *f)
{
	return o->commit ? o->commit : f->commit;
}

/* The run row of folder f, and its labels. */
static int add_run_row(struct adder *a, const struct history_folder *f)
{
	sqlite3_stmt *st = a->st[ST_RUN];
	const char *v[] = { f->hash, f->path, folder_commit(a->o, f), a->o->branch, f->started, NULL,
			    f->env.host, f->env.kernel, f->env.fs_type, f->env.cpu_model,
			    f->env.build_type, f->meta_json };
	char now[32];

	history_utc(time(NULL), now, sizeof(now));
	v[5] = now;
	for (int i = 0; i < 12; i++)
		bind_text(st, i + 1, v[i]);	/* NULL binds NULL */
	if (step_done(a, st, "adding the run failed"))
		return -1;
	a->run_id = sqlite3_last_insert_rowid(a->h->db);
	for (size_t i = 0; i < a->o->nlabels; i++) {
		const char *kv = a->o->label[i], *eq = strchr(kv, '=');

		sqlite3_bind_int64(a->st[ST_LABEL], 1, a->run_id);
		sqlite3_bind_text(a->st[ST_LABEL], 2, kv, (int)(eq - kv), SQLITE_TRANSIENT);
		bind_text(a->st[ST_LABEL], 3, eq + 1);
		if (step_done(a, a->st[ST_LABEL], "adding a label failed"))
			return -1;
	}
	return 0;
}

/* The run id of a folder already in the history (commit into sha), or 0. */
static int64_t already_in(struct adder *a, const struct history_folder *f,
			  char *sha, size_t n)
{
	sqlite3_stmt *st = a->st[ST_FIND];
	int64_t id = 0;

	bind_text(st, 1, f->hash);
	if (sqlite3_step(st) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		snprintf(sha, n, "%s", (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return id;
}

static int add_folder(struct adder *a, const struct history_folder *f)
{
	size_t runs = 0;
	char sha[80];
	int64_t old = already_in(a, f, sha, sizeof(sha));

	if (old) {
		fprintf(a->io->out, "%s: already in the history as run %lld (commit %s): nothing added\n",
			f->path, (long long)old, sha);
		return 0;
	}
	if (add_run_row(a, f))
		return -1;
	for (size_t i = 0; i < f->set.n; i++) {
		if (add_case(a, &f->set.c[i]))
			return -1;
		runs += f->set.c[i].nruns;
	}
	for (size_t i = 0; i < f->noutcomes; i++)
		if (add_outcome(a, &f->outcomes[i]))
			return -1;
	fprintf(a->io->out, "%s: added as run %lld (commit %s, branch %s, %zu cases, %zu runs)\n",
		f->path, (long long)a->run_id, folder_commit(a->o, f), a->o->branch, f->set.n, runs);
	return 0;
}

/* All folders in one transaction. 0 or 1. */
static int add_all(struct history_db *h, const struct history_add_opts *o,
		   const struct history_folder *f, const struct history_io *io)
{
	struct adder a = { .h = h, .io = io, .o = o };
	int ret = 1;

	for (int i = 0; i < ST_COUNT; i++)
		if (!(a.st[i] = history_db_prepare(h, add_sql[i], io)))
			goto out_finalize;
	if (history_db_begin(h, io))
		goto out_finalize;
	for (size_t i = 0; i < o->ndirs; i++)
		if (add_folder(&a, &f[i]))
			goto out_rollback;
	ret = history_db_commit(h, io) ? 1 : 0;
	goto out_finalize;
out_rollback:
	history_db_rollback(h);
	fprintf(io->err, "%s: nothing was added\n", io->who);
out_finalize:
	for (int i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(a.st[i]);
	return ret;
}

int history_add(struct history_add_opts *o, const struct history_io *io)
{
	struct history_folder *f;
	struct history_db h;
	size_t nread = 0;
	int ret;

	add_git(o);
	f = calloc(o->ndirs, sizeof(*f));
	if (!f)
		return 1;
	ret = 2;
	for (; nread < o->ndirs; nread++)
		if (history_folder_load(&f[nread], o->dirs[nread], io))
			goto out_free;
	for (size_t i = 0; i < nread; i++)
		if (!folder_commit(o, &f[i])[0]) {
			fprintf(io->err, "%s: no --commit given, git rev-parse HEAD failed here (not a git work tree?) and %s/meta.json names no commit: give it with --commit SHA\n",
				io->who, f[i].path);
			goto out_free;
		}
	if (history_db_open(&h, o->db, true, io))
		goto out_free;
	ret = add_all(&h, o, f, io);
	history_db_close(&h);
out_free:
	while (nread--)
		history_folder_free(&f[nread]);
	free(f);
	return ret;
}
