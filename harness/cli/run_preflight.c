// SPDX-License-Identifier: MIT
/*
 * run_preflight.c - the checks of `bench [options]` before any work (run.h:
 * run_check_outputs, run_preflight): --out and the --export-* files can be
 * written, --dir is a folder bench can write in, no foreign file is in the
 * way of a dataset, the free space and the --budget suffice; and the
 * options the plan leaves without effect, said once. The steps after them
 * are run_steps.c's, the dry run run_dry.c's.
 */
#include "run_internal.h"
#include "lib/fsinfo.h"
#include "plot/plot.h"
#include "results/columns.h"
#include "results/meta.h"
#include "run/budget.h"
#include "run/plan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* "79.2G": one decimal in the largest unit, for messages. */
void run_approx_size(uint64_t bytes, char *out, size_t n)
{
	static const char units[] = "KMGTPE";
	double v = (double)bytes;
	int u = -1;

	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(out, n, "%llu bytes", (unsigned long long)bytes);
	else
		snprintf(out, n, "%.1f%c", v, units[u]);
}

/*
 * A dataset file name in dir that bench did not write (no manifest of ours
 * beside it) belongs to someone else: refuse rather than replace it.
 */
static int check_foreign_datasets(const struct runner *r)
{
	for (size_t i = 0; i < r->ndatasets; i++) {
		char path[PATH_MAX];

		if (r->datasets[i].kind == DATASET_FILE || r->datasets[i].kind == DATASET_DIR ||
		    !dataset_foreign(&r->datasets[i], r->o->dir, path, sizeof(path)))
			continue;
		fprintf(stderr, "bench: %s exists and was not made by bench (no manifest); move it away or choose another --dir\n",
			path);
		return 1;
	}
	return 0;
}

/* Can a folder be made at path (or written in, if it is one)? The nearest
 * folder that exists must be writable. 0, or 2 after one line. */
static int check_out_writable(const char *out)
{
	char at[PATH_MAX], *slash;
	struct stat st;

	snprintf(at, sizeof(at), "%s", out);
	while (stat(at, &st)) {
		if (!strcmp(at, ".")) {
			fprintf(stderr, "bench: --out '%s': %s\n", out, strerror(errno));
			return 2;
		}
		slash = strrchr(at, '/');
		if (slash)
			slash[slash == at] = '\0';
		else
			snprintf(at, sizeof(at), ".");
	}
	if (!S_ISDIR(st.st_mode) && strcmp(at, out)) {
		fprintf(stderr, "bench: --out '%s': %s is not a folder\n", out, at);
		return 2;
	}
	if (S_ISDIR(st.st_mode) && access(at, W_OK | X_OK)) {
		fprintf(stderr, "bench: --out '%s': %s\n", out, strerror(errno));
		return 2;
	}
	return 0;
}

/* Does dir hold results of a run (meta.json or one of the CSV files)? */
static bool holds_results(const char *dir)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	if (!access(path, F_OK))
		return true;
	for (size_t i = 0; i < COLFILE_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, col_files[i].name);
		if (!access(path, F_OK))
			return true;
	}
	return false;
}

/*
 * --out must be a directory bench can write in (or one it can make), and
 * the CSV files in it, if any, must be bench's own: their first line starts
 * with bench's header. One that holds results is refused without --force.
 */
static int check_out_dir(const char *out, bool force)
{
	struct stat st;

	if (!out)
		return 0;
	if (check_out_writable(out))
		return 2;
	if (stat(out, &st))
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "bench: --out '%s': exists and is not a directory\n", out);
		return 2;
	}
	if (!meta_is_ours(out)) {
		fprintf(stderr, "bench: --out '%s': meta.json there was not written by bench; choose another --out\n",
			out);
		return 2;
	}
	for (size_t i = 0; i < COLFILE_COUNT; i++) {
		char path[PATH_MAX + 16], line[64] = "";
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", out, col_files[i].name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		if (!columns_is_bench_header(line)) {
			fprintf(stderr, "bench: --out '%s': %s there was not written by bench; choose another --out\n",
				out, col_files[i].name);
			return 2;
		}
	}
	if (!force && holds_results(out)) {
		fprintf(stderr, "bench: --out '%s': holds the results of an earlier run; choose another --out, or --force to replace them\n",
			out);
		return 2;
	}
	return 0;
}

/*
 * --export-* name files to write at the end: refuse, before any work, a
 * directory or a path whose folder does not exist.
 */
