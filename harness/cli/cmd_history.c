// SPDX-License-Identifier: MIT
/*
 * cmd_history.c - `bench history SUBCOMMAND`: the usage, each subcommand's
 * options and operands, parsed with the option table (cli_table.c) and
 * checked, and the dispatch to add, check, changes, plot and export (their
 * lines of CLI_HISTORY_LIST, options/cli.h), whose work is
 * harness/history/'s (history.h).
 */
#include "commands.h"
#include "history/history.h"
#include "lib/stats.h"
#include "options/cli.h"

#include <stdbool.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ add -- */

static int hadd_label(struct cli_parser *p, const struct cli_option *opt, const char *kv)
{
	struct history_add_opts *o = p->ctx;
	const char *eq = strchr(kv, '=');

	if (!eq || eq == kv)
		return cli_bad_value(p, opt, kv, "not KEY=VALUE");
	if (o->nlabels == HISTORY_MAX_LABELS)
		return cli_bad_value(p, opt, kv, "at most 32 labels");
	for (size_t i = 0; i < o->nlabels; i++)
		if (strncmp(o->label[i], kv, (size_t)(eq - kv) + 1) == 0)
			return cli_bad_value(p, opt, kv, "each key once");
	o->label[o->nlabels++] = kv;
	return 0;
}

static int hadd_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	struct history_add_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_DB: o->db = v->str; break;
	case OPT_COMMIT: o->commit = v->str; break;
	case OPT_BRANCH: o->branch = v->str; break;
	case OPT_LABEL: return hadd_label(p, opt, v->str);
	default: break;
	}
	return 0;
}

int hadd_cli(int argc, char **argv, const struct history_io *io)
{
	struct history_add_opts o = { .db = HISTORY_DEFAULT_DB };
	struct cli_parser p = { .cmd = CMD_HADD, .apply = hadd_apply, .ctx = &o, .max_operands = -1,
				.out = io->out, .err = io->err };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (!p.noperands)
		return cli_usage_error(&p, "which results folders?");
	o.dirs = p.operands;
	o.ndirs = (size_t)p.noperands;
	return history_add(&o, io);
}

/* ---------------------------------------------------------------- check -- */

static int hcheck_apply(struct cli_parser *p, const struct cli_option *opt,
		       const struct cli_value *v)
{
	struct history_check_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_DB: o->db = v->str; break;
	case OPT_HCURRENT: o->c.cur[0] = v->str; o->c.ncur = 1; break;
	case OPT_BRANCH: o->branch = v->str; break;
	case OPT_WINDOW: o->window = (int)v->u; break;
	case OPT_SPREAD: o->z = v->d; break;
	case OPT_THRESHOLD: o->c.threshold = v->d; break;
	case OPT_CHECK_FORMAT: o->c.format = (enum check_format)v->choice; break;
	case OPT_ALLOW_MISSING: o->c.allow_missing = true; break;
	case OPT_IGNORE_SYSCALLS: o->c.ignore_syscalls = true; break;
	default: break;
	}
	return 0;
}

int hcheck_cli(int argc, char **argv, const struct history_io *io)
{
	struct history_check_opts o = {
		.db = HISTORY_DEFAULT_DB, .window = 10, .z = 4,
		.c = { .threshold = 0.05, .alpha = STATS_ALPHA, .only_syscalls = true },
	};
	struct cli_parser p = { .cmd = CMD_HCHECK, .apply = hcheck_apply, .ctx = &o,
				.out = io->out, .err = io->err };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (!o.c.ncur)
		return cli_usage_error(&p, "--current DIR is required");
	return history_check(&o, io);
}

/* -------------------------------------------------------------- changes -- */

static int hchanges_apply(struct cli_parser *p, const struct cli_option *opt,
			 const struct cli_value *v)
{
	struct history_changes_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_DB: o->db = v->str; break;
	case OPT_CASE: o->f.case_glob = v->str; break;
	case OPT_BRANCH: o->f.branch = v->str; break;
	case OPT_ALPHA: o->alpha = v->d; break;
	case OPT_THRESHOLD: o->min_shift = v->d; break;
	default: break;
	}
	return 0;
}

