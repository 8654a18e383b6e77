// SPDX-License-Identifier: MIT
/*
 * cmd_check.c - `bench check --baseline B --current C`: load both sides,
 * compare them (check.c) and print the report (check_report.c); and
 * `bench baseline save RESULTS FILE`: write the compact baseline file to
 * commit (checkset.c). Exit codes: 0 ok, 1 regression, 2 bad input.
 */
#include "commands.h"
#include "check/check.h"
#include "lib/stats.h"
#include "options/cli.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------- options -- */

/* CI services set CI (GitHub Actions, GitLab, most others: "true"). */
static bool in_ci(void)
{
	const char *v = getenv("CI");

	return v && *v && strcmp(v, "false") && strcmp(v, "0");
}

/* One option of the table (cli_table.c) into o. 0 or 2. */
static int check_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	struct check_opts *o = p->ctx;

	switch (opt->id) {
	case OPT_BASELINE:
	case OPT_CURRENT:
		if ((opt->id == OPT_BASELINE ? o->nbase : o->ncur) == CHECK_MAX_PATHS)
			return cli_bad_value(p, opt, v->str, "more than 32 of these");
		if (opt->id == OPT_BASELINE)
			o->base[o->nbase++] = v->str;
		else
			o->cur[o->ncur++] = v->str;
		break;
	case OPT_THRESHOLD: o->threshold = v->d; break;
	case OPT_ALPHA: o->alpha = v->d; break;
	case OPT_CHECK_FORMAT: o->format = (enum check_format)v->choice; break;
	case OPT_ABSOLUTE: o->ref = REF_ABSOLUTE; break;
	case OPT_VS: o->ref = (enum check_ref)v->choice; break;
	case OPT_CI: o->ci = true; break;
	case OPT_IGNORE_SYSCALLS: o->ignore_syscalls = true; break;
	case OPT_ALLOW_MISSING: o->allow_missing = true; break;
	case OPT_ONLY_SYSCALLS: o->only_syscalls = true; break;
	case OPT_UNCORRECTED: o->uncorrected = true; break;
	default: break;
	}
	return 0;
}

/* Fills o from argv. 0, 1 for --help (usage printed), or -EINVAL. */
static int check_parse(struct check_opts *o, int argc, char **argv, FILE *out,
		       FILE *err)
{
	struct cli_parser p = { .cmd = CMD_CHECK, .apply = check_apply, .ctx = o,
				.out = out, .err = err };
	int ret;

	*o = (struct check_opts){ .threshold = 0.05, .alpha = STATS_ALPHA, .ref = REF_CASES, .ci = in_ci() };
	ret = cli_parse(&p, argc, argv);
	if (ret)
		return ret < 0 ? 1 : -EINVAL;
	if (!o->nbase || !o->ncur) {
		cli_usage_error(&p, "--baseline and --current are both required");
		return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------ CLI -- */

/* One side's paths into s. 0, or -1 after one line naming the problem. */
static int check_load_side(struct checkset *s, const char *const *paths, size_t n,
			   const char *side, FILE *err)
{
	char why[512] = "";

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		if (checkset_load_more(s, paths[i], why, sizeof(why))) {
			fprintf(err, "bench check: %s: %s\n", side, why);
			return -1;
		}
	}
	return 0;
}

/* Each baseline path on its own, when there are several: the invocations
 * whose spread widens each case's threshold (check.c). 0 or -1. */
static int check_load_invocations(struct checkset *inv, struct check_opts *o, FILE *err)
{
	if (o->nbase < 2)
		return 0;
	for (size_t i = 0; i < o->nbase; i++) {
		if (check_load_side(&inv[i], &o->base[i], 1, "baseline", err)) {
			while (i--)
				checkset_free(&inv[i]);
			return -1;
		}
	}
	o->base_inv = inv;
	o->nbase_inv = o->nbase;
	return 0;
}

static void check_free_invocations(struct checkset *inv, size_t n)
{
	for (size_t i = 0; i < n; i++)
		checkset_free(&inv[i]);
}

int check_cli(int argc, char **argv, FILE *out, FILE *err)
{
	static struct checkset inv[CHECK_MAX_PATHS];
	struct checkset bs, cs;
	struct check_report rep;
	struct check_opts o;
	int ret = 2;

	ret = check_parse(&o, argc, argv, out, err);
	if (ret)
		return ret > 0 ? 0 : 2;
	ret = 2;
	if (check_load_side(&bs, o.base, o.nbase, "baseline", err))
		return 2;
	if (check_load_side(&cs, o.cur, o.ncur, "current", err))
		goto out_free_base;
	if (!bs.n || !cs.n) {
		fprintf(err, "bench check: %s: no cases in it\n", bs.n ? o.cur[0] : o.base[0]);
		goto out_free_cur;
	}
	if (check_load_invocations(inv, &o, err))
		goto out_free_cur;
	if (check_compare(&bs, &cs, &o, &rep, err))
		goto out_free_inv;
	check_print(&rep, &o, out);
	fflush(out);
	ret = rep.exit_code;
	free(rep.rows);
out_free_inv:
	check_free_invocations(inv, o.nbase_inv);
out_free_cur:
	checkset_free(&cs);
out_free_base:
	checkset_free(&bs);
	return ret;
}

static int baseline_apply(struct cli_parser *p, const struct cli_option *opt,
			  const struct cli_value *v)
{
	(void)p, (void)opt, (void)v;
	return 0;
}

/* `bench baseline save RESULTS FILE`: 0 with *pos the operands, 1 after
 * --help, or -EINVAL. */
static int baseline_parse(int argc, char **argv, char ***pos, FILE *out, FILE *err)
{
	struct cli_parser p = { .cmd = CMD_BASELINE, .apply = baseline_apply,
				.max_operands = 3, .out = out, .err = err };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 1 : -EINVAL;
	if (p.noperands != 3 || strcmp(p.operands[0], "save")) {
		cli_usage_error(&p, "expected save RESULTS FILE");
		return -EINVAL;
	}
	*pos = p.operands;
	return 0;
}

int check_baseline_cli(int argc, char **argv, FILE *out, FILE *err)
{
	const char *results, *file;
	struct checkset s;
	char why[512] = "";
	size_t runs = 0;
	char **pos;
	int ret = baseline_parse(argc, argv, &pos, out, err);

	if (ret)
		return ret > 0 ? 0 : 2;
	results = pos[1];
	file = pos[2];
	if (checkset_load(&s, results, why, sizeof(why))) {
		fprintf(err, "bench baseline: %s\n", why);
		return 2;
	}
	ret = 2;
	if (!s.n) {
		fprintf(err, "bench baseline: %s: no cases in it\n", results);
		goto out_free;
	}
	if (checkset_save(&s, file, why, sizeof(why))) {
		fprintf(err, "bench baseline: %s\n", why);
		goto out_free;
	}
	for (size_t i = 0; i < s.n; i++)
		runs += s.c[i].nruns;
	fprintf(out, "bench baseline: saved %zu cases (%zu runs) to %s\n", s.n, runs, file);
	ret = 0;
out_free:
	checkset_free(&s);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	return check_cli(argc, argv, stdout, stderr);
}

int cmd_baseline(int argc, char **argv)
{
	return check_baseline_cli(argc, argv, stdout, stderr);
}

