// SPDX-License-Identifier: MIT
/*
 * machine.c - the machine facts of machine.h, each from one file of /proc or
 * /sys. Virtualisation is told the way systemd-detect-virt tells it: the
 * firmware's (DMI) vendor and product names first, then the hypervisor's
 * CPUID signature, then the hypervisor flag the CPU reports to the guest
 * (docs/noise.md lists where each fact comes from).
 */
#include "machine.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The first line of root/path, without its newline; "" when unreadable. */
static void read_line(const char *root, const char *path, char *out, size_t n)
{
	char full[512];
	FILE *f;

	out[0] = '\0';
	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "re");
	if (!f)
		return;
	if (!fgets(out, (int)n, f))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

static bool file_exists(const char *root, const char *path)
{
	char full[512];

	snprintf(full, sizeof(full), "%s%s", root, path);
	return access(full, F_OK) == 0;
}

/* ------------------------------------------------------ virtualisation -- */

/* DMI vendor or product names that only virtual machines carry. */
static const struct {
	const char *prefix;
	const char *virt;
} dmi_names[] = {
	{ "KVM", "kvm" }, { "OpenStack", "kvm" }, { "KubeVirt", "kvm" },
	{ "QEMU", "qemu" }, { "Amazon EC2", "amazon" }, { "Google Compute Engine", "google" },
	{ "VMware", "vmware" }, { "VMW", "vmware" }, { "innotek GmbH", "oracle" },
	{ "VirtualBox", "oracle" }, { "Oracle Corporation", "oracle" }, { "Xen", "xen" },
	{ "Bochs", "bochs" }, { "Parallels", "parallels" }, { "BHYVE", "bhyve" },
	{ "Apple Virtualization", "apple" },
};

static const char *dmi_virt(const char *name)
{
	for (size_t i = 0; i < sizeof(dmi_names) / sizeof(dmi_names[0]); i++)
		if (strncmp(name, dmi_names[i].prefix, strlen(dmi_names[i].prefix)) == 0)
			return dmi_names[i].virt;
	return NULL;
}

/* Is "hypervisor" among the flags of /proc/cpuinfo? -1 when unreadable. */
static int cpuinfo_hypervisor(const char *root)
{
	char path[512], line[4096];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0)
			found = strstr(line, " hypervisor") != NULL;
	fclose(f);
	return found;
}

/* CPUID signatures of hypervisors (leaf 0x40000000, EBX ECX EDX). */
static const struct {
	const char *signature;
	const char *virt;
} cpuid_names[] = {
	{ "KVMKVMKVM", "kvm" }, { "TCGTCGTCGTCG", "qemu" }, { "Microsoft Hv", "microsoft" },
	{ "VMwareVMware", "vmware" }, { "XenVMMXenVMM", "xen" }, { "VBoxVBoxVBox", "oracle" },
	{ "bhyve bhyve ", "bhyve" }, { " lrpepyh  vr", "parallels" }, { "ACRNACRNACRN", "acrn" },
};

/* The hypervisor's signature when the CPU says there is one; "" else. */
static void cpuid_hypervisor(char *out, size_t n)
{
	out[0] = '\0';
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	char sig[13];

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	snprintf(out, n, "%s", sig);
#else
	(void)n;
#endif
}

static const char *signature_virt(const char *sig)
{
	for (size_t i = 0; i < sizeof(cpuid_names) / sizeof(cpuid_names[0]); i++)
		if (!strcmp(sig, cpuid_names[i].signature))
			return cpuid_names[i].virt;
	return NULL;
}

static void detect_virt(const char *root, struct machine_facts *m)
{
	const char *v;

	read_line(root, "/sys/class/dmi/id/sys_vendor", m->sys_vendor, sizeof(m->sys_vendor));
	read_line(root, "/sys/class/dmi/id/product_name", m->product_name, sizeof(m->product_name));
	m->hypervisor_flag = cpuinfo_hypervisor(root);
	if (!root[0])
		cpuid_hypervisor(m->hypervisor_vendor, sizeof(m->hypervisor_vendor));
	if (!m->hypervisor_vendor[0])
		read_line(root, "/sys/hypervisor/type", m->hypervisor_vendor, sizeof(m->hypervisor_vendor));
	v = dmi_virt(m->product_name);
	if (!v)
		v = dmi_virt(m->sys_vendor);
	/* Microsoft also makes real machines: only its "Virtual Machine" is one */
	if (!v && !strcmp(m->sys_vendor, "Microsoft Corporation") &&
	    !strcmp(m->product_name, "Virtual Machine"))
		v = "microsoft";
	if (!v)
		v = signature_virt(m->hypervisor_vendor);
	if (!v && !strcmp(m->hypervisor_vendor, "xen"))
		v = "xen";
	if (!v)
		v = m->hypervisor_flag == 1 ? "vm" : "none";
	snprintf(m->virt, sizeof(m->virt), "%s", v);
}

static void detect_container(const char *root, struct machine_facts *m)
{
	read_line(root, "/run/systemd/container", m->container, sizeof(m->container));
	if (m->container[0])
		return;
	if (file_exists(root, "/.dockerenv"))
		snprintf(m->container, sizeof(m->container), "docker");
	else if (file_exists(root, "/run/.containerenv"))
		snprintf(m->container, sizeof(m->container), "podman");
	else
		snprintf(m->container, sizeof(m->container), "none");
}

/* -------------------------------------------------------------- memory -- */

#define BALLOON_F_REPORTING 5	/* VIRTIO_BALLOON_F_REPORTING */

