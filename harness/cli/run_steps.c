// SPDX-License-Identifier: MIT
/*
 * run_steps.c - the steps of `bench [options]` (run.h): check where the
 * results go, plan the cases, make the datasets, run every case interleaved,
 * write results and print the table. cmd_run.c takes them once; `bench --fs`
 * (run_fs.c) once per filesystem.
 */
#include "columns.h"
#include "commands.h"
#include "interrupt.h"
#include "plan.h"
#include "memstate.h"
#include "meta.h"
#include "plot.h"
#include "ranktest.h"
#include "tune.h"
#include "report.h"
#include "run.h"
#include "units.h"
#include "budget.h"
#include "fsinfo.h"
#include "stats.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

/* "79.2G": one decimal in the largest unit, for messages. */
static void approx_size(uint64_t bytes, char *out, size_t n)
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

/* --force: the earlier run's files in dir go, charts included, so that
 * none is left beside the new results. */
static void remove_old_results(const char *dir)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	unlink(path);
	for (size_t i = 0; i < COLFILE_COUNT; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, col_files[i].name);
		unlink(path);
	}
	plot_remove_charts(dir);
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
static void space_needed(const struct runner *r, uint64_t *to_make, uint64_t *biggest)
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

/* Datasets are made at about this many bytes a second (docs/budget.md). */
#define DRY_GEN_RATE (512.0 * 1048576.0)

/* The minimum of a budgeted run: its datasets made, then its runs. */
static double budget_minimum_here_s(const struct runner *r)
{
	uint64_t to_make, biggest;

	space_needed(r, &to_make, &biggest);
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

	space_needed(r, &need, &biggest);
	need += biggest + (16u << 20);
	if (have >= need)
		return 0;
	approx_size(need, a, sizeof(a));
	approx_size(have, b, sizeof(b));
	fprintf(stderr, "bench: not enough free space in %s: the run needs about %s, %s is free\n",
		r->o->dir, a, b);
	return 2;
}

/* "1 counting run (the warm-up), 5 measured": the runs of each case. */
static void runs_per_case(const struct bench_opts *o, char *out, size_t n)
{
	unsigned counted = o->syscount != SYSCOUNT_OFF;
	unsigned warm = o->warmup > counted ? o->warmup - counted : 0;
	int len = 0;

	if (counted)
		len = snprintf(out, n, "1 counting run (%s warm-up), ", warm ? "a" : "the");
	if (warm && len >= 0 && (size_t)len < n)
		len += snprintf(out + len, n - (size_t)len, "%u warm-up, ", warm);
	if (len >= 0 && (size_t)len < n && !o->repeat && o->budget_s > 0)
		snprintf(out + len, n - (size_t)len, "%u to %u measured runs as a budget of %.0f s allows (the cases whose place is not settled get more)",
			 BUDGET_MIN_RUNS, o->max_runs, o->budget_s);
	else if (len >= 0 && (size_t)len < n)
		snprintf(out + len, n - (size_t)len, o->repeat ? "%u measured runs" :
			 "8 to %u measured runs (fewer for runs over 2 s; more while the median is unsettled)",
			 o->repeat ? o->repeat : o->max_runs);
}

/*
 * Said before any work: a case with the fewest runs these options allow
 * cannot reach significance in bench check over these cases (its alpha
 * 0.01, Holm over all cases: the smallest p of n vs n runs times the cases).
 */
static void warn_ungateable(const struct runner *r)
{
	size_t n = runner_fewest_runs(r->o), cases = r->ncases ? r->ncases : 1;
	double minp = rank_min_p(n, n);

	if (minp * (double)cases < STATS_ALPHA)
		return;
	progress_line(&r->progress, "bench: note: with %zu measured runs a case, bench check cannot judge the timing of these %zu cases against a baseline of as many (smallest p-value %.2g x %zu cases, not below its alpha " STATS_ALPHA_TEXT "): record more runs (--repeat, --max-runs)",
		      n, cases, minp, cases);
}

