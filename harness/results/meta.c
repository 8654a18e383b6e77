// SPDX-License-Identifier: MIT
/*
 * meta.c - meta.json (see meta.h): the bench that ran, the command line, the
 * times, the machine and the filesystem under --dir. One section per
 * function, in the order of the file.
 */
#include "meta.h"
#include "columns.h"
#include "host/cache.h"
#include "lib/csv.h"
#include "lib/json.h"

#include "git_describe.h"	/* generated: COPYBENCH_GIT_DESCRIBE */

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

/* Set for this file by CMakeLists.txt; defaults for a build without them. */
#ifndef COPYBENCH_BUILD_TYPE
#define COPYBENCH_BUILD_TYPE ""
#endif
#ifndef COPYBENCH_C_COMPILER
#define COPYBENCH_C_COMPILER ""
#endif
#ifndef COPYBENCH_C_FLAGS
#define COPYBENCH_C_FLAGS ""
#endif
#ifndef COPYBENCH_SANITIZERS
#define COPYBENCH_SANITIZERS ""
#endif

void meta_utc(const struct timespec *ts, char *out, size_t n)
{
	struct tm tm;
	char s[32];

	gmtime_r(&ts->tv_sec, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, n, "%.20s.%03dZ", s, (int)(ts->tv_nsec / 1000000) % 1000);
}

const char *meta_build_note(void)
{
	if (COPYBENCH_SANITIZERS[0])
		return "this bench is a sanitizer build (" COPYBENCH_SANITIZERS "): its times are not comparable with a release build's";
#ifndef __OPTIMIZE__
	return "this bench is an unoptimised build: its times are not comparable with a release build's";
#else
	return NULL;
#endif
}

/* Which bench: an AddressSanitizer or unoptimised build times differently. */
static void meta_bench(struct json_out *j)
{
	json_begin_object(j, "bench");
	json_kv_str(j, "version", COPYBENCH_VERSION);
	json_kv_str(j, "git_describe", COPYBENCH_GIT_DESCRIBE);
	json_kv_str(j, "build_type", COPYBENCH_BUILD_TYPE);
	json_kv_str(j, "sanitizers", COPYBENCH_SANITIZERS);
#ifdef __OPTIMIZE__
	json_kv_bool(j, "optimized", true);
#else
	json_kv_bool(j, "optimized", false);
#endif
#ifdef NDEBUG
	json_kv_bool(j, "assertions", false);
#else
	json_kv_bool(j, "assertions", true);
#endif
	json_kv_str(j, "compiler", COPYBENCH_C_COMPILER);
	json_kv_str(j, "c_flags", COPYBENCH_C_FLAGS);
	json_end(j);
}

/* The command line and what it does not show: the directory it ran in. */
static void meta_invocation(struct json_out *j, const struct runner *r,
			    const struct meta_times *t)
{
	char when[40], cwd[PATH_MAX];

	json_begin_inline_array(j, "command_line");
	for (int i = 0; i < r->o->argc; i++)
		json_kv_str(j, NULL, r->o->argv[i]);
	json_end(j);
	json_kv_str(j, "cwd", getcwd(cwd, sizeof(cwd)) ? cwd : "");
	json_kv_u64(j, "seed", r->o->seed);
	meta_utc(&t->start, when, sizeof(when));
	json_kv_str(j, "start_utc", when);
	meta_utc(&t->end, when, sizeof(when));
	json_kv_str(j, "end_utc", when);
	json_kv_bool(j, "interrupted", t->interrupted);
	json_kv_u64(j, "cases", r->ncases);
}

/* How system calls were counted: the method asked for, the one used. */
static void meta_syscalls(struct json_out *j, const struct runner *r)
{
	static const char *const asked[] = { "auto", "perf", "ptrace", "off" };
	const char *used = NULL;

	for (size_t i = 0; i < r->ncases && !used; i++)
		if (r->cases[i].counts.valid)
			used = r->cases[i].counts.method;
	json_begin_object(j, "syscall_counting");
	json_kv_str(j, "asked", asked[r->o->syscount]);
	if (used)
		json_kv_str(j, "used", used);
	else
		json_kv_null(j, "used");
	if (!r->counting && r->sc_why[0])
		json_kv_str(j, "why_not", r->sc_why);
	else
		json_kv_null(j, "why_not");
	json_end(j);
}

static void meta_host(struct json_out *j, const struct sysinfo_env *e)
{
	json_begin_object(j, "host");
	json_kv_str(j, "name", e->host);
	json_kv_str(j, "kernel", e->kernel);
	json_kv_str(j, "cpu_model", e->cpu_model);
	json_kv_u64(j, "ncpu", e->ncpu);
	json_kv_i64(j, "mem_total_kb", e->machine.mem_total_kb);
	json_kv_i64(j, "swap_total_kb", e->machine.swap_total_kb);
	json_end(j);
}

