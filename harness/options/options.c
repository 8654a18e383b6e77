// SPDX-License-Identifier: MIT
/* options.c - `bench [options]`: the defaults of a run, and where each
 * option of the table (cli_table.c) lands in struct bench_opts. */
#include "options.h"
#include "dataset.h"
#include "paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static void options_defaults(struct bench_opts *o)
{
	static char default_dir[PATH_MAX];

	memset(o, 0, sizeof(*o));
	o->part_size = 10u << 20;
	o->warmup = 1;
	o->cache_warm = true;
	o->seed = 1;
	o->files = 2000;
	o->syscount = SYSCOUNT_AUTO;
	o->format = FORMAT_TABLE;
	o->command_timeout = 60;
	paths_dataset_dir(default_dir, sizeof(default_dir));
	o->dir = default_dir;
}

/* Options with no value, and the single-string ones: where each goes. */
static bool *flag_of(struct bench_opts *o, enum cli_id id)
{
	switch (id) {
	case OPT_ALL: return &o->all;
	case OPT_FSYNC: return &o->fsync;
	case OPT_DROP_CACHES: return &o->drop_caches;
	case OPT_TUNE: return &o->tune;
	case OPT_NO_LIMITS: return &o->no_limits;
	case OPT_PLOT: return &o->plot;
	case OPT_DRY_RUN: return &o->dry_run;
	case OPT_QUIET: return &o->quiet;
	case OPT_OUT_FORCE: return &o->force;
	case OPT_HELP_MARKDOWN: return &o->help_markdown;
	default: return NULL;
	}
}

static const char **string_of(struct bench_opts *o, enum cli_id id)
{
	switch (id) {
	case OPT_SOURCE: return &o->source;
	case OPT_DIR: return &o->dir;
	case OPT_OUT: return &o->out;
	case OPT_EXPORT_JSON: return &o->export_json;
	case OPT_EXPORT_CSV: return &o->export_csv;
	case OPT_EXPORT_MARKDOWN: return &o->export_markdown;
	default: return NULL;
	}
}

/* --budget DURATION: a number of seconds, minutes (m, min) or hours (h), or
 * none; budget_given marks it asked for either way. */
static int parse_budget(struct cli_parser *p, const struct cli_option *opt, const char *s,
			struct bench_opts *o)
{
	char *end;
	double d;

	o->budget_given = true;
	if (!strcmp(s, "none")) {
		o->budget_s = 0;
		return 0;
	}
	d = strtod(s, &end);
	if (end == s || !(d > 0) || d > 1e7)
		return cli_bad_value(p, opt, s, "not a duration (90s, 2m, 1h) or none");
	if (!strcmp(end, "m") || !strcmp(end, "min"))
		d *= 60;
	else if (!strcmp(end, "h"))
		d *= 3600;
	else if (*end && strcmp(end, "s"))
		return cli_bad_value(p, opt, s, "not a duration (90s, 2m, 1h) or none");
	o->budget_s = d;
	return 0;
}

/* One --command: a default's name or NAME=TEMPLATE, each name once. */
static int add_command(struct cli_parser *p, const struct cli_option *opt, const char *spec)
{
	struct bench_opts *o = p->ctx;
	struct bench_command *c = &o->commands[o->ncommands];
	char why[200];

	if (o->ncommands == OPT_LIST_MAX)
		return cli_bad_value(p, opt, spec, "too many commands");
	if (command_parse((char *)spec, c, why, sizeof(why)))
		return cli_bad_value(p, opt, spec, why);
	for (size_t i = 0; i < o->ncommands; i++)
		if (!strcmp(o->commands[i].name, c->name))
			return cli_bad_value(p, opt, spec, "a command of this name was given before");
	o->ncommands++;
	return 0;
}

static int run_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	struct bench_opts *o = p->ctx;
	bool *flag = flag_of(o, opt->id);
	const char **str = string_of(o, opt->id);

	o->given[opt->id] = true;
	if (flag)
		*flag = true;
	else if (str)
		*str = v->str;
	switch (opt->id) {
	case OPT_WORKLOAD: o->workloads = v->names; break;
	case OPT_STRATEGY: o->strategies = v->names; break;
	case OPT_DATASET: o->datasets = v->names; break;
	case OPT_FS: o->fs = v->names; break;
	case OPT_SIZE: o->sizes = v->list; break;
	case OPT_BUFFER: o->buffers = v->list; break;
	case OPT_BATCH_LINES: o->batch_lines = v->list; break;
	case OPT_PART_SIZE:
		if (v->u < DATASET_TEXT_MAX_LINE)
			return cli_bad_value(p, opt, v->str, "smaller than one line (text lines are up to 64 bytes)");
		o->part_size = v->u;
		break;
	case OPT_FS_SIZE: o->fs_size = v->u; break;
	case OPT_SEED: o->seed = v->u; break;
	case OPT_REPEAT: o->repeat = (unsigned)v->u; break;
	case OPT_MAX_RUNS: o->max_runs = (unsigned)v->u; break;
	case OPT_WARMUP: o->warmup = (unsigned)v->u; break;
	case OPT_QUEUE_DEPTH: o->queue_depth = (unsigned)v->u; break;
	case OPT_THREADS: o->threads = (unsigned)v->u; break;
	case OPT_FILES: o->files = v->u; break;
	case OPT_CACHE:
		o->cache_warm = v->choice != 1;
		o->cache_cold = v->choice != 0;
		break;
	case OPT_DESTINATION: o->destination_reused = v->choice == 1; break;
	case OPT_SYSCALLS: o->syscount = (enum syscount_method)v->choice; break;
	case OPT_FORMAT: o->format = (enum out_format)v->choice; break;
	case OPT_COMPLETION: o->completion = true; break;
	case OPT_COMMAND: return add_command(p, opt, v->str);
	case OPT_COMMAND_TIMEOUT: o->command_timeout = v->d; break;
	case OPT_BUDGET: return parse_budget(p, opt, v->str, o);
	default: break;
	}
	return 0;
}

int options_parse(int argc, char **argv, struct bench_opts *o)
{
	struct cli_parser p = { .cmd = CMD_RUN, .apply = run_apply, .ctx = o };

	int ret;

	options_defaults(o);
	o->argc = argc;
	o->argv = argv;
	ret = cli_parse(&p, argc, argv);
	if (ret)
		return ret;
	if (o->repeat && o->budget_s > 0)
		return cli_usage_error(&p, "--repeat keeps fixed counts: it takes no --budget (or --budget none)");
	if (o->all && !o->repeat && !o->budget_given) {
		o->budget_s = OPTIONS_DEFAULT_BUDGET_S;
		o->budget_default = true;
	}
	if (!o->max_runs)
		o->max_runs = o->budget_s > 0 ? OPTIONS_BUDGET_MAX_RUNS : OPTIONS_MAX_RUNS;
	return 0;
}