/* The plan, before any work: cases, runs, space, where files go. */
static void show_plan(const struct runner *r, const char *results)
{
	char noise[512];

	size_t unavailable = 0;
	bool keeps = false;
	const char *const exports[] = { r->o->export_json, r->o->export_csv, r->o->export_markdown };
	uint64_t to_make, biggest;
	char a[32], b[32], runs[96];

	for (size_t i = 0; i < r->ncases; i++) {
		unavailable += r->cases[i].state == CASE_UNAVAILABLE;
		keeps |= r->cases[i].state != CASE_UNAVAILABLE && runner_keeps_output(r, &r->cases[i]);
	}
	space_needed(r, &to_make, &biggest);
	approx_size(to_make, a, sizeof(a));
	approx_size(biggest, b, sizeof(b));
	runs_per_case(r->o, runs, sizeof(runs));
	progress_line(&r->progress, "bench: %zu cases (%zu unavailable here), each %s",
		      r->ncases, unavailable, runs);
	warn_ungateable(r);
	if (r->o->source)
		progress_line(&r->progress, "bench: source %s (%s), %s of up to %s%s in %s",
			      r->datasets[0].path, b, keeps ? "outputs" : "one output", b,
			      keeps ? "" : " at a time", r->o->dir);
	else
		progress_line(&r->progress, "bench: datasets in %s (%s to make), %s of up to %s%s there",
			      r->o->dir, to_make ? a : "nothing", keeps ? "outputs" : "one output", b,
			      keeps ? "" : " at a time");
	if (keeps)
		progress_line(&r->progress, "bench: tree outputs are kept until the end while the filesystem has room (--destination fresh: no run writes where one was just removed)");
	progress_line(&r->progress, "bench: results to %s/ (meta.json, runs.csv, summary.csv, syscalls.csv)",
		      results);
	if (meta_build_note())
		progress_line(&r->progress, "bench: note: %s", meta_build_note());
	if (machine_noise_note(&r->env.machine, r->env.ncpu, noise, sizeof(noise)))
		progress_line(&r->progress, "bench: note: timings here are noisier: %s (docs/noise.md)", noise);
	for (size_t i = 0; i < 3; i++)
		if (exports[i])
			progress_line(&r->progress, "bench: summary exported to %s", strcmp(exports[i], "-") ? exports[i] : "stdout");
}

/*
 * Outputs larger than the kernel's dirty-background threshold start
 * writeback during the run that makes them, and the share that falls inside
 * the clock varies: say so once, and what measures the whole write.
 */
static void warn_writeback(const struct runner *r)
{
	uint64_t biggest = 0, limit = memstate_background_threshold();
	char a[32], b[32];

	for (size_t i = 0; i < r->ncases; i++)
		if (!(r->cases[i].spec.wl->flags & WORKLOAD_LIMITS) && r->cases[i].spec.size > biggest)
			biggest = r->cases[i].spec.size;
	if (r->o->fsync || !limit || biggest <= limit)
		return;
	approx_size(biggest, a, sizeof(a));
	approx_size(limit, b, sizeof(b));
	fprintf(stderr, "bench: note: outputs of %s exceed the kernel's dirty-background threshold (%s): writeback starts inside some runs; --fsync times the whole write to the device\n",
		a, b);
}

static int ensure_datasets(struct runner *r)
{
	for (size_t i = 0; i < r->ndatasets && !interrupt_signal; i++) {
		struct dataset *d = &r->datasets[i];
		char size[64];
		int reused = 0, err;

		if (d->kind == DATASET_FILE || d->kind == DATASET_DIR)
			continue;	/* the user's, hashed when planned */
		dataset_size_name(d, size, sizeof(size));
		if (r->progress.tty) {
			char what[160];

			snprintf(what, sizeof(what), "dataset %s %s: preparing", dataset_kind_name(d->kind), size);
			progress_status(&r->progress, what);
		}
		err = dataset_ensure(d, r->o->dir, &reused);
		if (!err && !reused)
			r->costs.generated_bytes += d->files ? d->total : d->size;
		if (err == -EINTR && interrupt_signal)
			break;
		if (err) {
			progress_clear(&r->progress);
			fprintf(stderr, "bench: cannot make the %s dataset of %s in %s: %s\n",
				dataset_kind_name(d->kind), size, r->o->dir, strerror(-err));
			return 1;
		}
		if (!reused)
			progress_line(&r->progress, "bench: made the %s dataset of %s in %s",
				      dataset_kind_name(d->kind), size, r->o->dir);
	}
	progress_clear(&r->progress);
	return interrupt_signal ? interrupt_exit_code() : 0;
}

static void prepare_cases(struct runner *r)
{
	for (size_t i = 0; i < r->ncases; i++) {
		struct bench_case *c = &r->cases[i];
		char why[200] = "";

		if (c->state != CASE_PENDING || !c->spec.wl->prepare)
			continue;
		if (c->spec.wl->prepare(&c->spec, why, sizeof(why))) {
			c->state = CASE_UNAVAILABLE;
			snprintf(c->why, sizeof(c->why), "%s", why);
		}
	}
}

