// SPDX-License-Identifier: MIT
/*
 * run_steps.c - the steps of `bench [options]` (run.h) after its checks
 * (run_preflight.c): show the plan, make the datasets, run every case
 * interleaved, write results and print the table. cmd_run.c takes them
 * once; `bench --fs` (run_fs.c) once per filesystem.
 */
#include "commands.h"
#include "run_internal.h"
#include "host/interrupt.h"
#include "host/memstate.h"
#include "host/tune.h"
#include "lib/fsinfo.h"
#include "lib/ranktest.h"
#include "lib/stats.h"
#include "plot/plot.h"
#include "results/columns.h"
#include "results/meta.h"
#include "results/report.h"
#include "run/budget.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/* "1 counting run (the warm-up), 5 measured": the runs of each case. */
void run_runs_per_case(const struct bench_opts *o, char *out, size_t n)
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
			 STATS_TEXT(OPTIONS_RUNS_MIN) " to %u measured runs (fewer for runs over "
			 STATS_TEXT(OPTIONS_SLOW_RUN_S) " s; more while the median is unsettled)",
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
	run_space_needed(r, &to_make, &biggest);
	run_approx_size(to_make, a, sizeof(a));
	run_approx_size(biggest, b, sizeof(b));
	run_runs_per_case(r->o, runs, sizeof(runs));
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
	run_approx_size(biggest, a, sizeof(a));
	run_approx_size(limit, b, sizeof(b));
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
	err = fs_make_dirs(dir, made, sizeof(made));
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