static int check_exports(const struct bench_opts *o)
{
	const char *const opts[] = { "--export-json", "--export-csv", "--export-markdown" };
	const char *const paths[] = { o->export_json, o->export_csv, o->export_markdown };

	for (size_t i = 0, dash = 0; i < 3; i++) {
		char parent[PATH_MAX], *slash;
		struct stat st;

		if (!paths[i])
			continue;
		if (!strcmp(paths[i], "-") && (dash++ || o->format != FORMAT_TABLE)) {
			fprintf(stderr, "bench: %s '-': stdout already has %s\n", opts[i],
				o->format != FORMAT_TABLE ? "--format's output" : "another export");
			return 2;
		}
		if (!strcmp(paths[i], "-"))
			continue;
		snprintf(parent, sizeof(parent), "%s", paths[i]);
		slash = strrchr(parent, '/');
		if (slash)
			slash[slash == parent] = '\0';
		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			fprintf(stderr, "bench: %s '%s': is a directory\n", opts[i], paths[i]);
			return 2;
		}
		if (slash && (stat(parent, &st) || !S_ISDIR(st.st_mode))) {
			fprintf(stderr, "bench: %s '%s': its folder does not exist\n", opts[i], paths[i]);
			return 2;
		}
	}
	return 0;
}

/* Bytes of datasets still to make, and the largest dataset (an output's size). */
void run_space_needed(const struct runner *r, uint64_t *to_make, uint64_t *biggest)
{
	*to_make = *biggest = 0;
	for (size_t i = 0; i < r->ndatasets; i++) {
		struct dataset d = r->datasets[i];
		char name[PATH_MAX], path[PATH_MAX + 16];
		struct stat st;

		uint64_t bytes = d.files ? d.total : d.size;
		bool made;

		dataset_file_name(&d, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", r->o->dir, name);
		made = d.kind == DATASET_FILE || d.kind == DATASET_DIR ||
		       (!stat(path, &st) && (d.files ? S_ISDIR(st.st_mode) : (uint64_t)st.st_size == d.size));
		if (!made)
			*to_make += bytes;
		if (bytes > *biggest)
			*biggest = bytes;
	}
}

uint64_t run_dir_free(const char *dir)
{
	struct statvfs vfs;

	if (statvfs(dir, &vfs) || vfs.f_blocks == 0)
		return UINT64_MAX;	/* no figure to judge by (ramfs reports no size) */
	return (uint64_t)vfs.f_bavail * vfs.f_frsize;
}

/* What a run costs here: each workload's rate from the newest results of
 * this host under results/ that ran it (of the last ESTIMATE_FOLDERS), else
 * the defaults (estimate.h). */
#define ESTIMATE_FOLDERS 20
static void learn_rates(struct runner *r)
{
	char host[256] = "";

	estimate_init(&r->est);
	if (gethostname(host, sizeof(host) - 1) == 0)
		estimate_learn_recent(&r->est, "results", host, ESTIMATE_FOLDERS);
}

/* The minimum of a budgeted run: its datasets made, then its runs. */
static double budget_minimum_here_s(const struct runner *r)
{
	uint64_t to_make, biggest;

	run_space_needed(r, &to_make, &biggest);
	return (double)to_make / DRY_GEN_RATE + runner_budget_minimum_s(r);
}

/*
 * --budget, before anything runs: does the minimum fit at the estimated
 * rates? An asked-for budget that it does not fit is refused (2); --all's
 * default budget gives way to the minimum, said once.
 */
static int check_budget(struct runner *r)
{
	const struct bench_opts *o = r->o;
	double need;

	if (o->budget_s <= 0 || o->repeat)
		return 0;
	need = budget_minimum_here_s(r);
	if (need <= o->budget_s)
		return 0;
	if (!o->budget_default) {
		fprintf(stderr, "bench: --budget %g s is too small for the minimum here: %zu cases, each %u measured runs (a median and its 95 %% interval) after its warm-up, need about %.1f s at the estimated rates; give more, or --budget none\n",
			o->budget_s, r->ncases, BUDGET_MIN_RUNS, need);
		return 2;
	}
	progress_line(&r->progress, "bench: the minimum of every case (%u measured runs) needs about %.0f s here, more than --all's budget of %.0f s: the run takes the minimum",
		      BUDGET_MIN_RUNS, need, o->budget_s);
	return 0;
}

static int check_free_space(const struct runner *r)
{
	uint64_t need, biggest, have = run_dir_free(r->o->dir);
	char a[32], b[32];

	run_space_needed(r, &need, &biggest);
	need += biggest + (16u << 20);
	if (have >= need)
		return 0;
	run_approx_size(need, a, sizeof(a));
	run_approx_size(have, b, sizeof(b));
	fprintf(stderr, "bench: not enough free space in %s: the run needs about %s, %s is free\n",
		r->o->dir, a, b);
	return 2;
}

/* --dir must be a folder bench can write in: 2 after one line if not. */
static int check_dir_usable(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "bench: --dir '%s': not a folder\n", dir);
		return 2;
	}
	if (access(dir, W_OK | X_OK)) {
		fprintf(stderr, "bench: --dir '%s': %s\n", dir, strerror(errno));
		return 2;
	}
	return 0;
}

