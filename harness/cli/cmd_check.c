// SPDX-License-Identifier: MIT
/*
 * cmd_check.c - `bench check --baseline B --current C`: load both sides,
 * compare them (check.c) and print the report (check_report.c); and
 * `bench baseline save RESULTS FILE`: write the compact baseline file to
 * commit (checkset.c). Exit codes: 0 ok, 1 regression, 2 bad input.
 */
#include "check.h"
#include "check_internal.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------- options -- */

static void check_usage(FILE *f)
{
	fputs("usage: bench check --baseline BASE... --current CUR... [--threshold 5%] [--alpha 0.01]\n"
	      "                   [--vs cases|memcpy|absolute] [--absolute] [--ci]\n"
	      "                   [--only-syscalls] [--ignore-syscalls] [--allow-missing]\n"
	      "                   [--uncorrected] [--format table|csv|json|markdown]\n"
	      "BASE and CUR: a results folder, a runs.csv or a baseline file (bench baseline save);\n"
	      "repeat --baseline or --current to read several: cases of other hosts, kernels or\n"
	      "filesystems are kept apart, and matched to the same ones on the other side.\n"
	      "Several --baseline invocations (folders) of the same cases: each case's threshold\n"
	      "widens to the drift between them (a 99 % prediction bound); with one per side\n"
	      "the report says what drift the largest change would need to stand out.\n"
	      "A case regresses when its runs are slower (Mann-Whitney, Holm over all cases, alpha)\n"
	      "by more than its threshold (--threshold, or twice its robust spread when wider),\n"
	      "relative to the other cases' common change (--vs cases, default) and in plain time.\n"
	      "--ci (or the environment variable CI set, as CI services do): a comparison that\n"
	      "cannot reach significance with the runs recorded is an error, exit 2.\n"
	      "Exit: 0 no regression, 1 a regression, a failed case or changed or missing system\n"
	      "calls, 2 bad input or (in CI) a comparison that cannot reach significance.\n", f);
}

static int parse_threshold(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || (*end && strcmp(end, "%")) || !isfinite(v) || v < 0 || v > 1000)
		return -EINVAL;
	*out = v / 100.0;
	return 0;
}

