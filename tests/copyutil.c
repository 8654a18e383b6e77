// SPDX-License-Identifier: MIT
/*
 * copyutil.c - one whole-file copy through a strategy, checked the way the
 * harness checks it (copyutil.h): the destination has the source's size
 * and hash.
 */
#include "copyutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int copyutil_copy_verify(const struct copy_strategy *s,
			 const char *src, const char *dst,
			 uint64_t size, uint64_t hash,
			 char *why, size_t n)
{
	struct copy_job job = {
		.len = size,
		.buffer_size = COPYUTIL_BUFFER_SIZE,
		.queue_depth = COPYUTIL_QUEUE_DEPTH,
		.threads = COPYUTIL_THREADS,
	};
	uint64_t got = 0;
	struct stat st;
	int ret;

	job.src_fd = open(src, O_RDONLY | O_CLOEXEC);
	if (job.src_fd < 0) {
		snprintf(why, n, "open source: %s", strerror(errno));
		return -errno;
	}
	job.dst_fd = open(dst, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (job.dst_fd < 0) {
		ret = -errno;
		snprintf(why, n, "create destination: %s", strerror(errno));
		goto out_close_src;
	}
	ret = s->copy(&job);
	if (ret) {
		snprintf(why, n, "copy returned %d (%s)", ret, strerror(-ret));
		goto out_close_dst;
	}
	if (fstat(job.dst_fd, &st)) {
		ret = -errno;
		snprintf(why, n, "fstat destination: %s", strerror(errno));
		goto out_close_dst;
	}
	if ((uint64_t)st.st_size != size) {
		ret = -EBADMSG;
		snprintf(why, n, "destination has %lld bytes, expected %llu",
			 (long long)st.st_size, (unsigned long long)size);
		goto out_close_dst;
	}
	ret = hash_fd_range(job.dst_fd, 0, size, &got);
	if (ret) {
		snprintf(why, n, "hash destination: %s", strerror(-ret));
		goto out_close_dst;
	}
	if (got != hash) {
		ret = -EBADMSG;
		snprintf(why, n, "destination hash %016llx, expected %016llx",
			 (unsigned long long)got, (unsigned long long)hash);
	}
out_close_dst:
	close(job.dst_fd);
out_close_src:
	close(job.src_fd);
	return ret;
}
