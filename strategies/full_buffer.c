// SPDX-License-Identifier: MIT
/*
 * full_buffer.c - read the whole range into one buffer, then write it.
 *
 * This is the first copy commons-io ever shipped: read the entire file into
 * a byte array, then write the array out. It needs as much memory as the
 * file is large, so it is the baseline that shows what one huge read and one
 * huge write cost (page faults on a fresh buffer, no overlap of reading and
 * writing) and where it stops being possible at all.
 *
 * Choices:
 *   - one malloc() of exactly len bytes (glibc serves it with mmap, so the
 *     pages are faulted in fresh on every call, as a new Java array is);
 *   - pread/pwrite with explicit offsets, so ranges work and the descriptors'
 *     file offsets are untouched; the kernel moves at most 0x7ffff000 bytes
 *     per call, so ranges over 2 GiB take several calls;
 *   - a RAM budget: half of MemAvailable from /proc/meminfo, or exactly the
 *     byte count in the environment variable COPYBENCH_RAM_BUDGET. A range
 *     larger than the budget is refused with -EFBIG, which for this strategy
 *     means "over the RAM budget", rather than pushing the machine into swap.
 *
 * Expected syscalls per call: ceil(len / 0x7ffff000) pread64 and as many
 * pwrite64 and, when no budget is set in the environment, openat,
 * newfstatat, read and close for /proc/meminfo. malloc/free of the large
 * buffer add libc's mmap/munmap, which .syscalls leaves out (strategy.h).
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FULL_BUFFER_BUDGET_ENV "COPYBENCH_RAM_BUDGET"

/* MemAvailable in bytes, or 0 when /proc/meminfo cannot tell. */
static uint64_t full_buffer_mem_available(void)
{
	unsigned long long kib = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

/* The largest range this strategy will hold in memory, in bytes. */
static uint64_t full_buffer_budget(void)
{
	const char *env = getenv(FULL_BUFFER_BUDGET_ENV);
	uint64_t avail;

	if (env && *env) {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(env, &end, 10);
		if (errno == 0 && *end == '\0')
			return v;
	}
	avail = full_buffer_mem_available();
	if (avail == 0) {
		long pages = sysconf(_SC_AVPHYS_PAGES);
		long page = sysconf(_SC_PAGESIZE);

		if (pages > 0 && page > 0)
			avail = (uint64_t)pages * (uint64_t)page;
	}
	return avail / 2;
}

static int full_buffer_copy(const struct copy_job *job)
{
	ssize_t got;
	char *buf;
	int ret;

	if (job->len == 0)
		return 0;
	if (job->len > full_buffer_budget() || job->len > (uint64_t)SSIZE_MAX)
		return -EFBIG;
	buf = malloc((size_t)job->len);
	if (!buf)
		return -ENOMEM;

	got = full_pread(job->src_fd, buf, (size_t)job->len, job->src_off);
	if (got < 0) {
		ret = (int)got;
		goto out_free_buf;
	}
	if ((uint64_t)got < job->len) {	/* source shorter than promised */
		ret = -ENODATA;
		goto out_free_buf;
	}
	ret = full_pwrite(job->dst_fd, buf, (size_t)job->len, job->dst_off);

out_free_buf:
	free(buf);
	return ret;
}

const struct copy_strategy strategy_full_buffer = {
	.name = "full-buffer",
	.description = "read the whole range into one malloc'd buffer, then write it (commons-io's first copy)",
	.syscalls = "pread64,pwrite64,openat,newfstatat,read,close",
	.flags = STRATEGY_WHOLE_FILE | STRATEGY_RANGE,
	.copy = full_buffer_copy,
};
