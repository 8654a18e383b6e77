// SPDX-License-Identifier: MIT
/*
 * cmd_ab.c - `bench ab A B`: its command line. The comparison itself
 * (workers, rounds, verdicts) is harness/ab/ (ab.h). The options and
 * --help are the option table's (cli_table.c).
 */
#include "commands.h"
#include "ab/ab.h"
#include "host/paths.h"
#include "options/cli.h"

#include <limits.h>

/* -------------------------------------------------------- options -- */

/* One option of the table (cli_table.c, the bench ab block) into o. 0 or 2. */
static int ab_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	struct ab_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_AB_STRATEGY: o->strategies = v->names; break;
	case OPT_AB_SIZE: o->size = v->u; break;
	case OPT_AB_DATASET: dataset_kind_parse(opt->choices[v->choice], &o->kind); break;
	case OPT_AB_CACHE: o->cache = v->choice ? CACHE_COLD : CACHE_WARM; break;
	case OPT_ROUNDS: o->rounds = (unsigned)v->u; break;
	case OPT_AB_WARMUP: o->warmup = (unsigned)v->u; break;
	case OPT_AB_THRESHOLD: o->threshold = v->d; break;
	case OPT_AB_ALPHA: o->alpha = v->d; break;
	case OPT_AB_DIR: o->dir = v->str; break;
	case OPT_CSV: o->csv = v->str; break;
	case OPT_AB_FORMAT: o->markdown = v->choice == 1; break;
	case OPT_AB_SEED: o->seed = v->u; break;
	case OPT_WALL: o->wall = true; break;
	case OPT_AB_MAX_TIME: o->max_time = (unsigned)v->u; break;
	default: break;
	}
	return 0;
}

/* Fills o from argv. 0, -1 after --help or --version, or 2 after one line. */
static int ab_parse(struct ab_opts *o, int argc, char **argv)
{
	static char default_dir[PATH_MAX];
	struct cli_parser p = { .cmd = CMD_AB, .apply = ab_apply, .ctx = o, .max_operands = 2 };
	int ret;

	paths_dataset_dir(default_dir, sizeof(default_dir));
	/* every other default is its option's entry in the table */
	*o = (struct ab_opts){ .dir = default_dir };
	ret = cli_parse(&p, argc, argv);
	if (ret)
		return ret;
	if (p.noperands != 2)
		return cli_usage_error(&p, "expected two bench executables, A and B");
	o->exe[0] = p.operands[0];
	o->exe[1] = p.operands[1];
	return 0;
}

int cmd_ab(int argc, char **argv)
{
	struct ab_opts o;
	int ret = ab_parse(&o, argc, argv);

	if (ret)
		return ret < 0 ? 0 : 2;
	return ab_main(&o);
}
