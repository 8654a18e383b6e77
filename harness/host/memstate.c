// SPDX-License-Identifier: MIT
/* memstate.c - dirty pages, writeback and the background threshold. */
#include "memstate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WRITEBACK_DONE_KB 1024u
#define WRITEBACK_POLL_MS 10u

int memstate_read(struct memstate *m)
{
	char line[128];
	FILE *f = fopen("/proc/meminfo", "re");

	memset(m, 0, sizeof(*m));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;

		if (sscanf(line, "Dirty: %llu", &v) == 1)
			m->dirty_kb = v;
		else if (sscanf(line, "Writeback: %llu", &v) == 1)
			m->writeback_kb = v;
		else if (sscanf(line, "MemAvailable: %llu", &v) == 1)
			m->available_kb = v;
	}
	fclose(f);
	return 0;
}

bool memstate_wait_writeback(unsigned timeout_ms, struct memstate *m)
{
	const struct timespec poll = { 0, WRITEBACK_POLL_MS * 1000000l };

	for (unsigned waited = 0;; waited += WRITEBACK_POLL_MS) {
		if (memstate_read(m))
			return false;
		if (m->writeback_kb < WRITEBACK_DONE_KB)
			return true;
		if (waited >= timeout_ms)
			return false;
		nanosleep(&poll, NULL);
	}
}

static uint64_t read_sysctl_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

uint64_t memstate_background_threshold(void)
{
	const char *env = getenv(MEMSTATE_THRESHOLD_ENV);
	uint64_t bytes = read_sysctl_u64("/proc/sys/vm/dirty_background_bytes");
	uint64_t ratio = read_sysctl_u64("/proc/sys/vm/dirty_background_ratio");
	struct memstate m;

	if (env && *env)	/* tests: a threshold without touching the sysctl */
		return strtoull(env, NULL, 10);
	if (bytes)
		return bytes;
	if (!ratio || memstate_read(&m))
		return 0;
	return m.available_kb * 1024u / 100u * ratio;
}
