// SPDX-License-Identifier: MIT
/*
 * machine_facts_from_sys.c - machine_collect_at reads each fact of
 * machine.h from its file under a root of our making: a QEMU guest with
 * free page reporting, a governor, THP, DAMON on, load, memory and a
 * container; an empty root, where every fact is absent (not false); and a
 * guest that only the CPU flag betrays, with reporting turned off by a large
 * order.
 */
#include "host/machine.h"
#include "support/testutil.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/fsinfo.h"

static char note[512];
static char root[PATH_MAX];

static void put(const char *path, const char *text)
{
	char full[PATH_MAX + 128], made[PATH_MAX], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path);
	slash = strrchr(full, '/');
	*slash = '\0';
	CHECK(fs_make_dirs(full, made, sizeof(made)) == 0);
	*slash = '/';
	f = fopen(full, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A file under the root, and its text. */
struct file {
	const char *path, *text;
};

/* root is test_tmpdir()/name holding the n files; m the facts read there. */
static void collect_from(const char *name, const struct file *files, size_t n,
			 struct machine_facts *m)
{
	snprintf(root, sizeof(root), "%s/%s", test_tmpdir(), name);
	for (size_t i = 0; i < n; i++)
		put(files[i].path, files[i].text);
	machine_collect_at(root, m);
}

#define COLLECT(name, files, m) collect_from(name, files, sizeof(files) / sizeof((files)[0]), m)

#define CHECK_STR(a, b) do { \
	test_checks++; \
	if (strcmp((a), (b))) { \
		test_failures++; \
		fprintf(stderr, "%s:%d: %s is '%s', expected '%s'\n", __FILE__, __LINE__, #a, (a), (b)); \
	} \
} while (0)

static void qemu_guest(void)
{
	static const struct file qemu[] = {
		{ "proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 hypervisor lahf_lm\n" },
		{ "sys/class/dmi/id/sys_vendor", "QEMU\n" },
		{ "sys/class/dmi/id/product_name", "Standard PC (Q35 + ICH9, 2009)\n" },
		{ "sys/bus/virtio/drivers/virtio_balloon/virtio3/features", "0000010100000000\n" },
		{ "sys/module/page_reporting/parameters/page_reporting_order", "9\n" },
		{ "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n" },
		{ "sys/devices/system/cpu/cpuidle/current_driver", "haltpoll\n" },
		{ "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n" },
		{ "sys/kernel/mm/transparent_hugepage/defrag", "[always] defer madvise never\n" },
		{ "sys/kernel/mm/damon/admin/kdamonds/0/state", "off\n" },
		{ "sys/kernel/mm/damon/admin/kdamonds/1/state", "on\n" },
		{ "proc/loadavg", "1.50 0.75 0.25 2/100 4242\n" },
		{ "proc/meminfo", "MemTotal:       24683652 kB\nMemFree: 1 kB\nSwapTotal:       1048572 kB\n" },
		{ "run/systemd/container", "podman\n" },
	};
	struct machine_facts m;

	COLLECT("qemu", qemu, &m);
	CHECK_STR(m.virt, "qemu");
	CHECK_STR(m.sys_vendor, "QEMU");
	CHECK_STR(m.product_name, "Standard PC (Q35 + ICH9, 2009)");
	CHECK(m.hypervisor_flag == 1);
	CHECK_STR(m.container, "podman");
	CHECK(m.balloon_free_page_reporting == 1);
	CHECK(m.page_reporting_order == 9);
	CHECK(m.free_page_reporting_active == 1);
	CHECK_STR(m.governor, "performance");
	CHECK_STR(m.cpuidle_driver, "haltpoll");
	CHECK_STR(m.thp, "madvise");
	CHECK_STR(m.thp_defrag, "always");
	CHECK(m.damon_active == 1);
	CHECK(m.loadavg[0] == 1.5 && m.loadavg[1] == 0.75 && m.loadavg[2] == 0.25);
	CHECK(m.mem_total_kb == 24683652 && m.swap_total_kb == 1048572);
	CHECK(machine_noise_note(&m, 2, note, sizeof(note)));
	CHECK_STR(note, "a virtual machine (qemu); free-page reporting on (--tune, as root, turns it off for a run); load 1.5 on 2 CPUs; swap on; DAMON reclaiming idle memory");
}

static void nothing_readable(void)
{
	static const struct file empty[] = { { "placeholder", "" } };	/* the root itself */
	struct machine_facts m;

	COLLECT("empty", empty, &m);
	CHECK_STR(m.virt, "none");
	CHECK(m.hypervisor_flag == -1);
	CHECK_STR(m.hypervisor_vendor, "");
	CHECK_STR(m.container, "none");
	CHECK(m.balloon_free_page_reporting == -1);
	CHECK(m.page_reporting_order == -1);
	CHECK(m.free_page_reporting_active == -1);
	CHECK_STR(m.governor, "");
	CHECK_STR(m.thp, "");
	CHECK(m.damon_active == -1);
	CHECK(m.loadavg[0] == -1);
	CHECK(m.mem_total_kb == -1 && m.swap_total_kb == -1);
	CHECK(!machine_noise_note(&m, 2, note, sizeof(note)));
	CHECK_STR(note, "");
}

static void flag_only_reporting_off(void)
{
	struct machine_facts m;
	static const struct file flag[] = {
		{ "proc/cpuinfo", "flags\t\t: fpu hypervisor\n" },
		{ "sys/bus/virtio/drivers/virtio_balloon/virtio0/features", "0000010\n" },
		{ "sys/module/page_reporting/parameters/page_reporting_order", "11\n" },
		{ "sys/kernel/mm/damon/admin/kdamonds/nr_kdamonds", "0\n" },
		{ "sys/hypervisor/type", "xen\n" },
	};

	COLLECT("flag", flag, &m);
	CHECK_STR(m.virt, "xen");
	CHECK_STR(m.hypervisor_vendor, "xen");
	CHECK(m.balloon_free_page_reporting == 1);
	CHECK(m.free_page_reporting_active == 0);
	CHECK(m.damon_active == 0);

	put("sys/hypervisor/type", "");
	machine_collect_at(root, &m);
	CHECK_STR(m.virt, "vm");
}

int main(void)
{
	qemu_guest();
	nothing_readable();
	flag_only_reporting_off();
	test_cleanup_dir();
	return test_report("machine_facts_from_sys");
}
