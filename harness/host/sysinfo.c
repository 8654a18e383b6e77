// SPDX-License-Identifier: MIT
/* sysinfo.c - host, kernel, CPU model, the filesystem under test and the
 * machine's facts, read from uname(2), /proc/cpuinfo, fsinfo and machine.c. */
#include "sysinfo.h"
#include "lib/fsinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void cpu_model(char *out, size_t n)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "re");

	snprintf(out, n, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, "model name", 10) != 0)
			continue;
		colon++;
		while (*colon == ' ')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, n, "%s", colon);
		break;
	}
	fclose(f);
}

void sysinfo_collect(const char *dir, struct sysinfo_env *env)
{
	struct utsname u;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(env, 0, sizeof(*env));
	if (uname(&u) == 0) {
		snprintf(env->host, sizeof(env->host), "%s", u.nodename);
		snprintf(env->kernel, sizeof(env->kernel), "%s", u.release);
	}
	if (!realpath(dir, env->dir))
		snprintf(env->dir, sizeof(env->dir), "%s", dir);
	fs_mount_info(dir, &env->fs);
	snprintf(env->fs_type, sizeof(env->fs_type), "%s", env->fs.type);
	cpu_model(env->cpu_model, sizeof(env->cpu_model));
	machine_collect(&env->machine);
	machine_measure(&env->machine);
	env->ncpu = ncpu > 0 ? (unsigned)ncpu : 1;
}