static void start_counting(struct runner *r)
{
	if (r->o->syscount == SYSCOUNT_OFF) {
		snprintf(r->sc_why, sizeof(r->sc_why), "counting disabled (--syscalls off)");
		return;
	}
	if (syscount_session_new(&r->sc, r->o->syscount, r->sc_why, sizeof(r->sc_why)))
		r->sc = NULL;
	r->counting = r->sc != NULL;
	if (!r->sc)
		for (size_t i = 0; i < r->ncases; i++) {
			r->cases[i].counts.valid = false;
			snprintf(r->cases[i].counts.method, sizeof(r->cases[i].counts.method), "n/a");
			snprintf(r->cases[i].counts.why, sizeof(r->cases[i].counts.why), "%s", r->sc_why);
		}
}

/* --out, or results/<UTC stamp of the start>-<host>. */
static void results_dir(const struct runner *r, const struct timespec *start, char *out, size_t n)
{
	char stamp[32];
	struct tm tm;

	if (r->o->out) {
		snprintf(out, n, "%s", r->o->out);
		return;
	}
	gmtime_r(&start->tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(out, n, "results/%s-%s", stamp, r->env.host);
}

static int write_results(struct runner *r, struct case_summary *sums, const char *dir,
			 struct meta_times *t)
{
	char made[PATH_MAX];
	int err;

	clock_gettime(CLOCK_REALTIME, &t->end);
	t->interrupted = interrupt_signal != 0;
	err = make_dirs(dir, made, sizeof(made));
	if (!err && r->o->force)
		remove_old_results(dir);
	if (!err)
		err = report_write_csv(r, sums, dir);
	if (!err)
		err = meta_write(dir, r, t);
	if (err)
		fprintf(stderr, "bench: cannot write results in %s: %s\n", dir, strerror(-err));
	return err ? 1 : 0;
}

/*
 * --source: a file that changed while bench used it has no result to keep.
 * 0, or 1 after one line on stderr.
 */
static int check_source_unchanged(const struct runner *r)
{
	char what[160];

	for (size_t i = 0; i < r->ndatasets; i++) {
		if ((r->datasets[i].kind != DATASET_FILE && r->datasets[i].kind != DATASET_DIR) ||
		    !dataset_file_changed(&r->datasets[i], what, sizeof(what)))
			continue;
		fprintf(stderr, "bench: --source '%s' changed during the run (%s): no results kept\n",
			r->o->source, what);
		return 1;
	}
	return 0;
}

/* --plot: the charts of the results just written, as `bench plot DIR` draws them. */
static int draw_charts(const char *dir)
{
	char *argv[] = { "plot", (char *)dir, NULL };

	fflush(stdout);
	return cmd_plot(2, argv);
}

/*
 * Every case asked for (the limit rows aside) unavailable here: nothing the
 * user asked for was measured, which is an error, not a result. Says so.
 */
static bool none_could_run(const struct runner *r)
{
	size_t asked = 0;

	for (size_t i = 0; i < r->ncases; i++) {
		if (r->cases[i].spec.wl->flags & WORKLOAD_LIMITS)
			continue;
		if (r->cases[i].state != CASE_UNAVAILABLE)
			return false;
		asked++;
	}
	if (asked)
		fprintf(stderr, "bench: no case asked for could run here (%zu unavailable: the table says why)\n",
			asked);
	return asked > 0;
}

/* --export-* -: that export is stdout's, in place of the table. */
static bool export_to_stdout(const struct bench_opts *o)
{
	const char *const paths[] = { o->export_json, o->export_csv, o->export_markdown };

	for (size_t i = 0; i < 3; i++)
		if (paths[i] && !strcmp(paths[i], "-"))
			return true;
	return false;
}

static int finish(struct runner *r, const char *dir, struct meta_times *t)
{
	struct case_summary *sums;
	sigset_t old;
	int ret = 0;

	runner_remove_workdir_begin(r);
	if (check_source_unchanged(r))
		return 1;
	sums = calloc(r->ncases, sizeof(*sums));
	if (!sums)
		return 1;
	interrupt_block(&old);
	report_summarize(r, sums);
	ret = write_results(r, sums, dir, t);
	if (report_write_exports(r, sums, dir))
		ret = 1;
	interrupt_restore(&old);
	if (!r->o->quiet)
		costs_print(stderr, &r->costs, runner_now_ns());
	if (r->o->format == FORMAT_CSV)
		report_print_csv(stdout, r, sums);
	else if (r->o->format == FORMAT_JSON)
		report_print_json(stdout, r, sums, dir);
	else if (!export_to_stdout(r->o))
		report_print_table(stdout, r, sums);
	fflush(stdout);
	runner_test_event("table");
	/* the removal waited for here, so that the results line is the last */
	runner_remove_workdir(r);
	if (!ret && r->o->format == FORMAT_TABLE && !export_to_stdout(r->o)) {
		printf("\nresults: %s/ (meta.json, runs.csv, summary.csv, syscalls.csv)\n", dir);
		if (!r->counting)
			printf("syscalls: n/a (%s)\n", r->sc_why);
	} else if (!ret && !r->o->quiet) {
		fprintf(stderr, "bench: results in %s/\n", dir);
	}
	for (size_t i = 0; i < r->ncases; i++)
		if (r->cases[i].state == CASE_FAILED)
			ret = 1;
	if (!ret && !interrupt_signal && none_could_run(r))
		ret = 2;
	if (r->o->plot && !interrupt_signal && draw_charts(dir))
		ret = ret ? ret : 1;
	free(sums);
	return ret;
}

void run_free(struct runner *r)
{
	for (size_t i = 0; i < r->ncases; i++)
		free(r->cases[i].runs);
	free(r->cases);
	free(r->datasets);
	if (r->sc)
		syscount_session_free(r->sc);
}

int run_make_dir(const struct bench_opts *o, char *made, size_t n)
{
	int err = make_dirs(o->dir, made, n);

	if (!err)
		return 0;
	fprintf(stderr, "bench: --dir '%s': %s\n", o->dir, strerror(-err));
	unmake_dirs(o->dir, made);
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
		unmake_dirs(o->dir, made);
	else
		warn_ignored(r);
	return ret;
}

int run_prepare(struct runner *r)
{
	const struct bench_opts *o = r->o;
	char made[PATH_MAX];
	uint64_t t0;
	int ret;

	r->invoked_ns = runner_now_ns();
	ret = run_preflight(r, made, sizeof(made));
	if (ret)
		return ret;
	sysinfo_collect(o->dir, &r->env);
	results_dir(r, &r->times.start, r->results, sizeof(r->results));
	show_plan(r, r->results);
	if (!o->quiet)
		warn_writeback(r);
	dataset_stop = &interrupt_signal;
	syscount_stop = &interrupt_signal;
	t0 = runner_now_ns();
	ret = ensure_datasets(r);
	r->costs.generate_ns += runner_now_ns() - t0;
	if (ret)
		return ret;
	if (runner_remove_stale_workdirs(o->dir, false, NULL))
		fprintf(stderr, "bench: removed work directories of killed runs in %s\n", o->dir);
	if (runner_make_workdir(r, o->dir)) {
		fprintf(stderr, "bench: cannot make a work directory in %s: %s\n", o->dir, strerror(errno));
		return 1;
	}
	t0 = runner_now_ns();
	prepare_cases(r);
	r->costs.prepare_ns += runner_now_ns() - t0;
	return 0;
}

/* --tune: the machine quieted for the measurement; 2 when it cannot be. */
static int tune_begin(const struct runner *r, struct tune_state *tune)
{
	char said[256];

	if (!r->o->tune)
		return 0;
	if (tune_apply(tune, said, sizeof(said))) {
		fprintf(stderr, "bench: --tune: %s\n", said);
		return 2;
	}
	progress_line(&r->progress, "bench: --tune: %s", said);
	return 0;
}

int run_measure(struct runner *r)
{
	struct tune_state tune = { 0 };
	int ret = tune_begin(r, &tune);

	if (ret)
		return ret;
	start_counting(r);
	if (runner_run_all(r) == -ENOMEM) {
		fprintf(stderr, "bench: out of memory for %zu cases\n", r->ncases);
		runner_remove_workdir(r);
		ret = 1;
		goto out_restore;
	}
	ret = finish(r, r->results, &r->times);
	if (interrupt_signal)
		ret = interrupt_exit_code();
out_restore:
	tune_restore(&tune);
	return ret;
}

/*
 * --dry-run's estimate, from the rates of estimate.h (measured here when an
 * earlier run left results, else the defaults): each case's unmeasured runs
 * (the counting run is the first warm-up) and its measured runs, and the
 * datasets made at DRY_GEN_RATE. With a budget: the minimum, up to the
 * budget when it is larger; without one: the adaptive count between its
 * least and most, 10 s of measured time capping the most (RUNS_BUDGET_NS).
 */
#define DRY_MEASURED_CAP 10.0

static unsigned dry_unmeasured(const struct bench_opts *o)
{
	return o->warmup ? o->warmup : o->syscount != SYSCOUNT_OFF;
}

/* The least and most measured runs case c gets: with a budget, the
 * minimum, and as many more as the time the minimum leaves would buy it. */
static void dry_runs(const struct runner *r, double t, double minimum, unsigned *least,
		     unsigned *most)
{
	const struct bench_opts *o = r->o;
	double extra;

	if (o->repeat) {
		*least = *most = o->repeat;
		return;
	}
	if (o->budget_s <= 0) {
		*least = 8 < o->max_runs ? 8 : o->max_runs;
		*most = t * o->max_runs > DRY_MEASURED_CAP && t > 0 ?
			(unsigned)(DRY_MEASURED_CAP / t) : o->max_runs;
		*most = *most < *least ? *least : *most;
		return;
	}
	*least = BUDGET_MIN_RUNS < o->max_runs ? BUDGET_MIN_RUNS : o->max_runs;
	extra = budget_left_s(o->budget_s, minimum, 0);
	extra = extra > 0 && t > 0 ? extra / t : 0;
	*most = extra > o->max_runs - *least ? o->max_runs : *least + (unsigned)extra;
}

static void dry_estimate(const struct runner *r, double *lo, double *hi)
{
	const struct bench_opts *o = r->o;
	double minimum = o->budget_s > 0 ? runner_budget_minimum_s(r) : 0;
	uint64_t to_make, biggest;

	space_needed(r, &to_make, &biggest);
	*lo = *hi = (double)to_make / DRY_GEN_RATE;
	if (o->budget_s > 0 && !o->repeat) {	/* the budget is the invocation's */
		*lo += minimum;
		*hi = *lo > o->budget_s ? *lo : o->budget_s;
		return;
	}
	*lo += estimate_finish_s(&r->est, 0, 0) + (o->syscount != SYSCOUNT_OFF ? ESTIMATE_COUNTERS_S : 0);
	*hi = *lo;
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		double t = estimate_run_s(&r->est, c);
		unsigned least, most;

		if (c->state == CASE_UNAVAILABLE)
			continue;
		if (runner_keeps_output(r, c))
			t += estimate_remove_s(&r->est, c->spec.files);
		dry_runs(r, t, 0, &least, &most);
		*lo += (dry_unmeasured(o) + estimate_runs(&r->est, c, least)) * t;
		*hi += (dry_unmeasured(o) + estimate_runs(&r->est, c, most)) * t;
	}
}

