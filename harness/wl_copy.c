// SPDX-License-Identifier: MIT
/*
 * wl_copy.c - the `copy` workload: the whole source file to a new file with
 * one copy strategy. The files are opened before the clock starts and closed
 * after it stops; only the strategy's copy (and, with --fsync, fdatasync of
 * the destination) is timed.
 *
 * After a verified run the parent asks FIEMAP whether the output shares
 * extents with another file: copy_file_range on btrfs, or on XFS with
 * reflink, clones instead of copying, and such a time measures metadata
 * work, not a copy. The case records it (shared_extents) for the report.
 */
#include "plan.h"
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

int verify_output_hash(const struct bench_case *c, const char *dst, char *why, size_t n)
{
	return verify_file_hash(dst, c->expect_size, c->expect_hash, why, n);
}

#define FIEMAP_BATCH 64

/* Walks the extent map of fd, FIEMAP_BATCH extents per call, until one is
 * shared or the last one is seen. No FIEMAP_FLAG_SYNC: delayed-allocation
 * extents are reported as such (never shared), and forcing them to disk
 * would put the output's writeback into the next run's measurement. */
static int fiemap_any_shared(int fd, bool *shared)
{
	size_t sz = sizeof(struct fiemap) + FIEMAP_BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm = malloc(sz);
	uint64_t start = 0;
	int err = 0;

	if (!fm)
		return -ENOMEM;
	*shared = false;
	for (;;) {
		const struct fiemap_extent *last;

		memset(fm, 0, sz);
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_extent_count = FIEMAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			err = errno == ENOTTY ? -EOPNOTSUPP : -errno;
			break;
		}
		if (fm->fm_mapped_extents == 0)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents && !*shared; i++)
			*shared = fm->fm_extents[i].fe_flags & FIEMAP_EXTENT_SHARED;
		last = &fm->fm_extents[fm->fm_mapped_extents - 1];
		if (*shared || (last->fe_flags & FIEMAP_EXTENT_LAST))
			break;
		start = last->fe_logical + last->fe_length;
	}
	free(fm);
	return err;
}

int file_shares_extents(const char *path, bool *shared)
{
	int fd, err;

	*shared = false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fiemap_any_shared(fd, shared);
	close(fd);
	return err;
}

/* Any verified run that cloned marks the case; FIEMAP refused: not shared. */
static void copy_inspect(struct bench_case *c, const char *dst)
{
	bool shared = false;

	if (file_shares_extents(dst, &shared) == 0 && shared)
		c->shared_extents = true;
}

void remove_output_file(const struct bench_case *c, const char *dst)
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
	.verify = verify_output_hash,
	.inspect = copy_inspect,
	.remove_output = remove_output_file,
};