static void meta_filesystem(struct json_out *j, const struct sysinfo_env *e)
{
	json_begin_object(j, "filesystem");
	json_kv_str(j, "dir", e->dir);
	json_kv_str(j, "type", e->fs.type);
	json_kv_str(j, "source", e->fs.source);
	json_kv_str(j, "mount_point", e->fs.mount_point);
	json_kv_str(j, "options", e->fs.options);
	json_kv_str(j, "super_options", e->fs.super_options);
	json_kv_str(j, "dev", e->fs.dev);
	json_kv_str(j, "from", e->fs.from_mountinfo ? "mountinfo" : "statfs");
	if (e->fs.journal < 0)
		json_kv_null(j, "journal");
	else
		json_kv_bool(j, "journal", e->fs.journal);
	json_kv_bool(j, "discard", e->fs.discard);
	json_end(j);
}

/* -1 (absent) as null. */
static void kv_int_or_null(struct json_out *j, const char *key, int64_t v)
{
	if (v < 0)
		json_kv_null(j, key);
	else
		json_kv_i64(j, key, v);
}

static void kv_dbl_or_null(struct json_out *j, const char *key, double v, int decimals)
{
	if (v < 0)
		json_kv_null(j, key);
	else
		json_kv_dbl(j, key, v, decimals);
}

static void kv_tristate(struct json_out *j, const char *key, int v)
{
	if (v < 0)
		json_kv_null(j, key);
	else
		json_kv_bool(j, key, v);
}

/* The facts that make timings noisier (machine.h). */
static void meta_machine(struct json_out *j, const struct machine_facts *m)
{
	json_begin_object(j, "machine");
	json_kv_str(j, "virtualization", m->virt);
	json_kv_str(j, "hypervisor_vendor", m->hypervisor_vendor);
	json_kv_str(j, "sys_vendor", m->sys_vendor);
	json_kv_str(j, "product_name", m->product_name);
	kv_tristate(j, "hypervisor_flag", m->hypervisor_flag);
	json_kv_str(j, "container", m->container);
	kv_tristate(j, "balloon_free_page_reporting", m->balloon_free_page_reporting);
	kv_int_or_null(j, "page_reporting_order", m->page_reporting_order);
	kv_tristate(j, "free_page_reporting_active", m->free_page_reporting_active);
	json_kv_str(j, "cpufreq_governor", m->governor);
	json_kv_str(j, "cpuidle_driver", m->cpuidle_driver);
	json_kv_str(j, "transparent_hugepage", m->thp);
	json_kv_str(j, "transparent_hugepage_defrag", m->thp_defrag);
	kv_tristate(j, "damon_active", m->damon_active);
	kv_dbl_or_null(j, "first_touch_us_4k", m->first_touch.us_4k, 3);
	kv_dbl_or_null(j, "first_touch_us_huge", m->first_touch.us_huge, 3);
	json_begin_inline_array(j, "loadavg");
	for (int i = 0; i < 3; i++)
		json_kv_dbl(j, NULL, m->loadavg[i], 2);
	json_end(j);
	json_end(j);
}

/* --source: the user's file and the hash every copy was verified against. */
static void meta_source(struct json_out *j, const struct runner *r)
{
	char hash[20];

	for (size_t i = 0; i < r->ndatasets; i++) {
		const struct dataset *d = &r->datasets[i];

		if (d->kind != DATASET_FILE)
			continue;
		json_begin_object(j, "source");
		json_kv_str(j, "path", d->path);
		json_kv_u64(j, "size_bytes", d->size);
		snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)d->hash);
		json_kv_str(j, "xxh3", hash);
		json_end(j);
		return;
	}
	json_kv_null(j, "source");
}

void meta_print(FILE *f, const struct runner *r, const struct meta_times *t)
{
	struct json_out j = json_out_begin(f);

	json_kv_u64(&j, "schema_version", META_SCHEMA_VERSION);
	meta_bench(&j);
	meta_invocation(&j, r, t);
	meta_syscalls(&j, r);
	json_begin_inline_array(&j, "files");
	for (size_t i = 0; i < COLFILE_COUNT; i++)
		json_kv_str(&j, NULL, col_files[i].name);
	json_end(&j);
	meta_host(&j, &r->env);
	meta_filesystem(&j, &r->env);
	meta_machine(&j, &r->env.machine);
	meta_source(&j, r);
	json_out_end(&j);
}

bool meta_is_ours(const char *dir)
{
	static const char start[] = "{\n  \"schema_version\": ";
	char path[PATH_MAX], head[sizeof(start)] = "";
	FILE *f;
	size_t got;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT;
	got = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	return got == sizeof(head) - 1 && memcmp(head, start, got) == 0;
}

int meta_write(const char *dir, const struct runner *r, const struct meta_times *t)
{
	struct csv_writer w;	/* its temp-file-and-rename, for JSON */
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/meta.json", dir);
	err = csv_open(&w, path);
	if (err)
		return err;
	meta_print(w.f, r, t);
	if (ferror(w.f)) {
		csv_abort(&w);
		return -EIO;
	}
	return csv_commit(&w);
}
