// SPDX-License-Identifier: MIT
/* options.c - `bench [options]`: the run options that the table
 * (cli_table.c) cannot store by itself, and what follows from them. */
#include "options.h"
#include "datasets/dataset.h"
#include "host/paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* What the option table cannot say: the run's --dir is where this bench
 * keeps its datasets (paths.h). Every other default is its entry's .def,
 * stored by cli_parse(). */
static void options_defaults(struct bench_opts *o)
{
	static char default_dir[PATH_MAX];

	memset(o, 0, sizeof(*o));
	paths_dataset_dir(default_dir, sizeof(default_dir));
	o->dir = default_dir;
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

/* The run options that land in no field of their own (RUN_FIELD,
 * cli_table.c): checked, split in two, or shared with another subcommand. */
static int run_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	struct bench_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_PART_SIZE:
		if (v->u < DATASET_TEXT_MAX_LINE)
			return cli_bad_value(p, opt, v->str, "smaller than one line (text lines are up to 64 bytes)");
		break;
	case OPT_DIR: o->dir = v->str; break;
	case OPT_FSYNC: o->fsync = true; break;
	case OPT_SEED: o->seed = v->u; break;
	case OPT_QUEUE_DEPTH: o->queue_depth = (unsigned)v->u; break;
	case OPT_THREADS: o->threads = (unsigned)v->u; break;
	case OPT_CACHE:
		o->cache_warm = v->choice != 1;
		o->cache_cold = v->choice != 0;
		break;
	case OPT_DESTINATION: o->destination_reused = v->choice == 1; break;
	case OPT_COMMAND: return add_command(p, opt, v->str);
	case OPT_BUDGET: return parse_budget(p, opt, v->str, o);
	default: break;
	}
	return 0;
}

int options_parse(int argc, char **argv, struct bench_opts *o)
{
	struct cli_parser p = { .cmd = CMD_RUN, .apply = run_apply, .ctx = o, .given = o->given };
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
