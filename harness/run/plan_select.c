// SPDX-License-Identifier: MIT
/*
 * plan_select.c - what the command line selects, checked before any case is
 * planned: the names given to --strategy, --workload, --dataset and
 * --command, --cache cold against the filesystem of the datasets, the
 * workloads of the run, and what is said when the selection leaves nothing
 * to run. The cases themselves are plan.c's.
 */
#include "plan_internal.h"
#include "lib/fsinfo.h"
#include "options/command.h"
#include "options/select.h"
#include "workloads/channels/channel.h"

#include <stdio.h>
#include <string.h>

/* Does a --strategy item match a strategy, channel or own variant of any
 * workload? */
static bool variant_known(const char *item)
{
	for (size_t i = 0; i < strategy_count; i++)
		if (select_item_matches(item, strategy_table[i]->name,
					strategy_table[i]->flags & STRATEGY_TEST_ONLY))
			return true;
	for (size_t i = 0; i < channel_count; i++)
		if (select_item_matches(item, channel_table[i]->name, false))
			return true;
	for (size_t i = 0; i < workload_count; i++)
		for (const struct workload_variant *v = workload_table[i]->own_variants;
		     v && v->name; v++)
			if (select_item_matches(item, v->name, false))
				return true;
	return false;
}

/* Is name exactly the name of a strategy, channel or own variant? */
static bool variant_named(const char *name)
{
	for (size_t i = 0; i < strategy_count; i++)
		if (!strcmp(name, strategy_table[i]->name))
			return true;
	for (size_t i = 0; i < channel_count; i++)
		if (!strcmp(name, channel_table[i]->name))
			return true;
	for (size_t i = 0; i < workload_count; i++)
		for (const struct workload_variant *v = workload_table[i]->own_variants;
		     v && v->name; v++)
			if (!strcmp(name, v->name))
				return true;
	return false;
}

/* What a selection list names, for its messages. */
struct selection_names {
	const char *opt;	/* "--strategy" */
	const char *noun;	/* "strategy" */
	const char *all;	/* "strategy or channel" */
	const char *hint;	/* "bench list shows them all" */
};

/*
 * Every item of l must match something known() knows: else one line ("no
 * match" for a pattern, "unknown" for a name) and 2.
 */
static int check_items(const struct str_list *l, bool (*known)(const char *),
		       const struct selection_names *n)
{
	for (size_t i = 0; i < l->n; i++) {
		const char *item = l->v[i];

		if (known(item))
			continue;
		if (select_item_is_pattern(item))
			fprintf(stderr, "bench: %s '%s' matches no %s (%s)\n", n->opt, item, n->all, n->hint);
		else
			fprintf(stderr, "bench: unknown %s '%s' (%s)\n", n->noun, select_item_pattern(item),
				n->hint);
		return 2;
	}
	return 0;
}

/* A --command was asked for by name: its program must be there. */
static int plan_check_commands(const struct bench_opts *o)
{
	for (size_t i = 0; i < o->ncommands; i++) {
		const struct bench_command *c = &o->commands[i];
		const char *tmpl = c->file_template ? c->file_template : c->tree_template;
		char why[200];

		if (!command_probe(tmpl, why, sizeof(why)))
			continue;
		fprintf(stderr, "bench: --command '%s': %s\n", c->name, why);
		return 2;
	}
	return 0;
}

/*
 * --cache cold alone where the datasets live on a filesystem of memory
 * (tmpfs, ramfs): no page can be evicted there, so no case could run.
 */
int plan_check_cache(const struct bench_opts *o)
{
	const char *where = o->source ? o->source : o->dir;
	char type[32];

	if (!o->cache_cold || o->cache_warm || fs_type_name(where, type, sizeof(type)))
		return 0;
	if (strcmp(type, "tmpfs") && strcmp(type, "ramfs"))
		return 0;
	fprintf(stderr, "bench: --cache cold: %s is on %s, whose pages cannot be evicted: no case can run cold there; choose another --dir\n",
		where, type);
	return 2;
}

int plan_check_names(const struct bench_opts *o, const struct workload **wls,
		     size_t nwl)
{
	static const struct selection_names strategies = {
		"--strategy", "strategy", "strategy or channel", "bench list shows them all",
	};

	if (check_items(&o->strategies, variant_known, &strategies))
		return 2;
	for (size_t i = 0; i < o->ncommands; i++)
		if (variant_named(o->commands[i].name)) {
			fprintf(stderr, "bench: --command '%s': a strategy, channel or limit row has that name; name the command otherwise\n",
				o->commands[i].name);
			return 2;
		}
	if (plan_check_commands(o))
		return 2;
	for (size_t i = 0; i < o->datasets.n; i++) {
		enum dataset_kind k;

		if (dataset_kind_parse(o->datasets.v[i], &k)) {
			fprintf(stderr, "bench: unknown dataset '%s' (known: random, text, zero, sparse)\n",
				o->datasets.v[i]);
			return 2;
		}
	}
	(void)wls;
	(void)nwl;
	return 0;
}

