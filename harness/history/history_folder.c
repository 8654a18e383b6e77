// SPDX-License-Identifier: MIT
/*
 * history_folder.c - a results folder as the history takes it: its cases
 * (runs.csv and syscalls.csv, read as `bench check` reads them), what became
 * of each case (summary.csv), where and how it ran (meta.json when there is
 * one, else the environment columns of the CSVs), when (meta.json's start,
 * else when runs.csv was last written), and a hash of its content.
 *
 * The hash covers runs.csv, summary.csv and syscalls.csv, names and bytes:
 * the same results added twice, from the same folder or a copy of it, are
 * one run. meta.json is not in it: it describes the run, it is not the
 * run, and a folder whose metadata was written later is the same run.
 */
#include "history_internal.h"
#include "results/columns.h"
#include "results/meta.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

static const char *const hashed_files[] = { "runs.csv", "summary.csv", "syscalls.csv" };

/* meta.json larger than this is not metadata. */
#define META_MAX_BYTES (1 << 20)

void history_utc(time_t t, char *out, size_t n)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ------------------------------------------------------------- hash -- */

/* Adds one file (its name, then its bytes, or that it is absent). */
static int hash_file(XXH3_state_t *st, const char *dir, const char *name)
{
	char path[PATH_MAX + 32], buf[65536];
	FILE *f;
	size_t got;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	XXH3_128bits_update(st, name, strlen(name) + 1);
	f = fopen(path, "rb");
	if (!f) {
		XXH3_128bits_update(st, "absent", 6);
		return errno == ENOENT ? 0 : -errno;
	}
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		XXH3_128bits_update(st, buf, got);
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	return err;
}

static int folder_hash(struct history_folder *f, const struct history_io *io)
{
	XXH3_state_t *st = XXH3_createState();
	XXH128_hash_t h;
	int err = 0;

	if (!st)
		return -1;
	XXH3_128bits_reset(st);
	for (size_t i = 0; i < 3 && !err; i++)
		err = hash_file(st, f->path, hashed_files[i]);
	h = XXH3_128bits_digest(st);
	XXH3_freeState(st);
	if (err) {
		fprintf(io->err, "%s: %s: cannot read its files (%s)\n", io->who, f->path, strerror(-err));
		return -1;
	}
	snprintf(f->hash, sizeof(f->hash), "%016" PRIx64 "%016" PRIx64,
		 (uint64_t)h.high64, (uint64_t)h.low64);
	return 0;
}

/* ------------------------------------------------------ environment -- */

static void env_cell(const struct csv_table *t, enum col_file cf, const char *name,
		     char *out, size_t n)
{
	int c = columns_csv_col(t, cf, name);

	snprintf(out, n, "%s", c >= 0 && t->nrows ? csv_cell(t, 0, (size_t)c) : "unknown");
}

/* The environment columns of the first row of runs.csv, else syscalls.csv. */
static int folder_env(struct history_folder *f, const struct history_io *io)
{
	static const enum col_file from[] = { COLFILE_RUNS, COLFILE_SYSCALLS };
	struct history_env *e = &f->env;
	struct csv_table t;
	char path[PATH_MAX + 32], why[512];

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", f->path, col_files[from[i]].name);
		if (access(path, F_OK))
			continue;
		if (csv_read(path, &t, why, sizeof(why))) {
			fprintf(io->err, "%s: %s\n", io->who, why);
			return -1;
		}
		env_cell(&t, from[i], "host", e->host, sizeof(e->host));
		env_cell(&t, from[i], "kernel", e->kernel, sizeof(e->kernel));
		env_cell(&t, from[i], "fs_type", e->fs_type, sizeof(e->fs_type));
		env_cell(&t, from[i], "cpu_model", e->cpu_model, sizeof(e->cpu_model));
		csv_free(&t);
		return 0;
	}
	return 0;
}

/* ---------------------------------------------------------- summary -- */

static const char *cell_or(const struct csv_table *t, size_t row, int col, const char *dflt)
{
	return col >= 0 ? csv_cell(t, row, (size_t)col) : dflt;
}