/* features is one '0'/'1' per feature bit, bit 0 first. */
static void detect_balloon(const char *root, struct machine_facts *m)
{
	char pattern[512], features[256];
	glob_t g;

	m->balloon_free_page_reporting = -1;
	snprintf(pattern, sizeof(pattern), "%s/sys/bus/virtio/drivers/virtio_balloon/virtio*/features", root);
	if (glob(pattern, 0, NULL, &g) == 0) {
		read_line("", g.gl_pathv[0], features, sizeof(features));
		if (features[0])
			m->balloon_free_page_reporting = strlen(features) > BALLOON_F_REPORTING &&
							 features[BALLOON_F_REPORTING] == '1';
		globfree(&g);
	}
	read_line(root, "/sys/module/page_reporting/parameters/page_reporting_order",
		  features, sizeof(features));
	m->page_reporting_order = features[0] ? atoi(features) : -1;
	m->free_page_reporting_active = m->balloon_free_page_reporting < 0 ? -1 :
		m->balloon_free_page_reporting && m->page_reporting_order <= 10;
}

/* "always [madvise] never": the bracketed word. */
static void read_choice(const char *root, const char *path, char *out, size_t n)
{
	char line[256], *open, *close;

	read_line(root, path, line, sizeof(line));
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close)
		snprintf(out, n, "%.*s", (int)(close - open - 1), open + 1);
}

/* Any kdamond "on"? -1 when the DAMON sysfs interface is absent. */
static void detect_damon(const char *root, struct machine_facts *m)
{
	char pattern[512], state[16];
	glob_t g;

	m->damon_active = file_exists(root, "/sys/kernel/mm/damon/admin/kdamonds") ? 0 : -1;
	snprintf(pattern, sizeof(pattern), "%s/sys/kernel/mm/damon/admin/kdamonds/*/state", root);
	if (glob(pattern, 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		read_line("", g.gl_pathv[i], state, sizeof(state));
		if (!strcmp(state, "on"))
			m->damon_active = 1;
	}
	globfree(&g);
}

static void read_meminfo(const char *root, struct machine_facts *m)
{
	char path[512], line[256];
	long long kb;
	FILE *f;

	m->mem_total_kb = m->swap_total_kb = -1;
	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
			m->mem_total_kb = kb;
		else if (sscanf(line, "SwapTotal: %lld kB", &kb) == 1)
			m->swap_total_kb = kb;
	}
	fclose(f);
}

/* ------------------------------------------------------------ the rest -- */

static void read_loadavg(const char *root, struct machine_facts *m)
{
	char line[128];

	read_line(root, "/proc/loadavg", line, sizeof(line));
	if (sscanf(line, "%lf %lf %lf", &m->loadavg[0], &m->loadavg[1], &m->loadavg[2]) != 3)
		m->loadavg[0] = m->loadavg[1] = m->loadavg[2] = -1;
}

void machine_collect_at(const char *root, struct machine_facts *m)
{
	memset(m, 0, sizeof(*m));
	detect_virt(root, m);
	detect_container(root, m);
	detect_balloon(root, m);
	read_line(root, "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  m->governor, sizeof(m->governor));
	read_choice(root, "/sys/kernel/mm/transparent_hugepage/enabled", m->thp, sizeof(m->thp));
	read_choice(root, "/sys/kernel/mm/transparent_hugepage/defrag", m->thp_defrag,
		    sizeof(m->thp_defrag));
	read_line(root, "/sys/devices/system/cpu/cpuidle/current_driver", m->cpuidle_driver,
		  sizeof(m->cpuidle_driver));
	detect_damon(root, m);
	read_loadavg(root, m);
	read_meminfo(root, m);
	m->first_touch.us_4k = m->first_touch.us_huge = -1;
}

void machine_collect(struct machine_facts *m)
{
	machine_collect_at("", m);
}

/* Once per process: every filesystem of --fs shows the same figure. */
void machine_measure(struct machine_facts *m)
{
	static struct first_touch measured;
	static bool done;

	if (!done)
		first_touch_measure(&measured);
	done = true;
	m->first_touch = measured;
}

/* Appends "; " and one formatted fact to out. */
static void note_add(char *out, size_t n, size_t *len, const char *fact)
{
	if (*len < n)
		*len += (size_t)snprintf(out + *len, n - *len, "%s%s", *len ? "; " : "", fact);
}

bool machine_noise_note(const struct machine_facts *m, unsigned ncpu, char *out, size_t n)
{
	char fact[96];
	size_t len = 0;

	out[0] = '\0';
	if (m->virt[0] && strcmp(m->virt, "none")) {
		snprintf(fact, sizeof(fact), "a virtual machine (%s)", m->virt);
		note_add(out, n, &len, fact);
	}
	if (m->free_page_reporting_active > 0)
		note_add(out, n, &len, "free-page reporting on (--tune, as root, turns it off for a run)");
	if (m->loadavg[0] > 0.5) {
		snprintf(fact, sizeof(fact), "load %.1f on %u CPUs", m->loadavg[0], ncpu);
		note_add(out, n, &len, fact);
	}
	if (m->swap_total_kb > 0)
		note_add(out, n, &len, "swap on");
	if (m->governor[0] && strcmp(m->governor, "performance")) {
		snprintf(fact, sizeof(fact), "CPU frequency governor %s", m->governor);
		note_add(out, n, &len, fact);
	}
	if (strcmp(m->thp, "always") == 0)
		note_add(out, n, &len, "transparent huge pages always");
	if (m->damon_active > 0)
		note_add(out, n, &len, "DAMON reclaiming idle memory");
	return len > 0;
}