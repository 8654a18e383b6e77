// SPDX-License-Identifier: MIT
/* history_synth.c - synthetic results folders and an in-process `bench history`. */
#include "history_synth.h"
#include "testutil.h"
#include "cli/commands.h"
#include "history/history.h"
#include "lib/csv.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const strat[HSYNTH_CASES] = {
	"readwrite", "sendfile", "copy_file_range", "memcpy", "splice",
};
static const double base_ns[HSYNTH_CASES] = { 1.0e6, 0.8e6, 0.7e6, 0.1e6, 0.9e6 };

char hout[65536], herr[8192];

struct hsynth hsynth_default(uint64_t seed)
{
	struct hsynth s = { .reps = 5, .seed = seed, .machine = 1, .run_noise = 0.01,
			    .jitter = 0.005, .syscall_plus = -1, .drop = -1 };

	for (int i = 0; i < HSYNTH_CASES; i++)
		s.factor[i] = 1;
	return s;
}

static uint64_t rng;

static double uniform(void)	/* [-1, 1) */
{
	return test_uniform(&rng);
}

static bool written(const struct hsynth *s, int c)
{
	return c != s->drop && (c < 4 || s->with_extra);
}

static void ids(struct csv_writer *w, int c)
{
	test_synth_ids(w, strat[c], c == 3);
}

static void env(struct csv_writer *w, const struct hsynth *s)
{
	csv_str(w, s->host ? s->host : "vm");
	csv_str(w, "6.1.0-test");
	csv_str(w, "ext4");
	csv_str(w, "Test CPU");
}

static void header(struct csv_writer *w, const char *const *mid)
{
	static const char *const id[] = { "workload", "strategy", "dataset", "size_bytes",
		"buffer_bytes", "cache", "batch_lines", "part_size", "fsync" };
	static const char *const en[] = { "host", "kernel", "fs_type", "cpu_model" };

	for (size_t i = 0; i < 9; i++)
		csv_str(w, id[i]);
	for (; *mid; mid++)
		csv_str(w, *mid);
	for (size_t i = 0; i < 4; i++)
		csv_str(w, en[i]);
	csv_end_row(w);
}

static void write_runs(const char *dir, const struct hsynth *s)
{
	static const char *const mid[] = { "rep", "wall_ns", "verified", "syscalls", NULL };
	double level[HSYNTH_CASES], shared;
	struct csv_writer w;
	char path[600];

	snprintf(path, sizeof(path), "%s/runs.csv", dir);
	CHECK(csv_open(&w, path) == 0);
	header(&w, mid);
	rng = s->seed * 0x9E3779B97F4A7C15ULL + 1;
	shared = 1 + s->run_noise * uniform();
	for (int c = 0; c < HSYNTH_CASES; c++)
		level[c] = shared * (1 + s->case_noise[c] * uniform());
	for (unsigned r = 1; r <= s->reps; r++) {
		for (int c = 0; c < HSYNTH_CASES; c++) {
			double t = base_ns[c] * s->factor[c] * s->machine * level[c] *
				   (1 + s->jitter * uniform());

			if (!written(s, c))
				continue;
			ids(&w, c);
			csv_u64(&w, r);
			csv_dbl(&w, t, 0);
			csv_u64(&w, 1);
			csv_u64(&w, 21 + (uint64_t)c + (c == s->syscall_plus));
			env(&w, s);
			csv_end_row(&w);
		}
	}
	CHECK(csv_commit(&w) == 0);
}

static void write_syscalls(const char *dir, const struct hsynth *s)
{
	static const char *const mid[] = { "rep", "syscall", "count", "method", NULL };
	struct csv_writer w;
	char path[600];

	snprintf(path, sizeof(path), "%s/syscalls.csv", dir);
	CHECK(csv_open(&w, path) == 0);
	header(&w, mid);
	for (int c = 0; c < HSYNTH_CASES; c++) {
		uint64_t rd = 9 + (uint64_t)c + (c == s->syscall_plus);

		if (!written(s, c) || c == 3)
			continue;
		for (int k = 0; k < 2; k++) {
			ids(&w, c);
			csv_u64(&w, 0);
			csv_str(&w, k ? "total" : "read");
			csv_u64(&w, k ? rd + 12 : rd);
			csv_str(&w, "perf");
			env(&w, s);
			csv_end_row(&w);
		}
	}
	CHECK(csv_commit(&w) == 0);
}

static void write_summary(const char *dir, const struct hsynth *s)
{
	static const char *const mid[] = { "runs", "verified_runs", "class", "status", NULL };
	struct csv_writer w;
	char path[600];

	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	CHECK(csv_open(&w, path) == 0);
	header(&w, mid);
	for (int c = 0; c < HSYNTH_CASES; c++) {
		if (!written(s, c))
			continue;
		ids(&w, c);
		csv_u64(&w, s->reps);
		csv_u64(&w, s->reps);
		csv_str(&w, c == 3 ? "limit" : "page-cache");
		csv_str(&w, "ok");
		env(&w, s);
		csv_end_row(&w);
	}
	CHECK(csv_commit(&w) == 0);
}

const char *hsynth_path(const char *name)
{
	static char path[4][600];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, 600, "%s/%s", test_tmpdir(), name);
	return p;
}

const char *hsynth_write(const char *name, const struct hsynth *s)
{
	const char *dir = hsynth_path(name);
	char path[700];

	mkdir(dir, 0755);
	write_runs(dir, s);
	write_syscalls(dir, s);
	write_summary(dir, s);
	if (s->meta) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/meta.json", dir);
		f = fopen(path, "w");
		CHECK(f && fputs(s->meta, f) >= 0 && fclose(f) == 0);
	}
	return dir;
}

int hrun(const char *first, ...)
{
	char *argv[40] = { "history", (char *)first };
	int argc = 2;
	va_list ap;

	va_start(ap, first);
	while (argc < 39 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	return test_cli_capture(history_cli, argc, argv, hout, sizeof(hout), herr, sizeof(herr));
}

const char *hverdict(const char *strategy)
{
	static char v[64];

	return test_csv_lookup(hout, "strategy", strategy, "verdict", v, sizeof(v));
}

const char *hslurp(const char *path, size_t *len)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return buf;
}
