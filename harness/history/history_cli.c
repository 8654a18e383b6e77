// SPDX-License-Identifier: MIT
/*
 * cmd_history.c - `bench history SUBCOMMAND`: the usage, the dispatch to
 * add, check, changes, plot and export, and the option helpers they share.
 * Each subcommand parses its own options (getopt_long, --db among them).
 */
#include "history.h"
#include "history_internal.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void history_usage(FILE *f)
{
	fputs("usage: bench history add DIR... [--commit SHA] [--branch NAME] [--label K=V]...\n"
	      "       bench history check --current DIR [--branch NAME] [--window 10] [--threshold 5%]\n"
	      "                           [--alpha 0.01] [--allow-missing] [--format table|markdown|csv|json]\n"
	      "       bench history changes [--case GLOB] [--branch NAME] [--alpha 0.01] [--threshold 5%]\n"
	      "       bench history plot [--case GLOB] [--branch NAME] [--out DIR]\n"
	      "       bench history export [--format csv] [--table samples|syscalls|runs] [--out FILE]\n"
	      "Every subcommand takes --db FILE (default " HISTORY_DEFAULT_DB ").\n"
	      "add: results folders into the history (each once), commit and branch from git unless given.\n"
	      "check: each case of DIR against its last N runs on the same host, kernel, filesystem and build.\n"
	      "changes: the commits where a case's level shifted. plot: median MiB/s over commits, per workload.\n"
	      "Exit: 0 ok, 1 a regression or changed system calls (check) or a failure, 2 bad input.\n", f);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv, const struct history_io *io);
} subcommands[] = {
	{ "add", history_add_cli },
	{ "changes", history_changes_cli },
	{ "check", history_check_cli },
	{ "export", history_export_cli },
	{ "plot", history_plot_cli },
};

int history_cli(int argc, char **argv, FILE *out, FILE *err)
{
	char who[64];

	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		history_usage(out);
		return 0;
	}
	for (size_t i = 0; argc >= 2 && i < sizeof(subcommands) / sizeof(subcommands[0]); i++) {
		struct history_io io = { .who = who, .out = out, .err = err };

		if (strcmp(argv[1], subcommands[i].name))
			continue;
		snprintf(who, sizeof(who), "bench history %s", subcommands[i].name);
		return subcommands[i].fn(argc - 1, argv + 1, &io);
	}
	if (argc < 2)
		fprintf(err, "bench history: which one: add, check, changes, plot or export? (see bench history --help)\n");
	else
		fprintf(err, "bench history: unknown subcommand '%s' (see bench history --help)\n", argv[1]);
	return 2;
}

int cmd_history(int argc, char **argv)
{
	return history_cli(argc, argv, stdout, stderr);
}

/* ------------------------------------------------------------ options -- */

/* An option getopt refused (unknown, or without its value). 2. */
int history_bad_option(int opt, const struct option *opts, char **argv,
		       const struct history_io *io)
{
	if (opt == ':') {
		for (const struct option *o = opts; o->name; o++)
			if (o->val == optopt)
				fprintf(io->err, "%s: --%s needs a value\n", io->who, o->name);
		return 2;
	}
	fprintf(io->err, "%s: unknown option '%s' (see bench history --help)\n", io->who, argv[optind - 1]);
	return 2;
}

/* An argument where none belongs. 2. */
int history_unexpected(const char *arg, const struct history_io *io)
{
	fprintf(io->err, "%s: unexpected argument '%s' (see bench history --help)\n", io->who, arg);
	return 2;
}

/* The line for a bad option value. 2. */
int history_bad_value(const char *opt, const char *val, const char *what,
		      const struct history_io *io)
{
	fprintf(io->err, "%s: bad value '%s' for --%s (%s)\n", io->who, val, opt, what);
	return 2;
}

/* --help: the usage on out. 0. */
int history_help(const struct history_io *io)
{
	history_usage(io->out);
	return 0;
}

int history_parse_pct(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !isfinite(v) || v < 0 || v > 1000)
		return -EINVAL;
	*out = v / 100.0;
	return 0;
}

int history_parse_alpha(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0 && v < 1))
		return -EINVAL;
	*out = v;
	return 0;
}
