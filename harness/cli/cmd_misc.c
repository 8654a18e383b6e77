// SPDX-License-Identifier: MIT
/* cmd_misc.c - `bench list`, `bench gen`, `bench evict`. */
#include "commands.h"
#include "datasets/dataset.h"
#include "host/cache.h"
#include "host/interrupt.h"
#include "lib/json.h"
#include "lib/units.h"
#include "options/cli.h"
#include "options/command.h"
#include "results/meta.h"
#include "strategies/strategy.h"
#include "workloads/channels/channel.h"
#include "workloads/workload.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void list_strategies(const char *dir)
{
	char why[200];

	printf("strategies (workloads copy, split and tree; probed on files in %s):\n", dir);
	for (size_t i = 0; i < strategy_count; i++) {
		const struct copy_strategy *s = strategy_table[i];

		if (s->flags & STRATEGY_TEST_ONLY)
			continue;
		printf("  %-16s %-11s %s\n", s->name,
		       strategy_probe(s, dir, why, sizeof(why)) ? "unavailable" : "available",
		       s->description);
		if (why[0])
			printf("  %-16s %-11s unavailable: %s\n", "", "", why);
		printf("  %-16s %-11s syscalls: %s\n", "", "", s->syscalls);
	}
}

static void list_channels(void)
{
	char why[200];

	printf("\nchannels (workload transform):\n");
	for (size_t i = 0; i < channel_count; i++) {
		const struct channel *ch = channel_table[i];
		int err = channel_probe(ch, why, sizeof(why));

		printf("  %-16s %-11s %s\n", ch->name, err ? "unavailable" : "available",
		       ch->description);
		if (err)
			printf("  %-16s %-11s unavailable: %s\n", "", "", why);
		printf("  %-16s %-11s syscalls: %s\n", "", "", ch->syscalls);
	}
}

/* Can a workload's own variant (a tree method) run on files in dir? */
static bool variant_available(const struct workload_variant *v, const char *dir, char *why,
			      size_t n)
{
	why[0] = '\0';
	return !v->probe || !v->probe(v, dir, why, n);
}

/* The methods a workload brings itself (tree: uring, pool, inode-order...),
 * selected by --strategy like the strategies; the limit rows are not. */
static void list_methods(const char *dir)
{
	char why[200];

	for (size_t i = 0; i < workload_count; i++) {
		const struct workload *wl = workload_table[i];

		if (!wl->own_variants || (wl->flags & WORKLOAD_LIMITS))
			continue;
		printf("\nmethods of workload %s (--strategy NAME; probed in %s):\n", wl->name, dir);
		for (const struct workload_variant *v = wl->own_variants; v->name; v++) {
			bool ok = variant_available(v, dir, why, sizeof(why));

			printf("  %-16s %-11s %s\n", v->name, ok ? "available" : "unavailable",
			       v->description);
			if (!ok)
				printf("  %-16s %-11s unavailable: %s\n", "", "", why);
		}
	}
}

static void list_json_methods(struct json_out *j, const char *dir)
{
	char why[200];

	json_begin_array(j, "methods");
	for (size_t i = 0; i < workload_count; i++) {
		const struct workload *wl = workload_table[i];

		if (!wl->own_variants || (wl->flags & WORKLOAD_LIMITS))
			continue;
		for (const struct workload_variant *v = wl->own_variants; v->name; v++) {
			bool ok = variant_available(v, dir, why, sizeof(why));

			json_begin_inline_object(j, NULL);
			json_kv_str(j, "name", v->name);
			json_kv_str(j, "workload", wl->name);
			json_kv_bool(j, "available", ok);
			json_kv_str(j, "why", ok ? "" : why);
			json_kv_str(j, "description", v->description);
			json_end(j);
		}
	}
	json_end(j);
}

/* The workloads --command rows run for, "copy, tree", into out. */
static void command_workloads(char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < workload_count && len < n; i++)
		if (workload_table[i]->flags & WORKLOAD_COMMANDS)
			len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "",
						workload_table[i]->name);
}

