// SPDX-License-Identifier: MIT
/* firsttouch.c - the first-touch cost of fresh memory (see firsttouch.h). */
#include "firsttouch.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* small: bench may run in a memory cgroup of a few tens of MiB */
#define FT_BYTES_4K (1u << 20)
#define FT_ROUNDS 3
#define FT_PAGE 4096u
#define FT_HUGE (2u << 20)

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* AnonHugePages of this process, in KiB; -1 when it cannot be read. */
static long anon_huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "re");
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/*
 * One round: a fresh mapping (FT_BYTES_4K, or one huge page), one byte
 * written per 4 KiB; µs per 4 KiB, or -1 when it could not be had (huge:
 * the kernel gave no huge page).
 */
static double touch_round(bool huge)
{
	size_t bytes = huge ? FT_HUGE : FT_BYTES_4K, map_len = bytes + FT_HUGE;
	char *map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p;
	long huge0 = 0, huge1 = 0;
	uint64_t t0, t1;

	if (map == MAP_FAILED)
		return -1;
	p = (char *)(((uintptr_t)map + FT_HUGE - 1) & ~(uintptr_t)(FT_HUGE - 1));
	if (madvise(p, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) && huge)
		goto out_unmap_none;
	huge0 = anon_huge_kb();
	t0 = now_ns();
	for (size_t off = 0; off < bytes; off += FT_PAGE)
		((volatile char *)p)[off] = 1;
	t1 = now_ns();
	huge1 = anon_huge_kb();
	munmap(map, map_len);
	if (huge && (huge0 < 0 || huge1 - huge0 < (long)(bytes >> 10)))
		return -1;
	return (double)(t1 - t0) / 1e3 / (bytes / FT_PAGE);
out_unmap_none:
	munmap(map, map_len);
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of FT_ROUNDS rounds; -1 when any round could not be had. */
static double touch_median(bool huge)
{
	double us[FT_ROUNDS];

	for (int i = 0; i < FT_ROUNDS; i++) {
		us[i] = touch_round(huge);
		if (us[i] < 0)
			return -1;
	}
	qsort(us, FT_ROUNDS, sizeof(us[0]), cmp_double);
	return us[FT_ROUNDS / 2];
}

void first_touch_measure(struct first_touch *ft)
{
	ft->us_4k = touch_median(false);
	ft->us_huge = touch_median(true);
}
