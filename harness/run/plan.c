// SPDX-License-Identifier: MIT
/*
 * plan.c - expand the command line into cases: workload x variant (strategy
 * or channel) x dataset x size x buffer x batch x cache state. Each case is
 * probed here, so a strategy that cannot run is listed as unavailable with
 * its reason instead of silently missing. The names and workloads the
 * command line selects are checked first (plan_select.c).
 */
#include "plan_internal.h"
#include "lib/units.h"
#include "options/command.h"
#include "options/select.h"
#include "workloads/channels/channel.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SIZE (64ull << 20)

/*
 * The seed article's transform matrix, used when --batch-lines and --buffer
 * are not given: every channel with buffer-sized batches at 64K, then the
 * cases each channel adds itself (struct channel's .defaults: the pipe with
 * 8K and 4M buffers, 5000-line batches and per-line sends; per-line sends
 * on TCP with Nagle on and off).
 *
 * Per-line sends cost per line, not per byte: their MiB/s stops moving
 * from about 4 MiB of input on (docs/transform.md), and at hundreds
 * of MiB a run takes long (TCP_NODELAY: one packet per line). So in this
 * default matrix they run on at most TRANSFORM_PER_LINE_MAX bytes of input,
 * in their own size group, whose header says so; asking for --batch-lines 1
 * runs them at every size given.
 */
#define TRANSFORM_PER_LINE_MAX (4ull << 20)

/* The case every channel runs in the default matrix. */
static const struct channel_default transform_every_channel = { 0, 64u << 10 };

/* The dataset of a case: a file of size bytes, or a tree (files > 0) of
 * files of size bytes each. */
static struct dataset *plan_dataset(struct runner *r, enum dataset_kind kind,
				    uint64_t size, uint64_t files, uint64_t seed)
{
	for (size_t i = 0; i < r->ndatasets; i++) {
		struct dataset *d = &r->datasets[i];

		if (d->kind == kind && d->size == size && d->files == files && d->seed == seed)
			return d;
	}
	r->datasets[r->ndatasets] = (struct dataset){ .kind = kind, .size = size,
						      .files = files, .seed = seed };
	if (kind == DATASET_TREE)
		r->datasets[r->ndatasets].total = tree_total_size(size, files, seed);
	return &r->datasets[r->ndatasets++];
}