/* Can a default run here? Its first template's program is looked up. */
static bool command_available(const struct bench_command *c, char *why, size_t n)
{
	why[0] = '\0';
	return !command_probe(c->file_template ? c->file_template : c->tree_template, why, n);
}

static void list_commands(void)
{
	char why[200], wls[128];

	command_workloads(wls, sizeof(wls));
	printf("\ncommands (--command NAME, or NAME='program {src} {dst}'; whole processes, for workloads %s):\n",
	       wls);
	for (size_t i = 0; i < command_default_count; i++) {
		const struct bench_command *c = &command_defaults[i];
		bool ok = command_available(c, why, sizeof(why));

		printf("  %-16s %-11s %s\n", c->name, ok ? "available" : "unavailable", c->description);
		if (!ok)
			printf("  %-16s %-11s unavailable: %s\n", "", "", why);
		if (c->file_template)
			printf("  %-16s %-11s a file: %s\n", "", "", c->file_template);
		if (c->tree_template)
			printf("  %-16s %-11s a tree: %s\n", "", "", c->tree_template);
	}
}

static void list_json_commands(struct json_out *j)
{
	char why[200];

	json_begin_array(j, "commands");
	for (size_t i = 0; i < command_default_count; i++) {
		const struct bench_command *c = &command_defaults[i];
		bool ok = command_available(c, why, sizeof(why));

		json_begin_inline_object(j, NULL);
		json_kv_str(j, "name", c->name);
		json_kv_bool(j, "available", ok);
		json_kv_str(j, "why", ok ? "" : why);
		json_kv_str(j, "file", c->file_template ? c->file_template : "");
		json_kv_str(j, "tree", c->tree_template ? c->tree_template : "");
		json_kv_str(j, "description", c->description);
		json_end(j);
	}
	json_end(j);
}

static void list_json(const char *dir)
{
	struct json_out j = json_out_begin(stdout);
	char why[200];

	json_kv_u64(&j, "schema_version", META_SCHEMA_VERSION);
	json_kv_str(&j, "dir", dir);
	json_begin_array(&j, "strategies");
	for (size_t i = 0; i < strategy_count; i++) {
		const struct copy_strategy *s = strategy_table[i];
		bool ok;

		if (s->flags & STRATEGY_TEST_ONLY)
			continue;
		ok = !strategy_probe(s, dir, why, sizeof(why));
		json_begin_inline_object(&j, NULL);
		json_kv_str(&j, "name", s->name);
		json_kv_bool(&j, "available", ok);
		json_kv_str(&j, "why", ok ? "" : why);
		json_kv_str(&j, "syscalls", s->syscalls);
		json_kv_str(&j, "description", s->description);
		json_end(&j);
	}
	json_end(&j);
	json_begin_array(&j, "channels");
	for (size_t i = 0; i < channel_count; i++) {
		const struct channel *ch = channel_table[i];
		bool ok = !channel_probe(ch, why, sizeof(why));

		json_begin_inline_object(&j, NULL);
		json_kv_str(&j, "name", ch->name);
		json_kv_bool(&j, "available", ok);
		json_kv_str(&j, "why", ok ? "" : why);
		json_kv_str(&j, "syscalls", ch->syscalls);
		json_kv_str(&j, "description", ch->description);
		json_end(&j);
	}
	json_end(&j);
	json_begin_array(&j, "workloads");
	for (size_t i = 0; i < workload_count; i++) {
		json_begin_inline_object(&j, NULL);
		json_kv_str(&j, "name", workload_table[i]->name);
		json_kv_bool(&j, "available", true);
		json_kv_str(&j, "description", workload_table[i]->description);
		json_end(&j);
	}
	json_end(&j);
	list_json_methods(&j, dir);
	list_json_commands(&j);
	json_out_end(&j);
}

struct list_opts {
	const char *dir;
	bool json;
};

