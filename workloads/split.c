// SPDX-License-Identifier: MIT
/*
 * split.c - the `split` workload: cut a text file into parts of at most
 * part_size bytes, cutting only right after a '\n'. Parts are written to
 * <dst>.part-00000, <dst>.part-00001, ... in order.
 *
 * With a copy strategy that copies at offsets (STRATEGY_RANGE) the split is
 * zero-copy where the strategy is: for each part, the last '\n' at or before
 * the size limit is found by reading only small windows backwards from the
 * limit (8 KiB preads, going further back only while a window holds no
 * '\n'), and the whole range is handed to the strategy's copy(). With the
 * `lines` strategy it is the naive splitter instead: getline(3) and fwrite(3)
 * through default stdio buffers, opening a new part when the next line would
 * overflow the current one. Both make the same parts.
 *
 * A line longer than the part size cannot be placed: the run fails with
 * -EFBIG. The source's last line may lack its '\n'; it then ends the last part
 * as it is. An empty source makes no parts.
 */
#include "workload.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define SPLIT_WINDOW (8u * 1024u)

struct split_state {
	FILE *in;			/* lines: the source through stdio */
	char window[SPLIT_WINDOW];	/* zero-copy: backwards search */
};

void split_part_path(const char *dst, unsigned idx, char *out, size_t n)
{
	snprintf(out, n, "%s.part-%05u", dst, idx);
}

/* The naive baseline splits its own way (getline + fwrite). */
static int split_is_lines(const struct case_spec *c)
{
	return c->strategy->flags & STRATEGY_NAIVE;
}

static int split_prepare(struct case_spec *c, char *why, size_t n)
{
	if (c->part_size == 0) {
		snprintf(why, n, "the part size must be at least 1 byte");
		return -EINVAL;
	}
	if (!split_is_lines(c) && !(c->strategy->flags & STRATEGY_RANGE)) {
		snprintf(why, n, "strategy %s cannot copy byte ranges at offsets",
			 c->strategy->name);
		return -EOPNOTSUPP;
	}
	c->expect_hash = c->ds->hash;
	c->expect_size = c->ds->size;
	return 0;
}

static int split_setup(struct run_ctx *ctx)
{
	struct split_state *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return -ENOMEM;
	ctx->dst_fd = -1;
	ctx->src_fd = open(ctx->src, O_RDONLY | O_CLOEXEC);
	if (ctx->src_fd < 0)
		goto out_fail;
	if (split_is_lines(ctx->c)) {
		st->in = fopen(ctx->src, "re");
		if (!st->in)
			goto out_close_src;
	}
	ctx->state = st;
	return 0;

out_close_src:
	err = errno;
	close(ctx->src_fd);
	errno = err;
out_fail:
	err = -errno;
	snprintf(ctx->msg, sizeof(ctx->msg), "open %s: %s", ctx->src, strerror(errno));
	free(st);
	return err;
}

static int split_too_long(struct run_ctx *ctx, uint64_t at)
{
	snprintf(ctx->msg, sizeof(ctx->msg),
		 "line at byte %llu is longer than the part size (%llu bytes)",
		 (unsigned long long)at, (unsigned long long)ctx->c->part_size);
	return -EFBIG;
}

/*
 * The end of the part that starts at `start`: just past the last '\n' in
 * [start, limit), found by reading windows backwards from limit. 0 and *cut
 * set, -EFBIG when the range holds no '\n', or -errno.
 */
static int split_find_cut(struct run_ctx *ctx, uint64_t start, uint64_t limit,
			  uint64_t *cut)
{
	struct split_state *st = ctx->state;
	uint64_t end = limit;

	while (end > start) {
		size_t want = end - start < SPLIT_WINDOW ? (size_t)(end - start) : SPLIT_WINDOW;
		ssize_t got = full_pread(ctx->src_fd, st->window, want, end - want);
		char *nl;

		if (got < 0)
			return (int)got;
		if ((size_t)got != want)
			return -ENODATA;	/* the source shrank */
		nl = memrchr(st->window, '\n', want);
		if (nl) {
			*cut = end - want + (uint64_t)(nl - st->window) + 1;
			return 0;
		}
		end -= want;
	}
	return split_too_long(ctx, start);
}

