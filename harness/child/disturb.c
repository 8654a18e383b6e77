// SPDX-License-Identifier: MIT
/* disturb.c - observed outside causes of a slow run (see disturb.h). */
#include "disturb.h"
#include "lib/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* A made-up rate from the environment (disturb.h test hooks): true with
 * *rate set when the variable holds a number, 0 included. */
static bool test_rate(const char *name, uint64_t *rate)
{
	const char *env = getenv(name);
	char *end;

	*rate = 0;
	if (!env || !*env)
		return false;
	*rate = strtoull(env, &end, 10);
	return !*end;
}

/* What a counter growing `rate` a second since boot reads at t_ns. */
static uint64_t ramp(uint64_t rate, uint64_t t_ns)
{
	return (uint64_t)((double)rate * (double)t_ns / 1e9);
}

/* With a test hook set, both counters are made up and the machine's own
 * are not read, so what is judged is the hook's load alone. */
static bool made_up_load(struct disturb_probe *p)
{
	uint64_t steal, kib;
	bool set = test_rate(DISTURB_STEAL_ENV, &steal);

	set |= test_rate(DISTURB_REPORTING_ENV, &kib);
	if (!set)
		return false;
	p->steal_ticks = ramp(steal, p->t_ns);
	p->reported_kib = (int64_t)(ramp(kib, p->t_ns) / 2048 * 2048);
	return true;
}

void disturb_snapshot(struct disturb_probe *p)
{
	struct timespec ts;
	long hz = sysconf(_SC_CLK_TCK);
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	clock_gettime(CLOCK_MONOTONIC, &ts);
	p->t_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	p->written_pages = read_written();
	p->tick_ns = 1000000000ull / (uint64_t)(hz > 0 ? hz : 100);
	p->ncpu = n > 0 ? (unsigned)n : 1;
	if (made_up_load(p))
		return;
	p->reported_kib = read_reported_kib();
	p->steal_ticks = read_steal();
}

/* Steal surely inside the window, in ns: each CPU's count is floored, so
 * up to one tick a CPU may belong outside it. */
static double stolen_ns(const struct disturb_probe *start, const struct disturb_probe *end)
{
	uint64_t ticks = end->steal_ticks > start->steal_ticks ?
			 end->steal_ticks - start->steal_ticks : 0;

	if (ticks <= end->ncpu)
		return 0;
	return (double)(ticks - end->ncpu) * (double)end->tick_ns;
}

/* The host faults that the memory reported inside the window will cost. */
static double reporting_ns(const struct disturb_probe *start, const struct disturb_probe *end)
{
	if (start->reported_kib < 0 || end->reported_kib <= start->reported_kib)
		return 0;
	return (double)(end->reported_kib - start->reported_kib) / 4.0 * REPORTED_NS_PER_PAGE;
}

unsigned disturb_judge(const struct disturb_probe *start, const struct disturb_probe *end)
{
	double window = end->t_ns > start->t_ns ? (double)(end->t_ns - start->t_ns) : 1.0;
	unsigned ncpu = end->ncpu ? end->ncpu : 1;
	unsigned causes = 0;

	if (reporting_ns(start, end) > DISTURB_SHARE * window)
		causes |= DISTURB_REPORTING;
	if (stolen_ns(start, end) > DISTURB_SHARE * window * ncpu)
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