static int parse_alpha(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0 && v < 1))
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_ref(const char *s, enum check_ref *r)
{
	static const char *const names[] = { "cases", "memcpy", "absolute" };

	for (size_t i = 0; i < 3; i++) {
		if (strcmp(s, names[i]) == 0) {
			*r = (enum check_ref)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* CI services set CI (GitHub Actions, GitLab, most others: "true"). */
static bool in_ci(void)
{
	const char *v = getenv("CI");

	return v && *v && strcmp(v, "false") && strcmp(v, "0");
}

enum {
	OPT_BASELINE = 256, OPT_CURRENT, OPT_THRESHOLD, OPT_ALPHA, OPT_FORMAT,
	OPT_ABSOLUTE, OPT_IGNORE_SYSCALLS, OPT_ALLOW_MISSING, OPT_ONLY_SYSCALLS,
	OPT_UNCORRECTED, OPT_VS, OPT_CI,
};

static const struct option check_long_opts[] = {
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "current", required_argument, NULL, OPT_CURRENT },
	{ "threshold", required_argument, NULL, OPT_THRESHOLD },
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "absolute", no_argument, NULL, OPT_ABSOLUTE },
	{ "ignore-syscalls", no_argument, NULL, OPT_IGNORE_SYSCALLS },
	{ "allow-missing", no_argument, NULL, OPT_ALLOW_MISSING },
	{ "only-syscalls", no_argument, NULL, OPT_ONLY_SYSCALLS },
	{ "uncorrected", no_argument, NULL, OPT_UNCORRECTED },
	{ "vs", required_argument, NULL, OPT_VS },
	{ "ci", no_argument, NULL, OPT_CI },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The long name of option value opt, for messages. */
static const char *check_opt_name(int opt)
{
	for (const struct option *l = check_long_opts; l->name; l++)
		if (l->val == opt)
			return l->name;
	return "?";
}

/* One option; -EINVAL after saying why on err. */
static int check_opt(struct check_opts *o, int opt, const char *val, FILE *err)
{
	int bad = 0;

	switch (opt) {
	case OPT_BASELINE:
	case OPT_CURRENT:
		if ((opt == OPT_BASELINE ? o->nbase : o->ncur) == CHECK_MAX_PATHS) {
			fprintf(err, "bench check: more than %d --%s\n", CHECK_MAX_PATHS, check_opt_name(opt));
			return -EINVAL;
		}
		if (opt == OPT_BASELINE)
			o->base[o->nbase++] = val;
		else
			o->cur[o->ncur++] = val;
		break;
	case OPT_THRESHOLD: bad = parse_threshold(val, &o->threshold); break;
	case OPT_ALPHA: bad = parse_alpha(val, &o->alpha); break;
	case OPT_FORMAT: bad = check_parse_format(val, &o->format); break;
	case OPT_ABSOLUTE: o->ref = REF_ABSOLUTE; break;
	case OPT_VS: bad = parse_ref(val, &o->ref); break;
	case OPT_CI: o->ci = true; break;
	case OPT_IGNORE_SYSCALLS: o->ignore_syscalls = true; break;
	case OPT_ALLOW_MISSING: o->allow_missing = true; break;
	case OPT_ONLY_SYSCALLS: o->only_syscalls = true; break;
	case OPT_UNCORRECTED: o->uncorrected = true; break;
	}
	if (bad)
		fprintf(err, "bench check: bad value '%s' for --%s (threshold: a percentage 0-1000 like 5%%; alpha: between 0 and 1; vs: cases, memcpy or absolute; format: table, csv, json or markdown)\n", val, check_opt_name(opt));
	return bad ? -EINVAL : 0;
}

/* An option getopt refused: unknown, or without its value. -EINVAL. */
static int check_bad_option(int opt, char **argv, FILE *err)
{
	if (opt == ':')
		fprintf(err, "bench check: --%s needs a value\n", check_opt_name(optopt));
	else
		fprintf(err, "bench check: unknown option '%s' (see bench check --help)\n", argv[optind - 1]);
	return -EINVAL;
}

/* Fills o from argv. 0, 1 for --help (usage printed), or -EINVAL. */
static int check_parse(struct check_opts *o, int argc, char **argv, FILE *out,
		       FILE *err)
{
	int opt;

	*o = (struct check_opts){ .threshold = 0.05, .alpha = 0.01, .ref = REF_CASES, .ci = in_ci() };
	opterr = 0;
	optind = 0;	/* 0, not 1: glibc then forgets a half-read "-abc" */
	while ((opt = getopt_long(argc, argv, ":h", check_long_opts, NULL)) != -1) {
		if (opt == 'h') {
			check_usage(out);
			return 1;
		}
		if (opt == '?' || opt == ':')
			return check_bad_option(opt, argv, err);
		if (check_opt(o, opt, optarg, err))
			return -EINVAL;
	}
	if (optind < argc) {
		fprintf(err, "bench check: unexpected argument '%s' (see bench check --help)\n", argv[optind]);
		return -EINVAL;
	}
	if (!o->nbase || !o->ncur) {
		fprintf(err, "bench check: --baseline and --current are both required (see bench check --help)\n");
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

/* `bench baseline save RESULTS FILE`: 0, 1 after --help, or -EINVAL. */
static int baseline_parse(int argc, char **argv, FILE *out, FILE *err)
{
	static const struct option long_opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		if (opt != 'h')
			break;
		fputs("usage: bench baseline save RESULTS FILE\n"
		      "RESULTS: a results folder, a runs.csv or a baseline file. FILE: the baseline to commit.\n", out);
		return 1;
	}
	if (opt != -1 || argc - optind != 3 || strcmp(argv[optind], "save")) {
		fprintf(err, "bench baseline: usage: bench baseline save RESULTS FILE\n");
		return -EINVAL;
	}
	return 0;
}

int check_baseline_cli(int argc, char **argv, FILE *out, FILE *err)
{
	const char *results, *file;
	struct checkset s;
	char why[512] = "";
	size_t runs = 0;
	int ret = baseline_parse(argc, argv, out, err);

	if (ret)
		return ret > 0 ? 0 : 2;
	results = argv[optind + 1];
	file = argv[optind + 2];
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

