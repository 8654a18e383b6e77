// SPDX-License-Identifier: MIT
/*
 * option_defaults_from_table.c - an option's default is its entry in the
 * option table (harness/options/cli_table.c) and nowhere else: the parser
 * stores it before the command line, so `bench` with no options runs with
 * the values --help shows.
 *
 * Checked: a run parsed from no options holds each table default (and
 * marks none as given); a value on the command line replaces it and is
 * marked; every default of every subcommand parses by its own kind and is
 * stored exactly once per entry that has one; an entry with a field is on
 * one subcommand only (its field is a member of that subcommand's struct);
 * a default is a value or a text, never both, and a note needs a value.
 */
#include "options/cli.h"
#include "options/options.h"
#include "support/testutil.h"

#include <string.h>

static size_t applied;

static int count_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	(void)p;
	(void)opt;
	(void)v;
	applied++;
	return 0;
}

static void check_run_defaults(void)
{
	char *argv[] = { "bench", NULL };
	struct bench_opts o;
	size_t given = 0;

	CHECK_EQ_U64(options_parse(1, argv, &o), 0);
	CHECK_EQ_U64(o.files, 2000);
	CHECK_EQ_U64(o.part_size, 10u << 20);
	CHECK_EQ_U64(o.warmup, 1);
	CHECK_EQ_U64(o.seed, 1);
	CHECK(o.command_timeout == 60.0);
	CHECK(o.cache_warm && !o.cache_cold);
	CHECK(!o.destination_reused);
	CHECK_EQ_U64(o.syscount, SYSCOUNT_AUTO);
	CHECK_EQ_U64(o.format, FORMAT_TABLE);
	CHECK_EQ_U64(o.workloads.n + o.sizes.n + o.buffers.n, 0);
	for (size_t i = 0; i < OPT_ID_COUNT; i++)
		given += o.given[i];
	CHECK_EQ_U64(given, 0);
	cli_release();
}

static void check_given_replaces(void)
{
	char *argv[] = { "bench", "--warmup", "3", "--cache", "cold", "--format=json", NULL };
	struct bench_opts o;

	CHECK_EQ_U64(options_parse(6, argv, &o), 0);
	CHECK_EQ_U64(o.warmup, 3);
	CHECK(!o.cache_warm && o.cache_cold);
	CHECK_EQ_U64(o.format, FORMAT_JSON);
	CHECK(o.given[OPT_WARMUP] && o.given[OPT_CACHE] && o.given[OPT_FORMAT]);
	CHECK(!o.given[OPT_FILES] && !o.given[OPT_SEED]);
	cli_release();
}

/* Every subcommand's defaults parse, each stored once. */
static void check_every_default_parses(void)
{
	char *argv[] = { "bench", NULL };

	for (int cmd = 0; cmd < CMD_COUNT; cmd++) {
		struct bench_opts o = { 0 };
		struct cli_parser p = { .cmd = (enum cli_cmd)cmd, .apply = count_apply, .ctx = &o,
					.max_operands = -1 };
		size_t want = 0;

		for (size_t i = 0; i < cli_option_count; i++)
			want += (cli_options[i].cmds & CLI_ON(cmd)) && cli_options[i].def;
		applied = 0;
		CHECK_EQ_U64(cli_parse(&p, 1, argv), 0);
		CHECK_EQ_U64(applied, want);
	}
	cli_release();
}

static void check_entries(void)
{
	for (size_t i = 0; i < cli_option_count; i++) {
		const struct cli_option *o = &cli_options[i];

		if (o->field.store != STORE_NONE)
			CHECK_EQ_U64(__builtin_popcount(o->cmds), 1);
		CHECK(!(o->def && o->def_text));
		CHECK(!o->def_note || o->def);
	}
}

int main(void)
{
	check_run_defaults();
	check_given_replaces();
	check_every_default_parses();
	check_entries();
	return test_report("option_defaults_from_table");
}
