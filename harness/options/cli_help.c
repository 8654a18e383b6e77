// SPDX-License-Identifier: MIT
/*
 * cli_help.c - every subcommand's --help, made from the option table
 * (cli_table.c): its usage, its options by group with their defaults, its
 * exit codes; and the list of commands in bench --help.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const char *const group_names[] = {
	"What to run (lists are comma separated; every combination is a case):",
	"How to measure:",
	"Where, and what to write:",
	"General:",
};

const char *cli_default_shown(const struct cli_option *o, char *buf, size_t n)
{
	if (o->def_text || !o->def_note)
		return o->def_text ? o->def_text : o->def;
	snprintf(buf, n, "%s; %s", o->def, o->def_note);
	return buf;
}

/* "  -s, --strategy LIST" then the help, its later lines under the first. */
static void help_option(const struct cli_option *o, FILE *f)
{
	char left[80], buf[256];
	const char *line = o->help, *def = cli_default_shown(o, buf, sizeof(buf));
	int n;

	n = snprintf(left, sizeof(left), "  %c%c%s--%s%s%s", o->short_name ? '-' : ' ',
		     o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ",
		     o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
	fprintf(f, "%s", left);
	if (n > 25)
		fprintf(f, "\n%26s", "");
	else
		fprintf(f, "%*s", 26 - n, "");
	for (;;) {
		const char *nl = strchr(line, '\n');

		n = nl ? (int)(nl - line) : (int)strlen(line);
		fprintf(f, "%.*s", n, line);
		if (!nl)
			break;
		fprintf(f, "\n%26s", "");
		line = nl + 1;
	}
	if (def && 26 + n + 12 + (int)strlen(def) > 80)
		fprintf(f, "\n%26s(default: %s)", "", def);
	else if (def)
		fprintf(f, " (default: %s)", def);
	fputc('\n', f);
}

void cli_exit_codes(enum cli_cmd cmd, FILE *f)
{
	const struct cli_command *c = cli_command_of(cmd);

	fprintf(f, "Exit status:\n"
		"  0    %s\n"
		"  1    %s\n"
		"  2    usage or input error: a bad option or value, a missing or unusable input,\n"
		"       or something asked for that cannot run here\n",
		c && c->exit0 ? c->exit0 : "success", c && c->exit1 ? c->exit1 : "a failure");
	if (c && c->exit3)
		fprintf(f, "  3    %s\n", c->exit3);
	fputs("  130  interrupted by SIGINT (143: by SIGTERM)\n", f);
}

/* CLI_HISTORY_LIST's names, synopses and summaries, in its order. */
#define CLI_HISTORY_SUB(id, name, fn, synopsis, summary) { name, synopsis, summary },
static const struct {
	const char *name, *synopsis, *summary;
} history_subs[] = {
	CLI_HISTORY_LIST(CLI_HISTORY_SUB)
};
#define HISTORY_SUB_COUNT (sizeof(history_subs) / sizeof(history_subs[0]))
/* The width the summaries of bench history --help are filled to. */
#define HISTORY_SUMMARY_WIDTH 100

/* bench history's usage: a line for each subcommand, `bench history NAME`
 * and its synopsis, whose further lines go on under its first word. */
static void history_usage(FILE *f)
{
	for (size_t i = 0; i < HISTORY_SUB_COUNT; i++) {
		int indent = fprintf(f, "%s bench history %s ", i ? "      " : "usage:",
				     history_subs[i].name);

		for (const char *s = history_subs[i].synopsis; *s; s++) {
			fputc(*s, f);
			if (*s == '\n')
				fprintf(f, "%*s", indent, "");
		}
		fputc('\n', f);
	}
}

/* bench history's "NAME: summary" for each subcommand, as many on a line
 * as fit in HISTORY_SUMMARY_WIDTH columns. */
static void history_summaries(FILE *f)
{
	size_t col = 0;

	for (size_t i = 0; i < HISTORY_SUB_COUNT; i++) {
		size_t len = strlen(history_subs[i].name) + 2 + strlen(history_subs[i].summary);

		if (col && col + 1 + len > HISTORY_SUMMARY_WIDTH) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%s%s: %s", col ? " " : "", history_subs[i].name,
			history_subs[i].summary);
		col += (col ? 1 : 0) + len;
	}
	if (col)
		fputc('\n', f);
}

void cli_usage(enum cli_cmd cmd, FILE *f)
{
	const struct cli_command *c = cli_command_of(cmd);

	if (cmd == CMD_HISTORY)
		history_usage(f);
	else if (c->usage)
		fprintf(f, "%s\n", c->usage);
	else
		fprintf(f, "usage: %s [options]\n", cli_prog(cmd));
}

/* The run's list of commands, each with its summary (CLI_COMMAND_LIST). */
static void help_commands(FILE *f)
{
	fputs("\nCommands (each takes --help):\n", f);
	for (int i = 0; i < CMD_COUNT; i++)
		if (cli_command_summary((enum cli_cmd)i))
			fprintf(f, "  %-11s %s\n", cli_command_name((enum cli_cmd)i),
				cli_command_summary((enum cli_cmd)i));
}

void cli_help_more(enum cli_cmd cmd, FILE *f)
{
	const struct cli_command *c = cli_command_of(cmd);

	if (cmd == CMD_RUN)
		help_commands(f);
	if (cmd == CMD_HISTORY)
		history_summaries(f);
	if (c->environment)
		fprintf(f, "\n%s\n", c->environment);
	if (c->operands)
		fprintf(f, "\n%s\n", c->operands);
}

void cli_help(enum cli_cmd cmd, FILE *f)
{
	const struct cli_command *c = cli_command_of(cmd);
	int group = -1;

	cli_usage(cmd, f);
	if (c->about)
		fprintf(f, "%s\n", c->about);
	cli_help_more(cmd, f);
	for (size_t i = 0; i < cli_option_count; i++) {
		const struct cli_option *o = &cli_options[i];

		if (!(o->cmds & CLI_ON(cmd)))
			continue;
		if (cmd == CMD_RUN && (int)o->group != group) {
			group = (int)o->group;
			fprintf(f, "\n%s\n", group_names[group]);
		} else if (group < 0) {
			group = 0;
			fprintf(f, "\nOptions:\n");
		}
		help_option(o, f);
	}
	fputc('\n', f);
	cli_exit_codes(cmd, f);
	if (c->epilogue)
		fprintf(f, "\n%s", c->epilogue);
}
