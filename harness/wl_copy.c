// SPDX-License-Identifier: MIT
/*
 * wl_copy.c - the `copy` workload: the whole source file to a new file with
 * one copy strategy. The files are opened before the clock starts and closed
 * after it stops; only the strategy's copy (and, with --fsync, fdatasync of
 * the destination) is timed.
 */
#include "plan.h"
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int copy_prepare(struct bench_case *c, char *why, size_t n)
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

/* Fills a copy job from the case's knobs; shared with the split workload. */
void case_fill_job(const struct bench_case *c, struct copy_job *job)
{
	memset(job, 0, sizeof(*job));
	job->buffer_size = c->buffer;
	job->queue_depth = c->queue_depth;
	job->threads = c->threads;
}

static int copy_run(struct run_ctx *ctx)
{
	const struct bench_case *c = ctx->c;
	struct copy_job job;
	int err;

	case_fill_job(c, &job);
	job.src_fd = ctx->src_fd;
	job.dst_fd = ctx->dst_fd;
	job.len = c->ds->size;
	job.src_path = ctx->src;
	job.dst_path = ctx->dst;
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

/* Size and XXH3 of the output against the source's. */
int verify_file_hash(const char *path, uint64_t size, uint64_t hash,
		     char *why, size_t n)
{
	struct stat st;
	uint64_t got;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, n, "output %s: %s", path, strerror(errno));
		return -errno;
	}
	err = fstat(fd, &st) ? -errno : 0;
	if (!err && (uint64_t)st.st_size != size) {
		snprintf(why, n, "output has %lld bytes, expected %llu",
			 (long long)st.st_size, (unsigned long long)size);
		err = -EBADMSG;
	}
	if (!err)
		err = hash_fd_range(fd, 0, size, &got);
	if (!err && got != hash) {
		snprintf(why, n, "output hash %016llx differs from the source's %016llx",
			 (unsigned long long)got, (unsigned long long)hash);
		err = -EBADMSG;
	}
	close(fd);
	return err;
}

static int copy_verify(const struct bench_case *c, const char *dst, char *why, size_t n)
{
	return verify_file_hash(dst, c->expect_size, c->expect_hash, why, n);
}

static void copy_remove_output(const struct bench_case *c, const char *dst)
{
	(void)c;
	unlink(dst);
}

const struct workload workload_copy = {
	.name = "copy",
	.description = "the whole source to a new file with one strategy",
	.default_dataset = DATASET_RANDOM,
	.prepare = copy_prepare,
	.setup = copy_setup,
	.run = copy_run,
	.teardown = copy_teardown,
	.verify = copy_verify,
	.remove_output = copy_remove_output,
};
