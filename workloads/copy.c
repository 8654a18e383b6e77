// SPDX-License-Identifier: MIT
/*
 * copy.c - the `copy` workload: the whole source file to a new file with
 * one copy strategy. The files are opened before the clock starts and closed
 * after it stops; only the strategy's copy (and, with --fsync, fdatasync of
 * the destination) is timed: from its first byte until the destination's
 * bytes are in the page cache and the strategy has released all it made
 * (strategy.h). What is outside costs every strategy the same
 * (docs/clock.md).
 *
 * After a verified run the parent asks FIEMAP whether the output shares
 * extents with another file: copy_file_range on btrfs, or on XFS with
 * reflink, clones instead of copying, and such a time measures metadata
 * work, not a copy. The case records it (shared_extents) for the report.
 */
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

static int copy_prepare(struct case_spec *c, char *why, size_t n)
{
	(void)why;
	(void)n;
	c->expect_hash = c->ds->hash;
	c->expect_size = c->ds->size;
	return 0;
}

static int copy_setup(struct run_ctx *ctx)
{
	ctx->src_fd = open(ctx->src, O_RDONLY | O_CLOEXEC);
	if (ctx->src_fd < 0) {
		snprintf(ctx->msg, sizeof(ctx->msg), "open %s: %s", ctx->src, strerror(errno));
		return -errno;
	}
	ctx->dst_fd = open(ctx->dst, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (ctx->dst_fd < 0) {
		int err = -errno;

		snprintf(ctx->msg, sizeof(ctx->msg), "create %s: %s", ctx->dst, strerror(errno));
		close(ctx->src_fd);
		return err;
	}
	return 0;
}

static int copy_run(struct run_ctx *ctx)
{
	const struct case_spec *c = ctx->c;
	struct copy_job job;
	int err;

	workload_fill_job(c, &job);
	job.src_fd = ctx->src_fd;
	job.dst_fd = ctx->dst_fd;
	job.facts = &ctx->facts;
	job.len = c->ds->size;
	err = c->strategy->copy(&job);
	if (err)
		return err;
	if (c->fsync && fdatasync(ctx->dst_fd))
		return -errno;
	return 0;
}

static void copy_teardown(struct run_ctx *ctx)
{
	close(ctx->dst_fd);
	close(ctx->src_fd);
}

const struct workload workload_copy = {
	.name = "copy",
	.description = "the whole source to a new file with one strategy",
	.flags = WORKLOAD_DEFAULT | WORKLOAD_COMMANDS,
	.default_dataset = DATASET_RANDOM,
	.prepare = copy_prepare,
	.setup = copy_setup,
	.run = copy_run,
	.teardown = copy_teardown,
	.verify = workload_verify_output_hash,
	.inspect = workload_inspect_output_file,
	.remove_output = workload_remove_output_file,
};