static void dry_duration(double s, char *out, size_t n)
{
	if (s < 90)
		snprintf(out, n, "%.0f s", s < 1 ? 1 : s);
	else if (s < 5400)
		snprintf(out, n, "%.1f min", s / 60);
	else
		snprintf(out, n, "%.1f h", s / 3600);
}

static void dry_print_cases(const struct runner *r)
{
	double minimum = r->o->budget_s > 0 ? runner_budget_minimum_s(r) : 0;

	printf("%-10s %-20s %12s %8s %6s %-5s %7s %7s %s\n", "workload", "strategy", "size", "buffer",
	       "batch", "cache", "s/run", "runs", "state");
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		char size[32], buf[32] = "-", batch[16] = "-", runs[24] = "-", cost[16] = "-";
		double t = estimate_run_s(&r->est, c);
		unsigned least, most;

		if (c->spec.files)	/* a tree: "500 x 4K", as the table says */
			dataset_size_name(c->spec.ds, size, sizeof(size));
		else
			format_size(c->spec.size, size, sizeof(size));
		if (c->spec.buffer)
			format_size(c->spec.buffer, buf, sizeof(buf));
		if (c->spec.channel)
			snprintf(batch, sizeof(batch), "%u", c->spec.batch_lines);
		if (c->state != CASE_UNAVAILABLE) {
			dry_runs(r, t, minimum, &least, &most);
			snprintf(runs, sizeof(runs), least == most ? "%u" : "%u-%u", least, most);
			snprintf(cost, sizeof(cost), "%.2f", t);
		}
		printf("%-10s %-20s %12s %8s %6s %-5s %7s %7s %s%s%s\n", c->spec.wl->name, c->spec.variant,
		       size, buf, batch, cache_mode_name(c->cache), cost, runs,
		       c->state == CASE_UNAVAILABLE ? "unavailable: " : "will run",
		       c->state == CASE_UNAVAILABLE ? c->why : "",
		       c->state != CASE_UNAVAILABLE && c->spec.command ?
		       " (a command: its form for the source, a file's or a tree's, is chosen when it runs)" : "");
	}
}

