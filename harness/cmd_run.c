// SPDX-License-Identifier: MIT
/*
 * cmd_run.c - `bench [options]`: plan the cases, make the datasets, run
 * every case interleaved, write results and print the table.
 */
#include "columns.h"
#include "commands.h"
#include "interrupt.h"
#include "plan.h"
#include "memstate.h"
#include "report.h"
#include "units.h"
#include "fsinfo.h"

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

		if (!dataset_foreign(&r->datasets[i], r->o->dir, path, sizeof(path)))
			continue;
		fprintf(stderr, "bench: %s exists and was not made by bench (no manifest); move it away or choose another --dir\n",
			path);
		return 1;
	}
	return 0;
}

/*
 * --out must be a directory (or not exist), and the CSV files in it, if any,
 * must be bench's own: their first line starts with bench's header.
 */
static int check_out_dir(const char *out)
{
	struct stat st;

	if (!out || stat(out, &st))
		return 0;
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "bench: --out '%s': exists and is not a directory\n", out);
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
	return 0;
}

/* Space the run needs in dir: datasets not made yet, plus the largest output. */
/* Bytes of datasets still to make, and the largest dataset (an output's size). */
static void space_needed(const struct runner *r, uint64_t *to_make, uint64_t *biggest)
{
	*to_make = *biggest = 0;
	for (size_t i = 0; i < r->ndatasets; i++) {
		struct dataset d = r->datasets[i];
		char name[PATH_MAX], path[PATH_MAX + 16];
		struct stat st;

		dataset_file_name(&d, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", r->o->dir, name);
		if (stat(path, &st) || (uint64_t)st.st_size != d.size)
			*to_make += d.size;
		if (d.size > *biggest)
			*biggest = d.size;
	}
}

static int check_free_space(const struct runner *r)
{
	uint64_t need, biggest, have;
	struct statvfs vfs;
	char a[32], b[32];

	space_needed(r, &need, &biggest);
	need += biggest + (16u << 20);
	if (statvfs(r->o->dir, &vfs) || vfs.f_blocks == 0)
		return 0;	/* no figure to judge by (ramfs reports no size) */
	have = (uint64_t)vfs.f_bavail * vfs.f_frsize;
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
	if (len >= 0 && (size_t)len < n)
		snprintf(out + len, n - (size_t)len, o->repeat ? "%u measured runs" :
			 "8 to %u measured runs (fewer for runs over 2 s; more while the median is unsettled)",
			 o->repeat ? o->repeat : o->max_runs);
}

/* The plan, before any work: cases, runs, space, where files go. */
static void show_plan(const struct runner *r)
{
	size_t unavailable = 0;
	uint64_t to_make, biggest;
	char a[32], b[32], runs[96];

	for (size_t i = 0; i < r->ncases; i++)
		unavailable += r->cases[i].state == CASE_UNAVAILABLE;
	space_needed(r, &to_make, &biggest);
	approx_size(to_make, a, sizeof(a));
	approx_size(biggest, b, sizeof(b));
	runs_per_case(r->o, runs, sizeof(runs));
	progress_line(&r->progress, "bench: %zu cases (%zu unavailable here), each %s",
		      r->ncases, unavailable, runs);
	progress_line(&r->progress, "bench: datasets in %s (%s to make), one output of up to %s at a time there",
		      r->o->dir, to_make ? a : "nothing", b);
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
		char size[32];
		int reused = 0, err;

		format_size(d->size, size, sizeof(size));
		if (r->progress.tty) {
			char what[80];

			snprintf(what, sizeof(what), "dataset %s %s: preparing", dataset_kind_name(d->kind), size);
			progress_status(&r->progress, what);
		}
		err = dataset_ensure(d, r->o->dir, &reused);
		if (!err && !reused)
			r->costs.generated_bytes += d->size;
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

static void results_dir(const struct runner *r, char *out, size_t n)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (r->o->out) {
		snprintf(out, n, "%s", r->o->out);
		return;
	}
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(out, n, "results/%s-%s", stamp, r->env.host);
}

static int write_results(struct runner *r, struct case_summary *sums, char *dir, size_t n)
{
	int err;

	char made[PATH_MAX];

	results_dir(r, dir, n);
	err = make_dirs(dir, made, sizeof(made));
	if (!err)
		err = report_write_csv(r, sums, dir);
	if (err)
		fprintf(stderr, "bench: cannot write results in %s: %s\n", dir, strerror(-err));
	return err ? 1 : 0;
}

static int finish(struct runner *r)
{
	struct case_summary *sums = calloc(r->ncases, sizeof(*sums));
	char dir[PATH_MAX];
	sigset_t old;
	int ret = 0;

	if (!sums)
		return 1;
	interrupt_block(&old);
	runner_remove_workdir(r);
	report_summarize(r, sums);
	ret = write_results(r, sums, dir, sizeof(dir));
	interrupt_restore(&old);
	if (r->o->format == FORMAT_CSV)
		report_print_csv(stdout, r, sums);
	else if (r->o->format == FORMAT_JSON)
		report_print_json(stdout, r, sums);
	else
		report_print_table(stdout, r, sums);
	if (!ret && r->o->format == FORMAT_TABLE) {
		printf("\nresults: %s/{runs,summary,syscalls}.csv\n", dir);
		if (!r->counting)
			printf("syscalls: n/a (%s)\n", r->sc_why);
	}
	for (size_t i = 0; i < r->ncases; i++)
		if (r->cases[i].state == CASE_FAILED)
			ret = 1;
	if (!r->o->quiet)
		costs_print(stderr, &r->costs, runner_now_ns());
	free(sums);
	return ret;
}

static void runner_free(struct runner *r)
{
	for (size_t i = 0; i < r->ncases; i++)
		free(r->cases[i].runs);
	free(r->cases);
	free(r->datasets);
	if (r->sc)
		syscount_session_free(r->sc);
}

int cmd_run(int argc, char **argv)
{
	struct bench_opts o;
	struct runner r = { .o = &o };
	char made[PATH_MAX];
	uint64_t t0;
	int ret, err;

	costs_begin(&r.costs, runner_now_ns());
	ret = options_parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = check_out_dir(o.out);
	if (ret)
		return ret;
	progress_init(&r.progress, o.quiet);
	err = make_dirs(o.dir, made, sizeof(made));
	if (err) {
		fprintf(stderr, "bench: --dir '%s': %s\n", o.dir, strerror(-err));
		unmake_dirs(o.dir, made);
		return 2;
	}
	ret = plan_build(&r);
	if (!ret)
		ret = check_foreign_datasets(&r);
	if (!ret)
		ret = check_free_space(&r);
	if (ret) {
		unmake_dirs(o.dir, made);
		goto out_free;
	}
	sysinfo_collect(o.dir, &r.env);
	show_plan(&r);
	if (!o.quiet)
		warn_writeback(&r);
	dataset_stop = &interrupt_signal;
	t0 = runner_now_ns();
	ret = ensure_datasets(&r);
	r.costs.generate_ns = runner_now_ns() - t0;
	if (ret)
		goto out_free;
	if (runner_remove_stale_workdirs(o.dir))
		fprintf(stderr, "bench: removed work directories of killed runs in %s\n", o.dir);
	if (runner_make_workdir(&r, o.dir)) {
		fprintf(stderr, "bench: cannot make a work directory in %s: %s\n", o.dir, strerror(errno));
		ret = 1;
		goto out_free;
	}
	t0 = runner_now_ns();
	prepare_cases(&r);
	r.costs.prepare_ns = runner_now_ns() - t0;
	start_counting(&r);
	if (runner_run_all(&r) == -ENOMEM) {
		fprintf(stderr, "bench: out of memory for %zu cases\n", r.ncases);
		runner_remove_workdir(&r);
		ret = 1;
		goto out_free;
	}
	ret = finish(&r);
	if (interrupt_signal)
		ret = interrupt_exit_code();
out_free:
	runner_remove_workdir(&r);
	runner_free(&r);
	return ret;
}