/* Copies [start, cut) of the source into part number idx. */
static int split_copy_part(struct run_ctx *ctx, unsigned idx, uint64_t start,
			   uint64_t cut)
{
	const struct case_spec *c = ctx->c;
	char path[PATH_MAX];
	struct copy_job job;
	int fd, err;

	split_part_path(ctx->dst, idx, path, sizeof(path));
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(ctx->msg, sizeof(ctx->msg), "create %.960s: %s", path, strerror(errno));
		return -errno;
	}
	workload_fill_job(c, &job);
	job.src_fd = ctx->src_fd;
	job.dst_fd = fd;
	job.facts = &ctx->facts;
	job.src_off = start;
	job.dst_off = 0;
	job.len = cut - start;
	err = c->strategy->copy(&job);
	if (!err && c->fsync && fdatasync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int split_run_ranges(struct run_ctx *ctx)
{
	uint64_t size = ctx->c->ds->size, part = ctx->c->part_size;
	uint64_t start = 0;
	unsigned idx = 0;

	while (start < size) {
		uint64_t cut = size;
		int err;

		if (size - start > part) {
			err = split_find_cut(ctx, start, start + part, &cut);
			if (err)
				return err;
		}
		err = split_copy_part(ctx, idx++, start, cut);
		if (err)
			return err;
		start = cut;
	}
	return 0;
}

static int split_close_part(const struct case_spec *c, FILE *out)
{
	int err = 0;

	if (c->fsync && (fflush(out) || fdatasync(fileno(out))))
		err = -errno;
	if (fclose(out) && !err)
		err = -errno;
	return err;
}

/* The naive splitter: one getline and one fwrite per line. */
static int split_run_lines(struct run_ctx *ctx)
{
	const struct case_spec *c = ctx->c;
	struct split_state *st = ctx->state;
	uint64_t pos = 0, cur = 0;
	char path[PATH_MAX];
	FILE *out = NULL;
	char *line = NULL;
	size_t cap = 0;
	unsigned idx = 0;
	ssize_t len;
	int err = 0;

	while ((len = getline(&line, &cap, st->in)) > 0) {
		if ((uint64_t)len > c->part_size) {
			err = split_too_long(ctx, pos);
			break;
		}
		if (!out || cur + (uint64_t)len > c->part_size) {
			if (out && (err = split_close_part(c, out)))
				break;
			split_part_path(ctx->dst, idx++, path, sizeof(path));
			out = fopen(path, "wxe");
			if (!out) {
				err = -errno;
				snprintf(ctx->msg, sizeof(ctx->msg), "create %.960s: %s", path, strerror(errno));
				break;
			}
			cur = 0;
		}
		if (fwrite(line, 1, (size_t)len, out) != (size_t)len) {
			err = -errno;
			break;
		}
		cur += (uint64_t)len;
		pos += (uint64_t)len;
	}
	if (!err && ferror(st->in))
		err = -EIO;
	if (out) {
		int cerr = split_close_part(c, out);

		if (!err)
			err = cerr;
	}
	free(line);
	return err;
}

static int split_run(struct run_ctx *ctx)
{
	if (split_is_lines(ctx->c))
		return split_run_lines(ctx);
	return split_run_ranges(ctx);
}

static void split_teardown(struct run_ctx *ctx)
{
	struct split_state *st = ctx->state;

	if (st && st->in)
		fclose(st->in);
	free(st);
	ctx->state = NULL;
	close(ctx->src_fd);
}

/*
 * Hashes one part into xs; checks its size and that it ends with '\n'.
 * *last_nl says whether it did. 0, -ENOENT when the part does not exist,
 * or another -errno with why filled.
 */
static int split_verify_part(const char *path, uint64_t part_size, XXH3_state_t *xs,
			     uint64_t *bytes, int *last_nl, char *why, size_t n)
{
	uint64_t size = 0;
	char last = 0;
	struct stat st;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			snprintf(why, n, "open %s: %s", path, strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) == 0) {
		size = (uint64_t)st.st_size;
		err = hash_fd_update(fd, size, xs);
		if (!err && size && pread(fd, &last, 1, (off_t)size - 1) != 1)
			err = errno ? -errno : -ENODATA;
	} else {
		err = -errno;
	}
	if (err) {
		snprintf(why, n, "read %s: %s", path, strerror(-err));
	} else if (size == 0) {
		err = -EBADMSG;
		snprintf(why, n, "part %s is empty", path);
	} else if (size > part_size) {
		err = -EBADMSG;
		snprintf(why, n, "part %s has %llu bytes, more than the part size %llu",
			 path, (unsigned long long)size, (unsigned long long)part_size);
	}
	close(fd);
	*bytes = size;
	*last_nl = last == '\n';
	return err;
}

