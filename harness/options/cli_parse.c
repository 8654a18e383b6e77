// SPDX-License-Identifier: MIT
/*
 * cli_parse.c - the parser of the option table (cli_table.c): every
 * subcommand's options and one wording for each kind of mistake (the --help
 * made from the table is cli_help.c).
 */
#include "cli.h"
#include "datasets/dataset.h"
#include "lib/units.h"

#include <errno.h>
#include <math.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ kept copies -- */

/*
 * What the parser hands out beyond argv's own strings (the items of a
 * comma list, the operands) lives in copies it keeps until cli_release():
 * argv stays as it was given, since a run records it in meta.json.
 */
struct kept {
	struct kept *next;
	alignas(max_align_t) char data[];
};
static struct kept *kept_list;

static void *keep(size_t n)
{
	struct kept *k = malloc(sizeof(*k) + n);

	if (!k)
		return NULL;
	k->next = kept_list;
	kept_list = k;
	return k->data;
}

void cli_release(void)
{
	while (kept_list) {
		struct kept *k = kept_list;

		kept_list = k->next;
		free(k);
	}
}

static const struct cli_option *find_long(enum cli_cmd cmd, const char *name, size_t len)
{
	for (size_t i = 0; i < cli_option_count; i++) {
		const struct cli_option *o = &cli_options[i];

		if ((o->cmds & CLI_ON(cmd)) && strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	}
	return NULL;
}

static const struct cli_option *find_short(enum cli_cmd cmd, char c)
{
	for (size_t i = 0; i < cli_option_count; i++)
		if ((cli_options[i].cmds & CLI_ON(cmd)) && cli_options[i].short_name == c)
			return &cli_options[i];
	return NULL;
}

/* ----------------------------------------------------------- errors -- */

static FILE *err_of(const struct cli_parser *p)
{
	return p->err ? p->err : stderr;
}

int cli_bad_value(const struct cli_parser *p, const struct cli_option *opt,
		  const char *val, const char *why)
{
	fprintf(err_of(p), "%s: --%s '%s': %s\n", cli_prog(p->cmd), opt->name, val, why);
	return 2;
}

int cli_usage_error(const struct cli_parser *p, const char *what)
{
	const char *prog = cli_prog(p->cmd);

	fprintf(err_of(p), "%s: %s (see %s --help)\n", prog, what, prog);
	return 2;
}

/* "unknown option '--bogus'": the kind of mistake, then the word. 2. */
static int mistake(const struct cli_parser *p, const char *kind, const char *word)
{
	char what[512];

	snprintf(what, sizeof(what), "%s '%s'", kind, word);
	return cli_usage_error(p, what);
}

/* ------------------------------------------------------ value kinds -- */

/* "a,b,c" into l (pointers into s, which is modified). 0, -E2BIG, or
 * -EINVAL for an empty item. */
static int split_list(char *s, struct str_list *l)
{
	l->n = 0;
	for (char *item = s;;) {
		char *comma = strchr(item, ',');

		if (comma)
			*comma = '\0';
		if (!*item)
			return -EINVAL;
		if (l->n == CLI_LIST_MAX)
			return -E2BIG;
		l->v[l->n++] = item;
		if (!comma)
			return 0;
		item = comma + 1;
	}
}

static int parse_whole(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/* The items of v->str, split in a copy the parser keeps (argv untouched). */
static int value_names(const struct cli_parser *p, const struct cli_option *o,
		       struct cli_value *v)
{
	size_t len = strlen(v->str) + 1;
	char *s = keep(len);
	int err;

	if (!s)
		return cli_bad_value(p, o, v->str, strerror(ENOMEM));
	memcpy(s, v->str, len);
	err = split_list(s, &v->names);

	if (err == -E2BIG)
		return cli_bad_value(p, o, v->str, "more than 32 items");
	if (err)
		return cli_bad_value(p, o, v->str, "an empty item in the comma-separated list");
	return 0;
}

static int value_list(const struct cli_parser *p, const struct cli_option *o,
		      struct cli_value *v)
{
	int ret = value_names(p, o, v);

	for (size_t i = 0; !ret && i < v->names.n; i++) {
		const char *item = v->names.v[i];
		uint64_t *x = &v->list.v[i];

		if (o->id == OPT_SIZE && !strcmp(item, "src")) {
			*x = DATASET_SIZE_SRC;	/* trees: the source-tree size mix */
		} else if (o->arg == ARG_COUNTS) {
			if (parse_whole(item, x) || *x > 100000000)
				ret = cli_bad_value(p, o, item, "must be a whole number from 0 to 100000000");
		} else if (parse_size(item, x) == -ERANGE) {
			ret = cli_bad_value(p, o, item, "size too large");
		} else if (parse_size(item, x)) {
			ret = cli_bad_value(p, o, item, "not a size (examples: 4096, 64K, 200M, 1.5G)");
		} else if (*x == 0) {
			ret = cli_bad_value(p, o, item, "must be greater than zero");
		}
	}
	v->list.n = ret ? 0 : v->names.n;
	return ret;
}

static int value_one(const struct cli_parser *p, const struct cli_option *o, const char *s,
		     struct cli_value *v)
{
	char why[96], a[32];
	char *end;

	switch (o->arg) {
	case ARG_SIZE:
		if (parse_size(s, &v->u) || (double)v->u < o->min) {
			format_size((uint64_t)o->min, a, sizeof(a));
			if (o->min > 1)
				snprintf(why, sizeof(why), "not a size of at least %s", a);
			else
				snprintf(why, sizeof(why), "not a size greater than zero");
			return cli_bad_value(p, o, s, why);
		}
		return 0;
	case ARG_COUNT:
		if (parse_whole(s, &v->u))
			return cli_bad_value(p, o, s, "not a whole number");
		if (o->max > 0 && ((double)v->u < o->min || (double)v->u > o->max)) {
			snprintf(why, sizeof(why), "must be a whole number from %.0f to %.0f", o->min, o->max);
			return cli_bad_value(p, o, s, why);
		}
		return 0;
	case ARG_NUMBER:
	case ARG_PERCENT:
		v->d = strtod(s, &end);
		if (end == s || (*end && (o->arg != ARG_PERCENT || strcmp(end, "%"))) ||
		    !isfinite(v->d) || v->d < o->min || v->d > o->max) {
			snprintf(why, sizeof(why), o->arg == ARG_PERCENT ? "must be a percentage from %g to %g, like 5%%" :
				 "must be a number from %g to %g", o->min, o->max);
			return cli_bad_value(p, o, s, why);
		}
		if (o->arg == ARG_PERCENT)
			v->d /= 100.0;
		return 0;
	case ARG_FRACTION:
		v->d = strtod(s, &end);
		if (end == s || *end || !(v->d > 0 && v->d < 1))
			return cli_bad_value(p, o, s, "must be a number between 0 and 1");
		return 0;
	default:
		return 0;
	}
}

static int value_choice(const struct cli_parser *p, const struct cli_option *o, const char *s,
			struct cli_value *v)
{
	char why[160] = "expected ";
	size_t n = 0;

	for (; o->choices[n]; n++)
		if (!strcmp(s, o->choices[n])) {
			v->choice = (int)n;
			return 0;
		}
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(why);

		snprintf(why + len, sizeof(why) - len, "%s%s", o->choices[i],
			 i + 2 < n ? ", " : i + 2 == n ? " or " : "");
	}
	return cli_bad_value(p, o, s, why);
}

/* v into o's field of p->ctx, when the entry names one. */
static void store_value(const struct cli_parser *p, const struct cli_option *o,
			const struct cli_value *v)
{
	uint64_t u = o->arg == ARG_CHOICE ? (uint64_t)v->choice : v->u;
	char *at;

	if (o->field.store == STORE_NONE || !p->ctx)
		return;
	at = (char *)p->ctx + o->field.off;
	switch (o->field.store) {
	case STORE_NONE: break;
	case STORE_BOOL: *(bool *)at = true; break;
	case STORE_UINT: *(unsigned *)at = (unsigned)u; break;
	case STORE_U64: *(uint64_t *)at = u; break;
	case STORE_DOUBLE: *(double *)at = v->d; break;
	case STORE_STR: *(const char **)at = v->str; break;
	case STORE_NAMES: *(struct str_list *)at = v->names; break;
	case STORE_LIST: *(struct u64_list *)at = v->list; break;
	}
}

/* Parses s (argv's, left as it is) by o's kind, then stores it: in its
 * field, then by the subcommand's apply function. */
static int take_value(struct cli_parser *p, const struct cli_option *o, const char *s)
{
	struct cli_value v = { .str = s };
	int ret = 0;

	if (s && !*s)
		return cli_bad_value(p, o, s, "empty");
	switch (o->arg) {
	case ARG_NONE:
	case ARG_STRING:
		break;
	case ARG_NAMES:
	case ARG_SIZES:
	case ARG_COUNTS:
		ret = o->arg == ARG_NAMES ? value_names(p, o, &v) : value_list(p, o, &v);
		break;
	case ARG_CHOICE:
		ret = value_choice(p, o, s, &v);
		break;
	default:
		ret = value_one(p, o, s, &v);
	}
	if (!ret)
		store_value(p, o, &v);
	if (!ret && p->apply)
		ret = p->apply(p, o, &v);
	return ret;
}

/* The table's default of every option of p->cmd that has one, stored as a
 * value given on the command line would be. 0, or 2 for a default its own
 * parser refuses (a mistake in the table, named like a user's). */
static int take_defaults(struct cli_parser *p)
{
	for (size_t i = 0; i < cli_option_count; i++) {
		const struct cli_option *o = &cli_options[i];
		int ret;

		if (!(o->cmds & CLI_ON(p->cmd)) || !o->def)
			continue;
		ret = take_value(p, o, o->def);
		if (ret)
			return ret;
	}
	return 0;
}

/* ----------------------------------------------------------- parser -- */

/* -h or --help anywhere before "--": help wins, whatever else is wrong. */
static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/* argv[*i], an option: parsed and applied; *i moves past its value. 0 or 2. */
static int take_option(struct cli_parser *p, int argc, char **argv, int *i)
{
	char *a = argv[*i], *val = NULL;
	const struct cli_option *o;

	if (a[1] == '-') {
		char *eq = strchr(a + 2, '=');

		o = find_long(p->cmd, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		val = eq ? eq + 1 : NULL;
	} else {
		o = find_short(p->cmd, a[1]);
		val = a[2] ? a + 2 : NULL;
	}
	if (!o)
		return mistake(p, "unknown option", a);
	if (o->id == OPT_HELP && !val) {
		cli_help(p->cmd, p->out ? p->out : stdout);
		return -1;
	}
	if (o->arg == ARG_NONE && val) {
		char name[128];

		snprintf(name, sizeof(name), "--%s", o->name);
		return mistake(p, "no value expected for", name);
	}
	if (o->arg != ARG_NONE && !val) {
		char name[128];

		snprintf(name, sizeof(name), "--%s", o->name);
		if (*i + 1 >= argc)
			return mistake(p, "missing value for", name);
		val = argv[++*i];
	}
	if (o->id == OPT_VERSION) {
		fprintf(p->out ? p->out : stdout, "bench (copybench) %s\n", COPYBENCH_VERSION);
		return -1;
	}
	if (p->given)
		p->given[o->id] = true;
	return take_value(p, o, val);
}

int cli_parse(struct cli_parser *p, int argc, char **argv)
{
	bool operands_only = false;
	int ret;

	p->noperands = 0;
	if (wants_help(argc, argv)) {
		cli_help(p->cmd, p->out ? p->out : stdout);
		return -1;
	}
	p->operands = keep((size_t)(argc > 0 ? argc : 1) * sizeof(char *));
	if (!p->operands) {
		fprintf(err_of(p), "%s: %s\n", cli_prog(p->cmd), strerror(ENOMEM));
		return 2;
	}
	ret = take_defaults(p);
	if (ret)
		return ret;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];

		if (!operands_only && !strcmp(a, "--")) {
			operands_only = true;
		} else if (operands_only || a[0] != '-' || !a[1]) {
			if (p->max_operands >= 0 && p->noperands == p->max_operands)
				return mistake(p, "unexpected argument", a);
			p->operands[p->noperands++] = a;
		} else {
			ret = take_option(p, argc, argv, &i);
			if (ret)
				return ret;
		}
	}
	return 0;
}
