// SPDX-License-Identifier: MIT
/*
 * common.c - pieces every workload may use: a variant of its own by name, a
 * copy job from a case's knobs, verification of a one-file output against a
 * size and XXH3 hash, and its removal.
 */
#include "workload.h"
#include "lib/fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Fills a copy job from the case's knobs; shared with the split workload. */
void workload_fill_job(const struct case_spec *c, struct copy_job *job)
{
	memset(job, 0, sizeof(*job));
	job->buffer_size = c->buffer;
	job->queue_depth = c->queue_depth;
	job->threads = c->threads;
}


/* Size and XXH3 of the output against the source's. */
int workload_verify_file_hash(const char *path, uint64_t size, uint64_t hash,
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
		err = hash_fd_mapped(fd, size, &got);	/* its size was checked */
	if (!err && got != hash) {
		snprintf(why, n, "output hash %016llx differs from the source's %016llx",
			 (unsigned long long)got, (unsigned long long)hash);
		err = -EBADMSG;
	}
	close(fd);
	return err;
}


int workload_verify_output_hash(const struct case_spec *c, const char *dst, char *why, size_t n)
{
	return workload_verify_file_hash(dst, c->expect_size, c->expect_hash, why, n);
}


void workload_remove_output_file(const struct case_spec *c, const char *dst)
{
	(void)c;
	unlink(dst);
}

/* Bytes of fd's first size bytes in holes (SEEK_HOLE, SEEK_DATA); 0 where
 * the filesystem keeps no holes or does not say (it reports all data). */
static uint64_t hole_bytes(int fd, uint64_t size)
{
	uint64_t holes = 0;
	off_t at = 0;

	while ((uint64_t)at < size) {
		off_t hole = lseek(fd, at, SEEK_HOLE), data;

		if (hole < 0 || (uint64_t)hole >= size)
			break;
		data = lseek(fd, hole, SEEK_DATA);
		if (data < 0 || (uint64_t)data > size)
			data = (off_t)size;	/* ENXIO: a hole to the end */
		holes += (uint64_t)(data - hole);
		at = data;
	}
	return holes;
}

static int inspect_fd(int fd, bool may_share, struct output_info *out)
{
	struct stat st;
	bool shared = false;

	if (fstat(fd, &st))
		return -errno;
	out->blocks += (uint64_t)st.st_blocks;
	out->hole_bytes += hole_bytes(fd, (uint64_t)st.st_size);
	/* FIEMAP refused (tmpfs): nothing is shared */
	if (may_share && fs_fd_shares_extents(fd, &shared) == 0 && shared)
		out->shared_extents = true;
	return 0;
}

int workload_inspect_file(const char *path, bool may_share, struct output_info *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	err = inspect_fd(fd, may_share, out);
	close(fd);
	return err;
}

void workload_inspect_output_file(const struct case_spec *c, const char *dst,
				  struct output_info *out)
{
	(void)c;
	workload_inspect_file(dst, true, out);
}

const struct workload_variant *workload_variant_find(const struct workload *wl,
						      const char *name)
{
	for (const struct workload_variant *v = wl->own_variants; v && v->name; v++)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}