static int list_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	struct list_opts *o = p->ctx;

	if (opt->id == OPT_LIST_DIR)
		o->dir = v->str;
	else if (opt->id == OPT_LIST_FORMAT)
		o->json = v->choice == 1;
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { 0 };	/* defaults: the option table's */
	struct cli_parser p = { .cmd = CMD_LIST, .apply = list_apply, .ctx = &o };
	struct stat st;
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (stat(o.dir, &st) || (S_ISDIR(st.st_mode) && access(o.dir, W_OK | X_OK)))
		return cli_bad_value(&p, cli_option_of(CMD_LIST, OPT_LIST_DIR), o.dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_bad_value(&p, cli_option_of(CMD_LIST, OPT_LIST_DIR), o.dir, "not a folder");
	if (o.json) {
		list_json(o.dir);
		return 0;
	}
	list_strategies(o.dir);
	list_channels();
	list_methods(o.dir);
	list_commands();
	printf("\nworkloads:\n");
	for (size_t i = 0; i < workload_count; i++)
		printf("  %-16s %s\n", workload_table[i]->name, workload_table[i]->description);
	return 0;
}

struct gen_opts {
	uint64_t seed;
	bool force;
};

static int gen_apply(struct cli_parser *p, const struct cli_option *opt, const struct cli_value *v)
{
	struct gen_opts *o = p->ctx;

	if (opt->id == OPT_SEED)
		o->seed = v->u;
	else if (opt->id == OPT_FORCE)
		o->force = true;
	return 0;
}

int cmd_gen(int argc, char **argv)
{
	struct gen_opts o = { 0 };	/* defaults: the option table's */
	struct cli_parser p = { .cmd = CMD_GEN, .apply = gen_apply, .ctx = &o, .max_operands = 3 };
	enum dataset_kind kind;
	uint64_t size, hash;
	struct stat st;
	const char *file;
	int err = cli_parse(&p, argc, argv);

	if (err)
		return err < 0 ? 0 : err;
	if (p.noperands != 3)
		return cli_usage_error(&p, "expected KIND SIZE FILE");
	file = p.operands[2];
	if (dataset_kind_parse(p.operands[0], &kind)) {
		fprintf(stderr, "bench gen: unknown dataset kind '%s' (known: random, text, zero, sparse)\n",
			p.operands[0]);
		return 2;
	}
	if (parse_size(p.operands[1], &size)) {
		fprintf(stderr, "bench gen: '%s' is not a size (examples: 4096, 64K, 200M, 1.5G)\n",
			p.operands[1]);
		return 2;
	}
	if (lstat(file, &st) == 0 && (!o.force || !S_ISREG(st.st_mode))) {
		fprintf(stderr, "bench gen: %s exists; %s\n", file,
			S_ISREG(st.st_mode) ? "use --force to replace it" : "it is not a regular file");
		return 1;
	}
	err = dataset_generate(kind, size, o.seed, file, &hash);
	if (err) {
		fprintf(stderr, "bench gen: %s: %s\n", file, strerror(-err));
		return 1;
	}
	printf("%s %s %llu bytes seed %llu xxh3 %016llx\n", file,
	       dataset_kind_name(kind), (unsigned long long)size,
	       (unsigned long long)o.seed, (unsigned long long)hash);
	return 0;
}

/* Evicts one file; 0, or 1 (stays resident, or fails) or 2 (missing) with
 * the reason on stderr. */
static int evict_one(const char *path)
{
	double pct;
	int err = cache_set(path, CACHE_COLD, false, &pct);

	if (err) {
		fprintf(stderr, "bench evict: %s: %s\n", path, strerror(-err));
		return err == -ENOENT || err == -EACCES ? 2 : 1;	/* an unusable input */
	}
	if (!cache_state_ok(CACHE_COLD, pct)) {
		fprintf(stderr, "bench evict: %s: still %.0f%% resident (tmpfs cannot evict)\n",
			path, pct);
		return 1;
	}
	return 0;
}

static int evict_apply(struct cli_parser *p, const struct cli_option *opt,
		       const struct cli_value *v)
{
	(void)p, (void)opt, (void)v;
	return 0;
}

int cmd_evict(int argc, char **argv)
{
	struct cli_parser p = { .cmd = CMD_EVICT, .apply = evict_apply, .max_operands = -1 };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (!p.noperands)
		return cli_usage_error(&p, "which files?");
	for (int i = 0; i < p.noperands; i++) {
		int one = evict_one(p.operands[i]);

		ret = one > ret ? one : ret;
	}
	return ret;
}
