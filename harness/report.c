// SPDX-License-Identifier: MIT
/*
 * report.c - turn runs into summaries and write them: runs.csv (one row per
 * measured run), summary.csv (one row per case), syscalls.csv (one row per
 * case and syscall), the terminal table and JSON. Column names are described
 * in results/README.md.
 */
#include "report.h"
#include "csv.h"
#include "units.h"
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

/* ------------------------------------------------------------ summary -- */

void report_status(const struct bench_case *c, char *out, size_t n)
{
	switch (c->state) {
	case CASE_UNAVAILABLE:
		snprintf(out, n, "unavailable: %s", c->why);
		break;
	case CASE_FAILED:
		snprintf(out, n, "failed: %s", c->why);
		break;
	default:
		snprintf(out, n, c->nruns ? "ok" : "not run");
	}
}

/* ------------------------------------------------------------ CSV ------ */

static const char *const ident_columns =
	"workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,part_size,fsync";
static const char *const env_columns = "host,kernel,fs_type,cpu_model";

static void csv_header(struct csv_writer *w, const char *middle)
{
	fprintf(w->f, "%s,%s,%s\n", ident_columns, middle, env_columns);
}

static void csv_ident(struct csv_writer *w, const struct bench_case *c)
{
	csv_str(w, c->spec.wl->name);
	csv_str(w, c->spec.variant);
	csv_str(w, dataset_kind_name(c->spec.ds->kind));
	csv_u64(w, c->spec.size);
	csv_u64(w, c->spec.buffer);
	csv_str(w, cache_mode_name(c->cache));
	csv_u64(w, c->spec.batch_lines);
	csv_u64(w, c->spec.part_size);
	csv_u64(w, c->spec.fsync);
}

static void csv_env(struct csv_writer *w, const struct sysinfo_env *env)
{
	csv_str(w, env->host);
	csv_str(w, env->kernel);
	csv_str(w, env->fs_type);
	csv_str(w, env->cpu_model);
	csv_end_row(w);
}

static void csv_opt_u64(struct csv_writer *w, bool valid, uint64_t v)
{
	if (valid)
		csv_u64(w, v);
	else
		csv_str(w, "");
}

static void write_runs(struct csv_writer *w, const struct runner *r)
{
	csv_header(w, "rep,wall_ns,user_ns,sys_ns,max_rss_kb,minflt,majflt,nvcsw,nivcsw,resident_pct,verified,syscalls");
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];

		for (size_t k = 0; k < c->nruns; k++) {
			const struct run_result *x = &c->runs[k];

			csv_ident(w, c);
			csv_u64(w, x->rep);
			csv_u64(w, x->wall_ns);
			csv_u64(w, x->user_ns);
			csv_u64(w, x->sys_ns);
			csv_i64(w, x->max_rss_kb);
			csv_i64(w, x->minflt);
			csv_i64(w, x->majflt);
			csv_i64(w, x->nvcsw);
			csv_i64(w, x->nivcsw);
			csv_dbl(w, x->resident_pct, 1);
			csv_u64(w, x->verified);
			csv_opt_u64(w, c->counts.valid, c->counts.total);
			csv_env(w, &r->env);
		}
	}
}

static void write_summary(struct csv_writer *w, const struct runner *r,
			  const struct case_summary *sums)
{
	csv_header(w, "runs,median_ns,min_ns,max_ns,mean_ns,stddev_ns,cv,mb_per_s,ratio_to_fastest,syscalls,syscalls_per_mib,user_ns,sys_ns,pct_of_limit,status,shared_extents");
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		const struct case_summary *s = &sums[i];
		char status[320];

		csv_ident(w, c);
		csv_u64(w, c->nruns);
		csv_dbl(w, s->st.median, 0);
		csv_dbl(w, s->st.min, 0);
		csv_dbl(w, s->st.max, 0);
		csv_dbl(w, s->st.mean, 0);
		csv_dbl(w, s->st.stddev, 0);
		csv_dbl(w, s->st.cv, 4);
		csv_dbl(w, s->mib_per_s, 1);
		csv_dbl(w, s->ratio, 3);
		csv_opt_u64(w, c->counts.valid, c->counts.total);
		if (c->counts.valid && c->spec.size)
			csv_dbl(w, (double)c->counts.total / ((double)c->spec.size / MIB), 3);
		else
			csv_str(w, "");
		csv_dbl(w, s->user_ns, 0);
		csv_dbl(w, s->sys_ns, 0);
		if (s->pct_of_limit >= 0)
			csv_dbl(w, s->pct_of_limit, 1);
		else
			csv_str(w, "");
		report_status(c, status, sizeof(status));
		csv_str(w, status);
		csv_u64(w, c->shared_extents);
		csv_env(w, &r->env);
	}
}

