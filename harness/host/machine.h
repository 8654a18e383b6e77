/* SPDX-License-Identifier: MIT */
/*
 * machine.h - the facts about this machine that make timings noisier or
 * explain them: whether it is a virtual machine, whether the hypervisor takes
 * freed guest memory back (virtio-balloon free page reporting), the CPU
 * frequency governor, transparent huge pages, DAMON, load, memory and swap.
 * Read from /proc and /sys, once, for meta.json and for warnings.
 *
 * A fact that cannot be read here is "" (strings) or -1 (numbers): absent,
 * not false.
 */
#ifndef COPYBENCH_MACHINE_H
#define COPYBENCH_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "firsttouch.h"

struct machine_facts {
	/* "none", or the hypervisor as systemd-detect-virt names it ("kvm",
	 * "qemu", "vmware", "microsoft", "oracle", "xen", "amazon", "google",
	 * "parallels", "bochs"), or "vm" when only the CPU's hypervisor flag
	 * says so. */
	char virt[32];
	/* The hypervisor's own name for itself (CPUID leaf 0x40000000,
	 * "KVMKVMKVM"), or /sys/hypervisor/type; "" when none. */
	char hypervisor_vendor[16];
	char sys_vendor[96];		/* /sys/class/dmi/id/sys_vendor */
	char product_name[96];		/* /sys/class/dmi/id/product_name */
	int hypervisor_flag;		/* cpuid's hypervisor bit (/proc/cpuinfo) */
	/* The container manager ("docker", "podman", or /run/systemd/container's
	 * word), "none" when no sign of one. */
	char container[32];
	/* virtio-balloon: -1 no balloon device; else whether free page
	 * reporting (feature bit 5) was negotiated: freed guest pages go back to
	 * the host and come back as page faults. */
	int balloon_free_page_reporting;
	int page_reporting_order;	/* /sys/module/page_reporting/parameters */
	/* Reporting happens: the feature is on and the order is one the kernel
	 * has (10 or less; --tune raises it to turn reporting off). */
	int free_page_reporting_active;
	char governor[32];		/* cpu0's cpufreq scaling_governor */
	char thp[16];			/* transparent_hugepage/enabled: the [chosen] one */
	char thp_defrag[16];		/* transparent_hugepage/defrag: the [chosen] one */
	char cpuidle_driver[32];	/* cpuidle/current_driver ("haltpoll") */
	int damon_active;		/* a kdamond is "on" */
	double loadavg[3];		/* 1, 5 and 15 minutes; -1 unknown */
	int64_t mem_total_kb;		/* /proc/meminfo MemTotal */
	int64_t swap_total_kb;		/* /proc/meminfo SwapTotal */
	/* Fresh memory's first-touch cost (firsttouch.h): measured by
	 * machine_measure(), not read; unknown (< 0) until then. */
	struct first_touch first_touch;
};

/* Reads the facts of this machine. */
void machine_collect(struct machine_facts *m);
/* Measures the facts that are timed, not read: fresh memory's first touch. */
void machine_measure(struct machine_facts *m);
/*
 * The same under another root: every /proc and /sys path is read below
 * root ("" for the machine itself). For tests of the parsing.
 */
void machine_collect_at(const char *root, struct machine_facts *m);

/*
 * One line on what about this machine makes timings noisier (a VM, free
 * page reporting, load, swap, a frequency governor that scales, THP always,
 * DAMON); false when nothing applies. ncpu: the CPUs online.
 */
bool machine_noise_note(const struct machine_facts *m, unsigned ncpu, char *out, size_t n);

#endif
