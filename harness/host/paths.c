// SPDX-License-Identifier: MIT
/* paths.c - source-tree mode or installed, and the default dataset folder
 * (see paths.h). */
#include "paths.h"

#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int paths_exe_dir(char *out, size_t n)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (len <= 0)
		return -errno;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(out, n, "%s", exe);
	return 0;
}

/* Only a build that knows its trees (CMakeLists.txt sets both) has a source
 * tree to fall back on; another (the fuzz targets) is always on its own. */
#if defined(COPYBENCH_SOURCE_DIR) && defined(COPYBENCH_BUILD_DIR)
/* Is dir inside (or equal to) top? Both real paths. */
static bool path_within(const char *dir, const char *top)
{
	size_t n = strlen(top);

	return strncmp(dir, top, n) == 0 && (dir[n] == '/' || dir[n] == '\0');
}
#endif

const char *paths_source_dir(void)
{
#if defined(COPYBENCH_SOURCE_DIR) && defined(COPYBENCH_BUILD_DIR)
	char exe[PATH_MAX], build[PATH_MAX];

	if (paths_exe_dir(exe, sizeof(exe)) == 0 && realpath(COPYBENCH_BUILD_DIR, build) &&
	    path_within(exe, build))
		return COPYBENCH_SOURCE_DIR;
#endif
	return NULL;
}

/* $HOME, else the password database's home of the user. */
static const char *home_dir(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (home && home[0] == '/')
		return home;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

void paths_dataset_dir(char *out, size_t n)
{
	const char *cache = getenv("XDG_CACHE_HOME"), *home;

	if (paths_source_dir()) {
		snprintf(out, n, "datasets/cache");
		return;
	}
	/* the XDG base directory rule: only an absolute $XDG_CACHE_HOME counts */
	if (cache && cache[0] == '/') {
		snprintf(out, n, "%s/copybench", cache);
		return;
	}
	home = home_dir();
	if (home)
		snprintf(out, n, "%s/.cache/copybench", home);
	else
		snprintf(out, n, "datasets/cache");
}