static void write_syscall_row(struct csv_writer *w, const struct runner *r,
			      const struct bench_case *c, const char *name, uint64_t n)
{
	csv_ident(w, c);
	csv_u64(w, 0);
	csv_str(w, name);
	csv_u64(w, n);
	csv_str(w, c->counts.method);
	csv_env(w, &r->env);
}

static void write_syscalls(struct csv_writer *w, const struct runner *r)
{
	csv_header(w, "rep,syscall,count,method");
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];

		if (!c->counts.valid)
			continue;
		for (size_t k = 0; k < syscount_nnames; k++)
			if (c->counts.by_name[k])
				write_syscall_row(w, r, c, syscount_names[k], c->counts.by_name[k]);
		write_syscall_row(w, r, c, "other", c->counts.other);
		write_syscall_row(w, r, c, "total", c->counts.total);
	}
}

static int write_one(const char *dir, const char *name, const struct runner *r,
		     const struct case_summary *sums,
		     void (*fill)(struct csv_writer *, const struct runner *,
				  const struct case_summary *))
{
	struct csv_writer w;
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = csv_open(&w, path);
	if (err)
		return err;
	fill(&w, r, sums);
	if (ferror(w.f)) {
		csv_abort(&w);
		return -EIO;
	}
	return csv_commit(&w);
}

static void fill_runs(struct csv_writer *w, const struct runner *r,
		      const struct case_summary *s)
{
	(void)s;
	write_runs(w, r);
}

static void fill_syscalls(struct csv_writer *w, const struct runner *r,
			  const struct case_summary *s)
{
	(void)s;
	write_syscalls(w, r);
}

int report_write_csv(const struct runner *r, const struct case_summary *sums,
		     const char *dir)
{
	int err = write_one(dir, "runs.csv", r, sums, fill_runs);

	if (!err)
		err = write_one(dir, "summary.csv", r, sums, write_summary);
	if (!err)
		err = write_one(dir, "syscalls.csv", r, sums, fill_syscalls);
	return err;
}

int report_print_csv(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	struct csv_writer w = { .f = f, .first_field = 1 };

	write_summary(&w, r, sums);
	return ferror(f) ? -EIO : 0;
}

/* ------------------------------------------------------------ JSON ----- */

void report_print_json(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	fprintf(f, "{\n  \"host\": ");
	json_str(f, r->env.host);
	fprintf(f, ", \"kernel\": ");
	json_str(f, r->env.kernel);
	fprintf(f, ", \"fs_type\": ");
	json_str(f, r->env.fs_type);
	fprintf(f, ", \"cpu_model\": ");
	json_str(f, r->env.cpu_model);
	fprintf(f, ",\n  \"cases\": [\n");
	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		const struct case_summary *s = &sums[i];
		char status[320];

		report_status(c, status, sizeof(status));
		fprintf(f, "    {\"workload\": ");
		json_str(f, c->spec.wl->name);
		fprintf(f, ", \"strategy\": ");
		json_str(f, c->spec.variant);
		fprintf(f, ", \"dataset\": \"%s\", \"size_bytes\": %llu, \"buffer_bytes\": %zu, \"cache\": \"%s\", \"batch_lines\": %u, \"part_size\": %llu, \"fsync\": %d, \"runs\": %zu, \"median_ns\": %.0f, \"min_ns\": %.0f, \"max_ns\": %.0f, \"mean_ns\": %.0f, \"stddev_ns\": %.0f, \"cv\": %.4f, \"mb_per_s\": %.1f, \"ratio_to_fastest\": %.3f, \"syscalls\": ",
			dataset_kind_name(c->spec.ds->kind), (unsigned long long)c->spec.size, c->spec.buffer,
			cache_mode_name(c->cache), c->spec.batch_lines, (unsigned long long)c->spec.part_size,
			c->spec.fsync, c->nruns, s->st.median, s->st.min, s->st.max, s->st.mean,
			s->st.stddev, s->st.cv, s->mib_per_s, s->ratio);
		if (c->counts.valid)
			fprintf(f, "%llu, \"syscalls_per_mib\": %.3f", (unsigned long long)c->counts.total,
				c->spec.size ? (double)c->counts.total / ((double)c->spec.size / MIB) : 0.0);
		else
			fprintf(f, "null, \"syscalls_per_mib\": null");
		fprintf(f, ", \"user_ns\": %.0f, \"sys_ns\": %.0f, \"pct_of_limit\": ", s->user_ns, s->sys_ns);
		if (s->pct_of_limit >= 0)
			fprintf(f, "%.1f", s->pct_of_limit);
		else
			fprintf(f, "null");
		fprintf(f, ", \"shared_extents\": %s, \"status\": ", c->shared_extents ? "true" : "false");
		json_str(f, status);
		fprintf(f, "}%s\n", i + 1 < r->ncases ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}