static int plan_grow(struct runner *r, size_t *cap)
{
	struct bench_case *c;
	struct dataset *d;

	if (r->ncases < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 64;
	c = realloc(r->cases, *cap * sizeof(*c));
	if (!c)
		return -ENOMEM;
	r->cases = c;
	/* datasets never outnumber cases; grow them alike (pointers fixed up) */
	d = realloc(r->datasets, *cap * sizeof(*d));
	if (!d)
		return -ENOMEM;
	if (d != r->datasets)
		for (size_t i = 0; i < r->ncases; i++)
			r->cases[i].spec.ds = d + (r->cases[i].spec.ds - r->datasets);
	r->datasets = d;
	return 0;
}

/* Appends one case per cache state asked for; `proto` has the rest set. */
static int plan_add_modes(struct runner *r, size_t *cap, const struct bench_case *proto,
			  bool warm, bool cold)
{
	const bool modes[2] = { warm, cold };

	for (int m = 0; m < 2; m++) {
		struct bench_case *c;
		int err;

		if (!modes[m])
			continue;
		err = plan_grow(r, cap);
		if (err)
			return err;
		c = &r->cases[r->ncases++];
		*c = *proto;
		c->cache = m ? CACHE_COLD : CACHE_WARM;
		c->spec.ds = plan_dataset(r, proto->spec.ds->kind,
					  proto->spec.files ? proto->spec.file_size : proto->spec.size,
					  proto->spec.files, r->o->seed);
	}
	return 0;
}

/* Appends one case per cache state of the run (--cache). */
static int plan_add(struct runner *r, size_t *cap, const struct bench_case *proto)
{
	return plan_add_modes(r, cap, proto, r->o->cache_warm, r->o->cache_cold);
}

/* Buffers for a strategy: the sweep, its default, or none. */
static size_t plan_buffers(const struct bench_opts *o, const struct copy_strategy *s,
			   size_t *out)
{
	if (!(s->flags & STRATEGY_BUFFERED)) {
		out[0] = 0;
		return 1;
	}
	if (!o->buffers.n) {
		out[0] = strategy_default_buffer(s);
		return 1;
	}
	for (size_t i = 0; i < o->buffers.n; i++)
		out[i] = (size_t)o->buffers.v[i];
	return o->buffers.n;
}

static int plan_strategy_cases(struct runner *r, size_t *cap, struct bench_case *proto,
			       const struct copy_strategy *s)
{
	size_t buffers[OPT_LIST_MAX], nb = plan_buffers(r->o, s, buffers);
	char why[200];

	proto->spec.strategy = s;
	proto->spec.variant = s->name;
	/* Knobs the strategy does not take are 0: no identity of their own. */
	proto->spec.threads = s->flags & STRATEGY_THREADS ? r->o->threads : 0;
	proto->spec.queue_depth = s->flags & STRATEGY_QUEUE_DEPTH ? r->o->queue_depth : 0;
	proto->state = CASE_PENDING;
	proto->why[0] = '\0';
	if (strategy_probe(s, r->o->dir, why, sizeof(why))) {
		proto->state = CASE_UNAVAILABLE;
		snprintf(proto->why, sizeof(proto->why), "%s", why);
	}
	for (size_t b = 0; b < nb; b++) {
		int err;

		proto->spec.buffer = buffers[b];
		err = plan_add(r, cap, proto);
		if (err)
			return err;
	}
	return 0;
}

/* Does s take part in wl? Selected strategies (test-only ones only when
 * named in full; in a tree, without a selection or --all, those marked
 * STRATEGY_TREE_DEFAULT); a workload of ranges needs strategies that copy
 * at offsets. */
static bool strategy_fits(const struct workload *wl, const struct copy_strategy *s,
			  const struct bench_opts *o)
{
	bool hidden = s->flags & STRATEGY_TEST_ONLY;
	bool by_default = !hidden && (o->all || !(wl->flags & WORKLOAD_TREE) ||
				      (s->flags & STRATEGY_TREE_DEFAULT));

	if (!select_wants(&o->strategies, s->name, hidden, by_default))
		return false;
	return !(wl->flags & WORKLOAD_RANGES) || (s->flags & STRATEGY_RANGE);
}

static int plan_channel_case(struct runner *r, size_t *cap, struct bench_case *proto,
			     const struct channel *ch, unsigned batch, size_t buffer)
{
	char why[200];

	proto->spec.channel = ch;
	proto->spec.variant = ch->name;
	proto->spec.threads = 0;
	proto->spec.queue_depth = 0;
	proto->spec.batch_lines = batch;
	proto->spec.buffer = buffer;
	proto->state = CASE_PENDING;
	proto->why[0] = '\0';
	proto->direct_refused = false;
	if (channel_probe(ch, why, sizeof(why))) {
		proto->state = CASE_UNAVAILABLE;
		snprintf(proto->why, sizeof(proto->why), "%s", why);
	} else if ((ch->flags & CHANNEL_DEVICE_IO) &&
		   !channel_device_io(ch, r->o->dir, why, sizeof(why))) {
		proto->direct_refused = true;
		snprintf(proto->why, sizeof(proto->why), "%s", why);
	}
	return plan_add(r, cap, proto);
}

/* One case of the default matrix; per-line sends on a capped input. */
static int plan_channel_default(struct runner *r, size_t *cap, const struct bench_case *proto,
				const struct channel *ch, const struct channel_default *t)
{
	struct bench_case one = *proto;

	if (t->batch_lines == 1 && one.spec.size > TRANSFORM_PER_LINE_MAX) {
		one.spec.size = TRANSFORM_PER_LINE_MAX;
		one.size_capped = true;
	}
	return plan_channel_case(r, cap, &one, ch, t->batch_lines, t->buffer);
}

static int plan_channel_cases(struct runner *r, size_t *cap, struct bench_case *proto,
			      const struct channel *ch)
{
	const struct bench_opts *o = r->o;
	int err = 0;

	if (!o->batch_lines.n && !o->buffers.n) {
		err = plan_channel_default(r, cap, proto, ch, &transform_every_channel);
		for (const struct channel_default *t = ch->defaults;
		     !err && t && (t->batch_lines || t->buffer); t++)
			err = plan_channel_default(r, cap, proto, ch, t);
		return err;
	}
	for (size_t b = 0; b < (o->batch_lines.n ? o->batch_lines.n : 1); b++) {
		for (size_t u = 0; u < (o->buffers.n ? o->buffers.n : 1); u++) {
			unsigned batch = o->batch_lines.n ? (unsigned)o->batch_lines.v[b] : 0;
			size_t buffer = o->buffers.n ? (size_t)o->buffers.v[u] : 64u << 10;

			err = plan_channel_case(r, cap, proto, ch, batch, buffer);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Has a case of (kind, size) been planned before index i (limits excluded)? */
static bool planned_before(const struct runner *r, size_t i, bool match_kind)
{
	const struct case_spec *x = &r->cases[i].spec;

	for (size_t j = 0; j < i; j++) {
		const struct case_spec *y = &r->cases[j].spec;

		if (!(y->wl->flags & (WORKLOAD_LIMITS | WORKLOAD_TREE)) && y->size == x->size &&
		    (!match_kind || y->ds->kind == x->ds->kind))
			return true;
	}
	return false;
}

/*
 * The requests the most concurrent strategy keeps in flight as this
 * invocation runs it: threads (--threads, else one per online CPU) or a
 * queue depth (--queue-depth, else the strategy's default), over every
 * strategy, planned or not, so that the row is the same whichever are
 * selected. A VARIANT_CONCURRENT limit row reads with as many.
 */
static unsigned plan_concurrency(const struct bench_opts *o)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned most = 1;

	for (size_t i = 0; i < strategy_count; i++) {
		const struct copy_strategy *s = strategy_table[i];
		unsigned t = 0, q = 0;

		if (s->flags & STRATEGY_TEST_ONLY)
			continue;
		if (s->flags & STRATEGY_THREADS)
			t = o->threads ? o->threads : cpus > 0 ? (unsigned)cpus : 1;
		if (s->flags & STRATEGY_QUEUE_DEPTH)
			q = o->queue_depth ? o->queue_depth : s->default_queue_depth;
		if (t > most)
			most = t;
		if (q > most)
			most = q;
	}
	return most < VARIANT_MAX_STREAMS ? most : VARIANT_MAX_STREAMS;
}

/* One limit row of variant v like case `like` (its dataset and size). */
static int plan_limit_case(struct runner *r, size_t *cap, const struct workload *wl,
			   const struct workload_variant *v, size_t like)
{
	bool cold = v->flags & VARIANT_COLD_ONLY;
	/* a copy: planning may move r->datasets */
	struct dataset tmp = { .kind = r->cases[like].spec.ds->kind };
	struct bench_case proto = {
		.spec = { .wl = wl, .variant = v->name, .ds = &tmp,
			  .size = r->cases[like].spec.size,
			  .threads = v->flags & VARIANT_CONCURRENT ? plan_concurrency(r->o) : 0 },
		.state = CASE_PENDING,
	};

	return plan_add_modes(r, cap, &proto, !cold, cold);
}

/*
 * The limit rows, planned after every other case: the rows that read the
 * source (the device reads) for every dataset and size planned, and only
 * with cold runs, whose bound they are; the memory rows, which read no file,
 * once per size, warm (hot buffers).
 */
static int plan_limit_cases(struct runner *r, size_t *cap, const struct workload *wl)
{
	size_t n = r->ncases;
	int err = 0;

	for (const struct workload_variant *v = wl->own_variants; v->name && !err; v++) {
		bool reads_source = v->flags & VARIANT_COLD_ONLY;

		if (reads_source && !r->o->cache_cold)
			continue;
		for (size_t i = 0; i < n && !err; i++)
			if (!(r->cases[i].spec.wl->flags & (WORKLOAD_LIMITS | WORKLOAD_TREE)) &&
			    !planned_before(r, i, reads_source))
				err = plan_limit_case(r, cap, wl, v, i);
	}
	return err;
}

/* A variant the workload brings (a tree method), with the knobs it takes. */
static int plan_own_case(struct runner *r, size_t *cap, struct bench_case *proto,
			 const struct workload_variant *v)
{
	char why[200];

	proto->spec.strategy = NULL;
	proto->spec.command = NULL;
	proto->spec.variant = v->name;
	proto->spec.buffer = 0;
	proto->spec.threads = v->flags & VARIANT_THREADS ? r->o->threads : 0;
	proto->spec.queue_depth = v->flags & VARIANT_QUEUE_DEPTH ? r->o->queue_depth : 0;
	proto->state = CASE_PENDING;
	proto->why[0] = '\0';
	if (v->probe && v->probe(v, r->o->dir, why, sizeof(why))) {
		proto->state = CASE_UNAVAILABLE;
		snprintf(proto->why, sizeof(proto->why), "%s", why);
	}
	return plan_add(r, cap, proto);
}

/* One --command row: the program must be found; its knobs are all 0. */
static int plan_command_case(struct runner *r, size_t *cap, struct bench_case *proto,
			     const struct bench_command *cmd)
{
	const char *tmpl = cmd->file_template ? cmd->file_template : cmd->tree_template;
	char why[200];

	proto->spec.command = cmd;
	proto->spec.variant = cmd->name;
	proto->spec.strategy = NULL;
	proto->spec.buffer = 0;
	proto->spec.threads = 0;
	proto->spec.queue_depth = 0;
	proto->state = CASE_PENDING;
	proto->why[0] = '\0';
	if (command_probe(tmpl, why, sizeof(why))) {
		proto->state = CASE_UNAVAILABLE;
		snprintf(proto->why, sizeof(proto->why), "%s", why);
	}
	return plan_add(r, cap, proto);
}

/* Every variant of one workload for one dataset kind and size. */
static int plan_workload(struct runner *r, size_t *cap, struct bench_case *proto)
{
	const struct workload *wl = proto->spec.wl;
	const struct str_list *want = &r->o->strategies;
	int err = 0;

	for (const struct workload_variant *v = wl->own_variants;
	     v && v->name && !err && !(wl->flags & WORKLOAD_LIMITS); v++)
		if (select_wants(want, v->name, false, true))
			err = plan_own_case(r, cap, proto, v);

	if (wl->flags & WORKLOAD_CHANNELS) {
		for (size_t i = 0; i < channel_count && !err; i++)
			if (select_wants(want, channel_table[i]->name, false, true))
				err = plan_channel_cases(r, cap, proto, channel_table[i]);
		return err;
	}
	for (size_t i = 0; i < strategy_count && !err; i++)
		if (strategy_fits(wl, strategy_table[i], r->o))
			err = plan_strategy_cases(r, cap, proto, strategy_table[i]);
	for (size_t i = 0; i < r->o->ncommands && !err && (wl->flags & WORKLOAD_COMMANDS); i++)
		err = plan_command_case(r, cap, proto, &r->o->commands[i]);
	return err;
}

static bool workload_named(const struct bench_opts *o, const struct workload *wl);

/* The sizes a workload runs at: --size, or the default; a workload with a
 * size of its own keeps it unless --workload names it. */
static size_t plan_sizes(const struct bench_opts *o, const struct workload *wl, uint64_t *out)
{
	size_t n = 0;

	if (wl->default_size && (!o->sizes.n || !workload_named(o, wl))) {
		out[0] = wl->default_size;
		return 1;
	}
	for (size_t i = 0; i < (o->sizes.n ? o->sizes.n : 1); i++)
		out[n++] = o->sizes.n ? o->sizes.v[i] : DEFAULT_SIZE;
	return n;
}

/* The files of a tree workload's tree: --files when --workload names it,
 * else its own count (under --all). */
static uint64_t plan_files(const struct bench_opts *o, const struct workload *wl)
{
	return wl->default_files && !workload_named(o, wl) ? wl->default_files : o->files;
}

/* --size src names a mix of file sizes: trees only. 0, or 2 after a line. */
static int plan_check_sizes(const struct workload *wl, const uint64_t *sizes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (sizes[i] == DATASET_SIZE_SRC && !(wl->flags & WORKLOAD_TREE)) {
			fprintf(stderr, "bench: --size src is a mix of file sizes for trees: workload '%s' copies one file\n",
				wl->name);
			return 2;
		}
	return 0;
}

/*
 * --source: the user's file, hashed now, is the only dataset, at its own
 * size, for the default workload. 0, or 2 after one line on stderr.
 */
static int plan_source(const struct bench_opts *o, struct dataset *src)
{
	struct stat st;
	char why[200];

	if (o->all || o->datasets.n || o->sizes.n) {
		fprintf(stderr, "bench: --source copies your file as it is: --all, --dataset and --size do not go with it\n");
		return 2;
	}
	if (stat(o->source, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (!dataset_from_dir(src, o->source, why, sizeof(why)))
			return 0;
		fprintf(stderr, "bench: --source '%s': %s\n", o->source, why);
		return 2;
	}
	if (dataset_from_file(src, o->source, why, sizeof(why))) {
		fprintf(stderr, "bench: --source '%s': %s\n", o->source, why);
		return 2;
	}
	return 0;
}

/* The planned datasets of the user's file become it (path, hash, stamp). */
static void plan_use_source(struct runner *r, const struct dataset *src)
{
	for (size_t i = 0; i < r->ndatasets; i++)
		if (r->datasets[i].kind == DATASET_FILE || r->datasets[i].kind == DATASET_DIR)
			r->datasets[i] = *src;
}

/* Was workload wl named in full in --workload (not only matched)? */
static bool workload_named(const struct bench_opts *o, const struct workload *wl)
{
	for (size_t i = 0; i < o->workloads.n; i++)
		if (!strcmp(o->workloads.v[i], wl->name))
			return true;
	return false;
}

int plan_build(struct runner *r)
{
	const struct bench_opts *o = r->o;
	const struct workload *wls[16];
	struct dataset src = { 0 };
	size_t nwl, cap = 0, before;
	int ret;

	ret = o->source ? plan_source(o, &src) : 0;
	if (!ret)
		ret = plan_workloads(o, wls, &nwl, src.kind == DATASET_DIR);
	if (!ret)
		ret = plan_check_names(o, wls, nwl);
	if (!ret)
		ret = plan_check_cache(o);
	if (ret)
		return ret;
	for (size_t w = 0; w < nwl; w++) {
		bool tree = wls[w]->flags & WORKLOAD_TREE;
		size_t nds = o->datasets.n && !tree ? o->datasets.n : 1;
		uint64_t sizes[OPT_LIST_MAX];
		size_t nsizes = o->source ? 1 : plan_sizes(o, wls[w], sizes);

		if (wls[w]->flags & WORKLOAD_LIMITS) {
			if (plan_limit_cases(r, &cap, wls[w]))
				return 1;
			continue;
		}
		if (!o->source && plan_check_sizes(wls[w], sizes, nsizes))
			return 2;
		before = r->ncases;
		for (size_t d = 0; d < nds; d++) {
			for (size_t s = 0; s < nsizes; s++) {
				struct dataset tmp = { 0 };
				struct bench_case proto = { 0 };

				tmp.kind = o->source ? src.kind : wls[w]->default_dataset;
				if (o->datasets.n && !tree)
					dataset_kind_parse(o->datasets.v[d], &tmp.kind);
				proto.spec.wl = wls[w];
				proto.spec.ds = &tmp;
				proto.spec.size = o->source ? src.size : sizes[s];
				if (tree) {
					uint64_t files = plan_files(o, wls[w]);

					proto.spec.files = o->source ? src.files : files;
					proto.spec.file_size = proto.spec.size;
					proto.spec.size = o->source ? src.total :
						tree_total_size(sizes[s], files, o->seed);
				}
				proto.spec.part_size = wls[w]->flags & WORKLOAD_PARTS ? o->part_size : 0;
				proto.spec.queue_depth = o->queue_depth;
				proto.spec.threads = o->threads;
				proto.spec.fsync = o->fsync;
				if (plan_workload(r, &cap, &proto))
					return 1;
			}
		}
		if (r->ncases == before && workload_named(o, wls[w])) {
			fprintf(stderr, "bench: no strategy of workload '%s' matches --strategy\n",
				wls[w]->name);
			return 2;
		}
	}
	if (r->ncases == 0) {
		plan_say_nothing_to_run(o, wls, nwl);
		return 2;
	}
	plan_use_source(r, &src);
	return 0;
}
