// SPDX-License-Identifier: MIT
/* disturb.c - observed outside causes of a slow run (see disturb.h). */
#include "disturb.h"
#include "rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORTED_KIB "/sys/module/page_reporting/parameters/reported_kib"

static int64_t read_reported_kib(void)
{
	long long v;
	FILE *f = fopen(REPORTED_KIB, "re");

	if (!f)
		return -1;
	if (fscanf(f, "%lld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* The 8th value of /proc/stat's first line: steal, in clock ticks. */
static uint64_t read_steal(void)
{
	unsigned long long v[8] = { 0 };
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return 0;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		v[7] = 0;
	fclose(f);
	return v[7];
}

/* Pages written back since boot (/proc/vmstat nr_written); 0 unknown. */
static uint64_t read_written(void)
{
	unsigned long long v = 0;
	char line[128];
	FILE *f = fopen("/proc/vmstat", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "nr_written %llu", &v) == 1)
			break;
	fclose(f);
	return v;
}

void disturb_snapshot(struct disturb_probe *p)
{
	p->reported_kib = read_reported_kib();
	p->steal_ticks = read_steal();
	p->written_pages = read_written();
}

unsigned disturb_judge(const struct disturb_probe *start, const struct disturb_probe *end)
{
	unsigned causes = 0;

	if (start->reported_kib >= 0 && end->reported_kib > start->reported_kib)
		causes |= DISTURB_REPORTING;
	if (end->steal_ticks > start->steal_ticks)
		causes |= DISTURB_STEAL;
	return causes;
}

unsigned disturb_test_mark(uint64_t seed, unsigned seq)
{
	const char *env = getenv(DISTURB_TEST_ENV);
	uint64_t x = seed ^ (0x9e3779b97f4a7c15ull * seq);
	char *end;
	unsigned long pct;

	if (!env || !*env)
		return 0;
	pct = strtoul(env, &end, 10);
	if (*end || pct == 0)
		return 0;
	return splitmix64(&x) % 100 < pct ? DISTURB_TEST : 0;
}

void disturb_name(unsigned causes, char *out, size_t n)
{
	static const char *const names[] = { "reporting", "steal", "test" };
	size_t len = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < 3; i++)
		if ((causes & (1u << i)) && len < n)
			len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "+" : "", names[i]);
}

bool disturb_thread_times(uint64_t *wait_ns, uint64_t *run_ns)
{
	unsigned long long run, wait;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%llu %llu", &run, &wait) == 2;
	fclose(f);
	if (ok) {
		*wait_ns = wait;
		*run_ns = run;
	}
	return ok;
}