/* Does a case of the plan run a workload with flag? */
static bool planned_with(const struct runner *r, unsigned flag)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (r->cases[i].spec.wl->flags & flag)
			return true;
	return false;
}

/* Does a case of the plan take a buffer (a buffered strategy, a channel)? */
static bool planned_buffer(const struct runner *r)
{
	for (size_t i = 0; i < r->ncases; i++)
		if (r->cases[i].spec.buffer)
			return true;
	return false;
}

/*
 * Options the plan leaves without effect, or that contradict each other:
 * one line each on stderr, before any work, once (bench --fs plans once per
 * filesystem). The run goes on.
 */
static void warn_ignored(const struct runner *r)
{
	const struct bench_opts *o = r->o;
	static bool said;

	if (said)
		return;
	said = true;

	if (o->given[OPT_REPEAT] && o->given[OPT_MAX_RUNS])
		fprintf(stderr, "bench: warning: --max-runs is ignored: --repeat %u fixes the runs of each case\n",
			o->repeat);
	if (o->given[OPT_BATCH_LINES] && !planned_with(r, WORKLOAD_CHANNELS))
		fprintf(stderr, "bench: warning: --batch-lines is ignored: no case of the transform workload is planned\n");
	if (o->given[OPT_FILES] && !planned_with(r, WORKLOAD_TREE))
		fprintf(stderr, "bench: warning: --files is ignored: no case of the tree workload is planned\n");
	if (o->given[OPT_PART_SIZE] && !planned_with(r, WORKLOAD_PARTS))
		fprintf(stderr, "bench: warning: --part-size is ignored: no case of the split workload is planned\n");
	if (o->given[OPT_BUFFER] && !planned_buffer(r))
		fprintf(stderr, "bench: warning: --buffer is ignored: no strategy or channel of the plan takes a buffer\n");
	if (o->drop_caches && !o->cache_cold)
		fprintf(stderr, "bench: warning: --drop-caches is ignored: it drops caches for cold runs, and --cache warm has none\n");
	for (size_t i = 0; i < o->buffers.n; i++)
		if (o->buffers.v[i] < 512)
			fprintf(stderr, "bench: warning: --buffer %llu: under 512 bytes a copy is mostly system calls (one pair per %llu bytes)\n",
				(unsigned long long)o->buffers.v[i], (unsigned long long)o->buffers.v[i]);
}

int run_make_dir(const struct bench_opts *o, char *made, size_t n)
{
	int err = fs_make_dirs(o->dir, made, n);

	if (!err)
		return 0;
	fprintf(stderr, "bench: --dir '%s': %s\n", o->dir, strerror(-err));
	fs_unmake_dirs(o->dir, made);
	return 2;
}

int run_preflight(struct runner *r, char *made, size_t n)
{
	const struct bench_opts *o = r->o;
	int ret = run_make_dir(o, made, n);
	if (ret)
		return ret;
	ret = check_dir_usable(o->dir);
	if (!ret)
		ret = plan_build(r);
	if (!ret)
		ret = check_foreign_datasets(r);
	if (!ret && !o->fs.n)
		ret = check_free_space(r);
	if (!ret) {
		learn_rates(r);
		ret = check_budget(r);
	}
	if (ret)
		fs_unmake_dirs(o->dir, made);
	else
		warn_ignored(r);
	return ret;
}

int run_check_outputs(const struct bench_opts *o)
{
	int ret = check_out_dir(o->out, o->force);

	if (!ret)
		ret = check_exports(o);
	if (!ret && o->plot && !plot_gnuplot_available()) {
		fprintf(stderr, "bench: --plot: gnuplot not found in PATH; install it (Debian: apt install gnuplot-nox) or leave out --plot\n");
		ret = 2;
	}
	return ret;
}