/* Does a --workload item match a workload that can be named? */
static bool workload_known(const char *item)
{
	for (size_t i = 0; i < workload_count; i++)
		if (!(workload_table[i]->flags & WORKLOAD_LIMITS) &&
		    select_item_matches(item, workload_table[i]->name, false))
			return true;
	return false;
}

/* The name of the first workload with flag, for messages. */
static const char *workload_with(unsigned flag)
{
	for (size_t i = 0; i < workload_count; i++)
		if (workload_table[i]->flags & flag)
			return workload_table[i]->name;
	return "none";
}

/* tree: the user's folder (--source DIR) runs the tree workloads only. */
int plan_workloads(const struct bench_opts *o, const struct workload **wls, size_t *nwl,
		   bool tree)
{
	static const struct selection_names workloads = {
		"--workload", "workload", "workload", "known: copy, split, transform, tree",
	};

	*nwl = 0;
	if (check_items(&o->workloads, workload_known, &workloads))
		return 2;
	for (size_t i = 0; i < workload_count; i++) {
		const struct workload *wl = workload_table[i];
		bool by_default = o->all || (wl->flags & WORKLOAD_DEFAULT);

		if (o->source)
			by_default = wl->flags & (tree ? WORKLOAD_TREE : WORKLOAD_DEFAULT);
		if ((wl->flags & WORKLOAD_LIMITS) ||
		    !select_wants(&o->workloads, wl->name, false, by_default))
			continue;
		if (o->source && !by_default) {
			fprintf(stderr, "bench: --source '%s' is a %s: workload '%s' does not take one (%s does)\n",
				o->source, tree ? "folder" : "file", wl->name,
				workload_with(tree ? WORKLOAD_TREE : WORKLOAD_DEFAULT));
			return 2;
		}
		wls[(*nwl)++] = wl;
	}
	/* the machine-limit rows come with every run that copies */
	for (size_t i = 0; i < workload_count && !o->no_limits; i++)
		if (workload_table[i]->flags & WORKLOAD_LIMITS)
			wls[(*nwl)++] = workload_table[i];
	return 0;
}

/* Does the list `want` pick s for wl (without the tree's default set)? */
static bool strategy_picked(const struct workload *wl, const struct copy_strategy *s,
			    const struct str_list *want)
{
	bool hidden = s->flags & STRATEGY_TEST_ONLY;

	if (!select_wants(want, s->name, hidden, !hidden))
		return false;
	return !(wl->flags & WORKLOAD_RANGES) || (s->flags & STRATEGY_RANGE);
}

/* Does --strategy pick something workload wl runs? */
static bool strategies_fit(const struct str_list *want, const struct workload *wl)
{
	for (const struct workload_variant *v = wl->own_variants; v && v->name; v++)
		if (select_wants(want, v->name, false, true))
			return true;
	if (wl->flags & WORKLOAD_CHANNELS) {
		for (size_t i = 0; i < channel_count; i++)
			if (select_wants(want, channel_table[i]->name, false, true))
				return true;
		return false;
	}
	for (size_t i = 0; i < strategy_count; i++)
		if (strategy_picked(wl, strategy_table[i], want))
			return true;
	return false;
}

/* "copy, split": the names of the workloads of the run; ours false: of
 * every workload --strategy's items fit, as --workload takes them
 * ("transform,tree"). */
static void join_workloads(const struct bench_opts *o, const struct workload **wls, size_t nwl,
			   bool ours, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < (ours ? nwl : workload_count) && len < n; i++) {
		const struct workload *wl = ours ? wls[i] : workload_table[i];

		if (wl->flags & WORKLOAD_LIMITS)
			continue;
		if (ours || strategies_fit(&o->strategies, wl))
			len += (size_t)snprintf(out + len, n - len, "%s%s", !len ? "" : ours ? ", " : ",",
						wl->name);
	}
}

/* No case at all: what was selected, and where --strategy's names are. */
void plan_say_nothing_to_run(const struct bench_opts *o, const struct workload **wls,
			     size_t nwl)
{
	char ran[128], fit[128], list[256];
	size_t len = 0;

	join_workloads(o, wls, nwl, true, ran, sizeof(ran));
	join_workloads(o, wls, nwl, false, fit, sizeof(fit));
	list[0] = '\0';
	for (size_t k = 0; k < o->strategies.n && len < sizeof(list); k++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", k ? "," : "",
					o->strategies.v[k]);
	if (o->strategies.n && fit[0])
		fprintf(stderr, "bench: nothing to run: --strategy '%s' matches nothing in workload %s, only in workload %s (add --workload %s)\n",
			list, ran[0] ? ran : "(none)", fit, fit);
	else if (o->strategies.n)
		fprintf(stderr, "bench: nothing to run: --strategy '%s' picks nothing in workload %s\n",
			list, ran[0] ? ran : "(none)");
	else
		fprintf(stderr, "bench: nothing to run in workload %s\n", ran[0] ? ran : "(none)");
}