/* The rates the estimate is made of, and where they come from. */
static void dry_print_rates(const struct runner *r)
{
	const struct estimate *e = &r->est;

	printf("rates (a run's whole cost, its work around the clock included):");
	for (size_t i = 0; i < e->nrates; i++) {
		const struct estimate_rate *x = &e->rates[i];

		if (x->files_per_s > 0)
			printf(" %s %.0f files/s%s", x->workload, x->files_per_s,
			       x->runs ? "" : " (default)");
		else
			printf(" %s %.0f MiB/s%s", x->workload, x->mib_per_s,
			       x->runs ? "" : " (default)");
		if (x->retried > 0)
			printf(" (%.0f%% of its runs disturbed and run again)", 100 * x->retried);
		putchar(i + 1 < e->nrates ? ',' : '\n');
	}
	if (e->from[0])
		printf("  measured from the runs of %s\n", e->from);
	else
		printf("  the defaults: no earlier results of this host under results/ (docs/budget.md)\n");
}

static void dry_print_needs(const struct runner *r)
{
	uint64_t to_make, biggest, have = run_dir_free(r->o->dir);
	char a[64], b[32], c[32], lo_s[32], hi_s[32];
	double lo, hi;

	printf("\ndatasets in %s:\n", r->o->dir);
	for (size_t i = 0; i < r->ndatasets; i++) {
		const struct dataset *d = &r->datasets[i];
		char name[PATH_MAX];
		uint64_t one = 0, big;

		dataset_file_name(d, name, sizeof(name));
		dataset_size_name(d, a, sizeof(a));
		if (d->kind != DATASET_FILE && d->kind != DATASET_DIR) {
			struct runner one_r = *r;

			one_r.datasets = (struct dataset *)d;
			one_r.ndatasets = 1;
			space_needed(&one_r, &one, &big);
		}
		printf("  %-40s %8s  %s\n",
		       d->kind == DATASET_FILE || d->kind == DATASET_DIR ? d->path : name, a,
		       d->kind == DATASET_FILE ? "your file (--source)" :
		       d->kind == DATASET_DIR ? "your folder (--source)" : one ? "to make" : "made already");
	}
	space_needed(r, &to_make, &biggest);
	approx_size(to_make + biggest + (16u << 20), a, sizeof(a));
	approx_size(have, b, sizeof(b));
	approx_size(to_make, c, sizeof(c));
	printf("\ndisk: about %s needed in %s (%s of datasets to make, one output at a time), %s free%s\n",
	       a, r->o->dir, c, have == UINT64_MAX ? "unknown" : b,
	       have < to_make + biggest + (16u << 20) ? ": NOT ENOUGH" : "");
	dry_estimate(r, &lo, &hi);
	if (r->o->fs.n) {
		printf("filesystems: every case on each of %zu (--fs; made as root in --dir, sized from the plan)\n",
		       r->o->fs.n);
		lo *= (double)r->o->fs.n;
		hi *= (double)r->o->fs.n;
	}
	dry_duration(lo, lo_s, sizeof(lo_s));
	dry_duration(hi, hi_s, sizeof(hi_s));
	dry_print_rates(r);
	if (r->o->budget_s > 0 && !r->o->repeat && !strcmp(lo_s, hi_s))
		printf("estimated duration: about %s: the minimum of every case, more than the budget of %.0f s\n",
		       lo_s, r->o->budget_s);
	else if (!strcmp(lo_s, hi_s))
		printf("estimated duration: about %s\n", lo_s);
	else
		printf("estimated duration: %s to %s%s\n", lo_s, hi_s,
		       r->o->budget_s > 0 && !r->o->repeat ? " (the minimum of every case, then the budget)" : "");
}

/* --dry-run: parse and plan, print the cases and what the run needs; run
 * and keep nothing (a --dir made to probe in is removed again). */
int run_dry_run(struct runner *r)
{
	char made[PATH_MAX], runs[160];
	int ret = run_preflight(r, made, sizeof(made));

	if (ret)
		return ret;
	runs_per_case(r->o, runs, sizeof(runs));
	printf("bench: dry run, nothing is run: %zu cases, each %s\n\n", r->ncases, runs);
	dry_print_cases(r);
	dry_print_needs(r);
	unmake_dirs(r->o->dir, made);
	return 0;
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
