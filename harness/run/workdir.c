// SPDX-License-Identifier: MIT
/*
 * workdir.c - the run's private work directory in --dir, where outputs are
 * made and removed, and the removal of those that runs killed with SIGKILL
 * left behind (only bench's, by name and dead owner).
 */
#include "runner.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The work directory carries its owner's pid: work-<pid>-XXXXXX. */
int runner_make_workdir(struct runner *r, const char *dir)
{
	snprintf(r->workdir, sizeof(r->workdir), "%s/work-%ld-XXXXXX", dir, (long)getpid());
	if (!mkdtemp(r->workdir)) {
		int err = -errno;

		r->workdir[0] = '\0';
		return err;
	}
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw);

/*
 * Is pid a live process? One killed a moment ago is a zombie until its
 * parent reaps it: dead for our purpose (its state in /proc is Z).
 */
static bool pid_alive(long pid)
{
	char path[64], buf[256], *paren;
	FILE *f;
	size_t len;

	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return true;	/* no /proc to tell: alive, as kill said */
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	paren = strrchr(buf, ')');	/* "pid (comm) S ...": comm may hold ')' */
	return !(paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}

/*
 * A run killed with SIGKILL cannot remove its work directory. The next run
 * in the same --dir removes those whose owner no longer exists: only
 * directories named as bench names them (work-<pid>-XXXXXX), never anything
 * else. Calls removed (when not NULL) with the path of each. Returns how
 * many it removed.
 */
int runner_remove_stale_workdirs(const char *dir, bool dry, void (*removed)(const char *path))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int count = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[PATH_MAX], tail[8];
		long pid;

		if (sscanf(e->d_name, "work-%ld-%6[A-Za-z0-9]", &pid, tail) != 2 ||
		    strlen(tail) != 6 || pid <= 0 || pid == (long)getpid() || pid_alive(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (dry || nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0) {
			count++;
			if (removed)
				removed(path);
		}
	}
	closedir(d);
	return count;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void runner_remove_workdir(struct runner *r)
{
	if (!r->workdir[0])
		return;
	nftw(r->workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	r->workdir[0] = '\0';
}
