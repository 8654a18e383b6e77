// SPDX-License-Identifier: MIT
/*
 * cmd_columns.c - `bench columns [--markdown]`: the result columns as the
 * Markdown tables of results/README.md (columns_print_markdown, from the
 * column table); not in the usage, tools/readme-columns.sh runs it.
 */
#include "commands.h"
#include "options/cli.h"
#include "results/columns.h"

#include <stdbool.h>
#include <stdio.h>

static int columns_apply(struct cli_parser *p, const struct cli_option *opt,
			 const struct cli_value *v)
{
	(void)v;
	if (opt->id == OPT_MARKDOWN)
		*(bool *)p->ctx = true;
	return 0;
}

int cmd_columns(int argc, char **argv)
{
	bool markdown = false;
	struct cli_parser p = { .cmd = CMD_COLUMNS, .apply = columns_apply, .ctx = &markdown };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	(void)markdown;	/* Markdown is the one format: --markdown is optional */
	columns_print_markdown(stdout);
	return fflush(stdout) ? 1 : 0;
}
