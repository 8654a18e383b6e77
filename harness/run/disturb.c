// SPDX-License-Identifier: MIT
/* disturb.c - observed outside causes of a slow run (see disturb.h). */
#include "disturb.h"

#include <stdio.h>
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

void disturb_snapshot(struct disturb_probe *p)
{
	p->reported_kib = read_reported_kib();
	p->steal_ticks = read_steal();
}

unsigned disturb_judge(const struct disturb_probe *before, const struct disturb_probe *start,
		       const struct disturb_probe *end, uint64_t wall_ns,
		       uint64_t cpu_wait_ns, bool multi_cpu)
{
	unsigned causes = 0;

	if (end->reported_kib > start->reported_kib ||
	    (before->reported_kib >= 0 && start->reported_kib > before->reported_kib))
		causes |= DISTURB_REPORTING;
	if (end->steal_ticks > start->steal_ticks)
		causes |= DISTURB_STEAL;
	if (!multi_cpu && cpu_wait_ns * 20 > wall_ns)
		causes |= DISTURB_CPU_WAIT;
	return causes;
}

void disturb_name(unsigned causes, char *out, size_t n)
{
	static const char *const names[] = { "reporting", "steal", "cpu-wait" };
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
