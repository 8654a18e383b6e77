/* SPDX-License-Identifier: MIT */
/* sysinfo.h - what machine, kernel and filesystem a result comes from. */
#ifndef COPYBENCH_SYSINFO_H
#define COPYBENCH_SYSINFO_H

#include <limits.h>
#include <stddef.h>

#include "machine.h"
#include "lib/fsinfo.h"

struct sysinfo_env {
	char host[128];
	char kernel[128];
	char fs_type[64];
	char cpu_model[160];
	char fs_options[256];	/* bench --fs: how bench made the filesystem */
	unsigned ncpu;
	char dir[PATH_MAX];		/* the real path of --dir */
	struct fs_mount fs;		/* the filesystem under --dir */
	struct machine_facts machine;
};

/* Fills env for files under dir (fs_type "unknown" when it cannot tell). */
void sysinfo_collect(const char *dir, struct sysinfo_env *env);

#endif