/* summary.csv, when there is one: what became of every case. */
static int folder_summary(struct history_folder *f, const struct history_io *io)
{
	struct csv_table *t = &f->summary;
	char path[PATH_MAX + 32], why[512];
	int idc[COL_NIDS], st_c, cls_c, ver_c;

	snprintf(path, sizeof(path), "%s/summary.csv", f->path);
	if (access(path, F_OK))
		return 0;
	if (csv_read(path, t, why, sizeof(why)) ||
	    checkset_table_ids(t, path, idc, why, sizeof(why))) {
		fprintf(io->err, "%s: %s\n", io->who, why);
		return -1;
	}
	st_c = columns_csv_col(t, COLFILE_SUMMARY, "status");
	cls_c = columns_csv_col(t, COLFILE_SUMMARY, "class");
	ver_c = columns_csv_col(t, COLFILE_SUMMARY, "verified_runs");
	f->outcomes = calloc(t->nrows + 1, sizeof(*f->outcomes));
	if (!f->outcomes)
		return -1;
	for (size_t r = 0; r < t->nrows; r++) {
		struct history_outcome *o = &f->outcomes[f->noutcomes++];

		checkset_row_ids(t, r, idc, o->id);
		o->status = cell_or(t, r, st_c, "ok");
		o->cls = cell_or(t, r, cls_c, "");
		if (checkset_parse_u64(cell_or(t, r, ver_c, "0"), &o->verified))
			o->verified = 0;
	}
	return 0;
}

/* --------------------------------------------------------- metadata -- */

/* meta.json whole into f->meta_json (NULL when absent). 0 or -1. */
static int read_meta(struct history_folder *f, const struct history_io *io)
{
	char path[PATH_MAX + 32];
	struct stat st;
	FILE *in;
	size_t got;

	snprintf(path, sizeof(path), "%s/meta.json", f->path);
	in = fopen(path, "rb");
	if (!in)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fileno(in), &st) || st.st_size > META_MAX_BYTES)
		goto out_bad;
	f->meta_json = malloc((size_t)st.st_size + 1);
	if (!f->meta_json)
		goto out_bad;
	got = fread(f->meta_json, 1, (size_t)st.st_size, in);
	f->meta_json[got] = '\0';
	fclose(in);
	return 0;
out_bad:
	fclose(in);
	fprintf(io->err, "%s: %s: cannot read it, or larger than 1 MiB\n", io->who, path);
	return -1;
}

/* Build type, commit and start from meta.json; else "" and runs.csv's mtime. */
static int folder_meta(struct history_folder *f, const struct history_io *io)
{
	struct history_meta m = { 0 };
	char path[PATH_MAX + 32];
	struct stat st;
	int err;

	if (read_meta(f, io))
		return -1;
	err = f->meta_json ? history_meta_parse(f->meta_json, strlen(f->meta_json), &m) : 0;
	if (err) {
		fprintf(io->err, "%s: %s/meta.json: %s\n", io->who, f->path,
			err == -EINVAL ? "not a JSON object" : strerror(-err));
		return -1;
	}
	if (m.version > META_SCHEMA_VERSION) {
		fprintf(io->err, "%s: %s/meta.json: schema_version %" PRId64 " is newer than this bench's %d; use a newer bench\n", io->who, f->path, m.version, META_SCHEMA_VERSION);
		return -1;
	}
	snprintf(f->env.build_type, sizeof(f->env.build_type), "%s", m.build_type);
	snprintf(f->commit, sizeof(f->commit), "%s", m.commit);
	if (m.started[0]) {
		snprintf(f->started, sizeof(f->started), "%s", m.started);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/runs.csv", f->path);
	if (stat(path, &st)) {
		snprintf(path, sizeof(path), "%s/syscalls.csv", f->path);
		if (stat(path, &st))
			st.st_mtime = time(NULL);
	}
	history_utc(st.st_mtime, f->started, sizeof(f->started));
	return 0;
}

/* -------------------------------------------------------------- load -- */

int history_folder_load(struct history_folder *f, const char *dir,
			const struct history_io *io)
{
	struct stat st;
	char why[512];

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", dir);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(io->err, "%s: %s: not a results folder\n", io->who, dir);
		return -1;
	}
	if (checkset_load(&f->set, dir, why, sizeof(why))) {
		fprintf(io->err, "%s: %s\n", io->who, why);
		return -1;
	}
	if (folder_hash(f, io) || folder_env(f, io) || folder_summary(f, io) ||
	    folder_meta(f, io)) {
		history_folder_free(f);
		return -1;
	}
	return 0;
}

void history_folder_free(struct history_folder *f)
{
	checkset_free(&f->set);
	if (f->summary.header)
		csv_free(&f->summary);
	free(f->outcomes);
	free(f->meta_json);
	memset(f, 0, sizeof(*f));
}