int hchanges_cli(int argc, char **argv, const struct history_io *io)
{
	struct history_changes_opts o = { .db = HISTORY_DEFAULT_DB, .alpha = STATS_ALPHA,
					  .min_shift = 0.05 };
	struct cli_parser p = { .cmd = CMD_HCHANGES, .apply = hchanges_apply, .ctx = &o,
				.out = io->out, .err = io->err };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	return history_changes(&o, io);
}

/* ----------------------------------------------------------------- plot -- */

static int hplot_apply(struct cli_parser *p, const struct cli_option *opt,
		      const struct cli_value *v)
{
	struct history_plot_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_DB: o->db = v->str; break;
	case OPT_CASE: o->f.case_glob = v->str; break;
	case OPT_BRANCH: o->f.branch = v->str; break;
	case OPT_PLOT_OUT: o->out = v->str; break;
	default: break;
	}
	return 0;
}

int hplot_cli(int argc, char **argv, const struct history_io *io)
{
	struct history_plot_opts o = { .db = HISTORY_DEFAULT_DB, .alpha = STATS_ALPHA,
				       .min_shift = 0.05 };
	struct cli_parser p = { .cmd = CMD_HPLOT, .apply = hplot_apply, .ctx = &o,
				.out = io->out, .err = io->err };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	return history_plot(&o, io);
}

/* --------------------------------------------------------------- export -- */

static int hexport_apply(struct cli_parser *p, const struct cli_option *opt,
			const struct cli_value *v)
{
	struct history_export_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_DB: o->db = v->str; break;
	case OPT_EXPORT_OUT: o->out = v->str; break;
	case OPT_TABLE: o->table = (size_t)v->choice; break;
	default: break;
	}
	return 0;
}

int hexport_cli(int argc, char **argv, const struct history_io *io)
{
	struct history_export_opts o = { .db = HISTORY_DEFAULT_DB };
	struct cli_parser p = { .cmd = CMD_HEXPORT, .apply = hexport_apply, .ctx = &o,
				.out = io->out, .err = io->err };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (o.out && access(o.out, F_OK) == 0) {
		fprintf(io->err, "%s: %s exists; remove it or name another file\n", io->who, o.out);
		return 2;
	}
	return history_export(&o, io);
}

/* ------------------------------------------------------------- dispatch -- */

/* CLI_HISTORY_LIST (options/cli.h): each subcommand's function, in a table. */
#define HISTORY_ENTRY(id, name, fn, synopsis, summary) { name, fn },
static const struct {
	const char *name;
	int (*fn)(int argc, char **argv, const struct history_io *io);
} subcommands[] = {
	CLI_HISTORY_LIST(HISTORY_ENTRY)
};
#define NSUBCOMMANDS (sizeof(subcommands) / sizeof(subcommands[0]))

/* "add, check, ... or export" */
static void subcommand_names(FILE *f)
{
	for (size_t i = 0; i < NSUBCOMMANDS; i++)
		fprintf(f, "%s%s", !i ? "" : i + 1 < NSUBCOMMANDS ? ", " : " or ",
			subcommands[i].name);
}

int history_cli(int argc, char **argv, FILE *out, FILE *err)
{
	char who[64];

	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cli_help(CMD_HISTORY, out);
		return 0;
	}
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		fprintf(out, "bench (copybench) %s\n", COPYBENCH_VERSION);
		return 0;
	}
	for (size_t i = 0; argc >= 2 && i < NSUBCOMMANDS; i++) {
		struct history_io io = { .who = who, .out = out, .err = err };

		if (strcmp(argv[1], subcommands[i].name))
			continue;
		snprintf(who, sizeof(who), "bench history %s", subcommands[i].name);
		return subcommands[i].fn(argc - 1, argv + 1, &io);
	}
	if (argc < 2) {
		fputs("bench history: which one: ", err);
		subcommand_names(err);
		fputs("? (see bench history --help)\n", err);
	} else if (argv[1][0] == '-')
		fprintf(err, "bench history: unknown option '%s' (see bench history --help)\n", argv[1]);
	else
		fprintf(err, "bench history: unknown subcommand '%s' (see bench history --help)\n", argv[1]);
	return 2;
}

int cmd_history(int argc, char **argv)
{
	return history_cli(argc, argv, stdout, stderr);
}