/* The parts, concatenated in order, must be the source. */
static int split_verify_parts(const struct case_spec *c, const char *dst,
			      XXH3_state_t *xs, uint64_t *total,
			      char *why, size_t n)
{
	char path[PATH_MAX];
	int prev_nl = 1;

	for (unsigned idx = 0;; idx++) {
		uint64_t bytes = 0;
		int nl = 1, err;

		split_part_path(dst, idx, path, sizeof(path));
		err = split_verify_part(path, c->part_size, xs, &bytes, &nl, why, n);
		if (err == -ENOENT)
			return 0;
		if (err)
			return err;
		if (!prev_nl) {
			snprintf(why, n, "part %u does not end with a newline but is not the last", idx - 1);
			return -EBADMSG;
		}
		*total += bytes;
		prev_nl = nl;
	}
}

static int split_verify(const struct case_spec *c, const char *dst, char *why, size_t n)
{
	XXH3_state_t *xs = XXH3_createState();
	uint64_t total = 0, hash;
	int err = -ENOMEM;

	if (!xs)
		goto out_free;
	XXH3_64bits_reset(xs);
	err = split_verify_parts(c, dst, xs, &total, why, n);
	if (err)
		goto out_free;
	hash = XXH3_64bits_digest(xs);
	if (total != c->expect_size) {
		snprintf(why, n, "parts hold %llu bytes, expected %llu",
			 (unsigned long long)total, (unsigned long long)c->expect_size);
		err = -EBADMSG;
	} else if (hash != c->expect_hash) {
		snprintf(why, n, "parts' hash %016llx differs from the source's %016llx",
			 (unsigned long long)hash, (unsigned long long)c->expect_hash);
		err = -EBADMSG;
	}
out_free:
	XXH3_freeState(xs);
	return err;
}

/* Every part: its blocks, and whether any was cloned instead of copied. */
static void split_inspect(const struct case_spec *c, const char *dst, struct output_info *out)
{
	char path[PATH_MAX];

	(void)c;
	for (unsigned idx = 0;; idx++) {
		split_part_path(dst, idx, path, sizeof(path));
		if (workload_inspect_file(path, true, out))
			break;
	}
}

static void split_remove_output(const struct case_spec *c, const char *dst)
{
	char path[PATH_MAX];

	(void)c;
	for (unsigned idx = 0;; idx++) {
		split_part_path(dst, idx, path, sizeof(path));
		if (unlink(path))
			break;
	}
}

const struct workload workload_split = {
	.name = "split",
	.description = "a text file into parts of at most part_size bytes, cut after a newline",
	.flags = WORKLOAD_RANGES | WORKLOAD_PARTS,
	.default_dataset = DATASET_TEXT,
	.prepare = split_prepare,
	.setup = split_setup,
	.run = split_run,
	.teardown = split_teardown,
	.verify = split_verify,
	.inspect = split_inspect,
	.remove_output = split_remove_output,
};
