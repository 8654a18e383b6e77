// SPDX-License-Identifier: MIT
/*
 * tree.c - the `tree` workload: a folder of many files copied to a new
 * folder (tree.h). Its variants are every copy strategy applied file by file
 * over the shared walker (tree_walk.c), and the tree methods of the table
 * below, which schedule the copies their own way.
 *
 * The source root is opened and the destination root made (mkdir, empty)
 * before the clock starts; everything below the root is inside it: the
 * walk, every folder made, every file opened, copied and closed. The output
 * is verified as a whole: its tree hash (every relative name, size and
 * content hash, datasets/tree_hash.c) against the source's; a difference is
 * named (the first entry that differs). Modes are not compared: no variant
 * claims to keep them.
 */
#include "tree.h"
#include "lib/fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

/* Asks a tree method's own probe (tree.h). */
static int tree_probe(const struct workload_variant *v, const char *dir, char *why, size_t n)
{
	const struct tree_method *m = v->impl;

	if (n)
		why[0] = '\0';
	return m->probe ? m->probe(dir, why, n) : 0;
}

/*
 * The tree methods, one line each, sorted by name: X(the descriptor its
 * file in workloads/ defines, its name, the knobs it takes
 * (VARIANT_THREADS, VARIANT_QUEUE_DEPTH; VARIANT_MULTI_CPU when it runs on
 * several CPUs), its one-line description). A new method is its file and one
 * line here.
 */
#define TREE_METHOD_LIST(X) \
	X(tree_method_inode_order, "inode-order", 0, "walk first, then copy_file_range file by file in inode order") \
	X(tree_method_pool, "pool", VARIANT_THREADS | VARIANT_MULTI_CPU, "walk first, then a pool of threads (--threads, 0: one per CPU) copies the files, copy_file_range each") \
	X(tree_method_uring, "uring", VARIANT_QUEUE_DEPTH | VARIANT_MULTI_CPU, "walk first, then io_uring: statx, then open, read, write, close linked per file, --queue-depth files in flight")

#define DECLARE_TREE_METHOD(d, ...) extern const struct tree_method d;
TREE_METHOD_LIST(DECLARE_TREE_METHOD)

#define TREE_VARIANT(d, name, knobs, description) \
	{ name, description, knobs, .probe = tree_probe, .impl = &d },
/* The methods as the tree workload's own variants, ended by a zeroed entry. */
static const struct workload_variant tree_variants[] = {
	TREE_METHOD_LIST(TREE_VARIANT)
	{ 0 },
};

static const struct tree_method *tree_case_method(const struct case_spec *c)
{
	const struct workload_variant *v;

	if (c->strategy)
		return NULL;
	v = workload_variant_find(c->wl, c->variant);
	return v ? v->impl : NULL;
}

static int tree_prepare(struct case_spec *c, char *why, size_t n)
{
	/* a --command row (WORKLOAD_COMMANDS) is a program, neither */
	if (!c->strategy && !c->command && !tree_case_method(c)) {
		snprintf(why, n, "no tree method named %s", c->variant);
		return -EINVAL;
	}
	c->expect_hash = c->ds->hash;
	c->expect_size = c->ds->total;
	return 0;
}

static int tree_setup(struct run_ctx *ctx)
{
	ctx->src_fd = open(ctx->src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctx->src_fd < 0) {
		snprintf(ctx->msg, sizeof(ctx->msg), "open %s: %s", ctx->src, strerror(errno));
		return -errno;
	}
	if (mkdir(ctx->dst, 0755))
		goto out_fail;
	ctx->dst_fd = open(ctx->dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ctx->dst_fd >= 0)
		return 0;
	rmdir(ctx->dst);
out_fail:
	snprintf(ctx->msg, sizeof(ctx->msg), "create %s: %s", ctx->dst, strerror(errno));
	close(ctx->src_fd);
	return -errno;
}

struct per_file {
	const struct tree_job *job;
	const struct copy_strategy *s;
};

static int tree_per_file(void *arg, const struct tree_file *f)
{
	const struct per_file *p = arg;

	return tree_copy_one(p->job, p->s, f);
}

static int tree_run(struct run_ctx *ctx)
{
	const struct tree_method *m = tree_case_method(ctx->c);
	struct tree_job job = {
		.c = ctx->c, .src_root = ctx->src_fd, .dst_root = ctx->dst_fd,
		.facts = &ctx->facts, .msg = ctx->msg, .msg_len = sizeof(ctx->msg),
	};
	struct per_file p = { .job = &job, .s = ctx->c->strategy };
	struct tree_walk w;
	int err;

	if (m)
		return m->copy(&job);
	err = tree_walk(&w, &job, 0, tree_per_file, &p);
	tree_walk_end(&w);
	return err;
}

static void tree_teardown(struct run_ctx *ctx)
{
	close(ctx->dst_fd);
	close(ctx->src_fd);
}

static int tree_verify(const struct case_spec *c, const char *dst, char *why, size_t n)
{
	struct tree_sum sum;
	char what[1024];	/* names a path: room for a long one */
	int err = tree_hash(dst, &sum, what, sizeof(what));

	if (err) {
		snprintf(why, n, "output %s", what);
		return err;
	}
	if (sum.hash == c->expect_hash)
		return 0;
	if (tree_first_difference(dst, c->ds->path, what, sizeof(what)) != 1)
		snprintf(what, sizeof(what), "tree hash %016llx differs from the source's %016llx",
			 (unsigned long long)sum.hash, (unsigned long long)c->expect_hash);
	snprintf(why, n, "output %s", what);
	return -EBADMSG;
}

/* nftw passes no argument: the sum being made (the parent is one thread),
 * and whether the output's filesystem can share extents at all. */
static struct output_info *tree_inspecting;
static bool tree_may_share;

static int tree_inspect_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)f;
	if (flag == FTW_F && S_ISREG(st->st_mode))
		workload_inspect_file(path, tree_may_share, tree_inspecting);
	return 0;
}

/* Blocks, holes and shared extents of every file; FIEMAP, a call a file,
 * only where extents can be shared (not on ext4 or tmpfs). */
static void tree_inspect(const struct case_spec *c, const char *dst, struct output_info *out)
{
	struct statfs sf;

	(void)c;
	tree_inspecting = out;
	tree_may_share = statfs(dst, &sf) || fs_may_share_extents((unsigned long)sf.f_type);
	nftw(dst, tree_inspect_one, 32, FTW_PHYS);
	tree_inspecting = NULL;
}

static void tree_remove_output(const struct case_spec *c, const char *dst)
{
	(void)c;
	tree_remove_wide(dst, TREE_REMOVE_THREADS, NULL);
}

const struct workload workload_tree = {
	.name = "tree",
	.description = "a folder of many files to a new folder, file by file with each strategy or with a tree method",
	.flags = WORKLOAD_TREE | WORKLOAD_COMMANDS | WORKLOAD_KEEP_OUTPUTS,
	.default_dataset = DATASET_TREE,
	.default_size = 4096,
	.default_files = 500,
	.own_variants = tree_variants,
	.prepare = tree_prepare,
	.setup = tree_setup,
	.run = tree_run,
	.teardown = tree_teardown,
	.verify = tree_verify,
	.inspect = tree_inspect,
	.remove_output = tree_remove_output,
};
