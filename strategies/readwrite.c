// SPDX-License-Identifier: MIT
/*
 * readwrite.c - the plain read(2)/write(2) loop, and the commented example to
 * copy when adding a strategy.
 *
 * One page-aligned buffer of job->buffer_size bytes is allocated once and
 * reused. pread/pwrite carry explicit offsets, so the same code serves whole
 * copies and the split workload's ranges, and the descriptors' file offsets
 * are left alone. Like coreutils cp, it tells the kernel the source is read
 * sequentially (POSIX_FADV_SEQUENTIAL doubles the readahead window).
 *
 * How many calls: ceil(len / buffer) pread64 and as many pwrite64 (+1 pread64
 * that sees end of file when the source is shorter than len) and one
 * fadvise64. Which calls is .syscalls at the bottom: a fact that
 * tests/strategies/declared_syscalls_match_counts.c checks (the rule is in
 * strategy.h).
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

static int readwrite_copy(const struct copy_job *job)
{
	size_t bufsz = job->buffer_size ? job->buffer_size : STRATEGY_DEFAULT_BUFFER;
	uint64_t done = 0;
	char *buf;
	int ret = 0;

	if (job->len == 0)
		return 0;
	if (bufsz > job->len)
		bufsz = (size_t)job->len;
	buf = page_buf_alloc(bufsz);
	if (!buf)
		return -ENOMEM;
	posix_fadvise(job->src_fd, (off_t)job->src_off, (off_t)job->len,
		      POSIX_FADV_SEQUENTIAL);

	while (done < job->len) {
		size_t want = job->len - done < bufsz ? (size_t)(job->len - done) : bufsz;
		ssize_t got = full_pread(job->src_fd, buf, want, job->src_off + done);

		if (got < 0) {
			ret = (int)got;
			goto out_free_buf;
		}
		if (got == 0) {		/* source shorter than promised */
			ret = -ENODATA;
			goto out_free_buf;
		}
		ret = full_pwrite(job->dst_fd, buf, (size_t)got, job->dst_off + done);
		if (ret)
			goto out_free_buf;
		done += (uint64_t)got;
	}

out_free_buf:
	page_buf_free(buf, bufsz);
	return ret;
}

/* The whole module, as the harness sees it. No probe: always available. */
const struct copy_strategy strategy_readwrite = {
	.name = "readwrite",
	.description = "pread(2)/pwrite(2) loop through one reused page-aligned buffer",
	.syscalls = "pread64,pwrite64,fadvise64",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE | STRATEGY_TREE_DEFAULT,
	.copy = readwrite_copy,
};
