// SPDX-License-Identifier: MIT
/* sysinfo.c - host, kernel, CPU model and the filesystem under test, read
 * from uname(2), /proc/cpuinfo and /proc/self/mountinfo. */
#include "sysinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Is mount point mp a path prefix of path (at a component boundary)? */
static size_t mount_prefix_len(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return 1;
	if (strncmp(mp, path, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return n;
	return 0;
}

int sysinfo_fs_type(const char *path, char *out, size_t n)
{
	char real[PATH_MAX], line[4096];
	size_t best = 0;
	FILE *f;

	snprintf(out, n, "unknown");
	if (!realpath(path, real))
		return -errno;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint opts [optional...] - fstype src opts */
		char mp[PATH_MAX], *sep, fstype[64];
		size_t len;

		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1)
			continue;
		len = mount_prefix_len(mp, real);
		if (len && len >= best) {
			best = len;
			snprintf(out, n, "%s", fstype);
		}
	}
	fclose(f);
	return 0;
}

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
	sysinfo_fs_type(dir, env->fs_type, sizeof(env->fs_type));
	cpu_model(env->cpu_model, sizeof(env->cpu_model));
	env->ncpu = ncpu > 0 ? (unsigned)ncpu : 1;
}
