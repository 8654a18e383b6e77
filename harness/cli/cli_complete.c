// SPDX-License-Identifier: MIT
/*
 * cli_complete.c - `bench --completion bash`: the bash completion script,
 * written from the option table. The subcommand is the first word (or the
 * first two for history); after an option that takes a value, the value is
 * completed (strategy, workload and choice names, comma lists included;
 * files and folders); elsewhere the subcommand's options.
 */
#include "commands.h"
#include "datasets/dataset.h"
#include "options/cli.h"
#include "strategies/strategy.h"
#include "workloads/channels/channel.h"
#include "workloads/workload.h"

#include <string.h>

/* A subcommand's word in the script: "run", "list", "history-add". */
static void cmd_word(enum cli_cmd cmd, FILE *f)
{
	const char *name = cli_command_name(cmd);

	if (!name[0]) {
		fputs("run", f);
		return;
	}
	for (const char *s = name; *s; s++)
		fputc(*s == ' ' ? '-' : *s, f);
}

static void value_words(const struct cli_option *o, FILE *f)
{
	switch (o->complete) {
	case COMPLETE_STRATEGY:
		/* bench copy and bench ab take one strategy's name (ab: a list
		 * of them); the run also all, the channels and tree methods */
		if (o->id == OPT_STRATEGY)
			fputs("all ", f);
		for (size_t i = 0, n = 0; i < strategy_count; i++)
			if (!(strategy_table[i]->flags & STRATEGY_TEST_ONLY))
				fprintf(f, "%s%s", n++ ? " " : "", strategy_table[i]->name);
		if (o->id != OPT_STRATEGY)
			break;
		for (size_t i = 0; i < channel_count; i++)
			fprintf(f, " %s", channel_table[i]->name);
		for (size_t i = 0; i < workload_count; i++)
			for (const struct workload_variant *v = workload_table[i]->own_variants;
			     v && v->name && !(workload_table[i]->flags & WORKLOAD_LIMITS); v++)
				fprintf(f, " %s", v->name);
		break;
	case COMPLETE_WORKLOAD:
		fputs("all", f);
		for (size_t i = 0; i < workload_count; i++)
			if (!(workload_table[i]->flags & WORKLOAD_LIMITS))
				fprintf(f, " %s", workload_table[i]->name);
		break;
	default:
		for (size_t i = 0; o->choices && o->choices[i]; i++)
			fprintf(f, "%s%s", i ? " " : "", o->choices[i]);
	}
}

/* One `case` arm per option value: "run:--strategy) words ..." */
static void value_cases(FILE *f)
{
	for (int c = 0; c < CMD_COUNT; c++) {
		for (size_t j = 0; j < cli_option_count; j++) {
			const struct cli_option *o = &cli_options[j];

			if (!(o->cmds & CLI_ON(c)) || o->arg == ARG_NONE)
				continue;
			fputs("\t", f);
			cmd_word((enum cli_cmd)c, f);
			fprintf(f, ":--%s)\n\t\t", o->name);
			if (o->complete == COMPLETE_FILE)
				fputs("COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", f);
			else if (o->complete == COMPLETE_DIR)
				fputs("COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", f);
			else if (o->complete == COMPLETE_NONE)
				fputs("return ;;\n", f);
			else {
				fprintf(f, "_bench_words %d \"", o->arg == ARG_NAMES);
				value_words(o, f);
				fputs("\"; return ;;\n", f);
			}
		}
	}
}

static void option_cases(FILE *f)
{
	for (int c = 0; c < CMD_COUNT; c++) {
		fputs("\t", f);
		cmd_word((enum cli_cmd)c, f);
		fputs(") opts=\"", f);
		for (size_t j = 0, n = 0; j < cli_option_count; j++)
			if (cli_options[j].cmds & CLI_ON(c))
				fprintf(f, "%s--%s", n++ ? " " : "", cli_options[j].name);
		fputs("\" ;;\n", f);
	}
}

/* The subcommand names (of history when history), sep between them. */
static void subcommand_words(FILE *f, bool history, const char *sep)
{
	for (int i = 0, n = 0; i < CMD_COUNT; i++) {
		const char *name = cli_command_name((enum cli_cmd)i);
		bool sub = !strncmp(name, "history ", 8);

		if (!name[0] || sub != history)
			continue;
		fprintf(f, "%s%s", n++ ? sep : "", history ? name + 8 : name);
	}
}

void cli_completion_bash(FILE *f)
{
	fputs("# bash completion for bench (copybench), written by bench --completion bash\n"
	      "# _bench_words LIST WORDS: complete cur from WORDS; LIST 1: after the last comma.\n"
	      "_bench_words() {\n"
	      "\tlocal pre=\"\" w=\"$cur\"\n"
	      "\tif [ \"$1\" = 1 ] && [[ $cur == *,* ]]; then pre=\"${cur%,*},\"; w=\"${cur##*,}\"; fi\n"
	      "\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$2\" -- \"$w\"))\n"
	      "}\n"
	      "_bench() {\n"
	      "\tlocal cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
	      "\tlocal cmd=run first=\"\" opts\n"
	      "\tif [ \"$COMP_CWORD\" -gt 1 ]; then first=\"${COMP_WORDS[1]}\"; fi\n"
	      "\tcase \"$first\" in\n\t", f);
	subcommand_words(f, false, "|");
	fputs(")\n\t\tcmd=$first\n"
	      "\t\tif [ \"$first\" = history ] && [ \"$COMP_CWORD\" -gt 2 ]; then\n"
	      "\t\t\tcase \"${COMP_WORDS[2]}\" in ", f);
	subcommand_words(f, true, "|");
	fputs(") cmd=history-${COMP_WORDS[2]} ;; esac\n"
	      "\t\tfi ;;\n"
	      "\tesac\n"
	      "\tcase \"$cmd:$prev\" in\n", f);
	value_cases(f);
	fputs("\tesac\n"
	      "\tcase \"$cmd\" in\n", f);
	option_cases(f);
	fputs("\tesac\n"
	      "\tif [ \"$COMP_CWORD\" = 1 ] && [[ $cur != -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"", f);
	subcommand_words(f, false, " ");
	fputs("\" -- \"$cur\")); return\n"
	      "\tfi\n"
	      "\tif [ \"$cmd\" = history ] && [ \"$COMP_CWORD\" = 2 ] && [[ $cur != -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"", f);
	subcommand_words(f, true, " ");
	fputs("\" -- \"$cur\")); return\n"
	      "\tfi\n"
	      "\tif [ \"$cmd\" = gen ] && [ \"$COMP_CWORD\" = 2 ] && [[ $cur != -* ]]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"", f);
	for (int k = 0; k < DATASET_KIND_COUNT; k++)
		fprintf(f, "%s%s", k ? " " : "", dataset_kind_name((enum dataset_kind)k));
	fputs("\" -- \"$cur\")); return\n"
	      "\tfi\n"
	      "\tif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")); return; fi\n"
	      "\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "}\n"
	      "complete -F _bench bench\n", f);
}
