// SPDX-License-Identifier: MIT
/*
 * cmd_clean.c - `bench clean [--dir DIR]`: removes what bench left in its
 * dataset folder and nothing else: the datasets it generated (files with
 * bench's manifest, as the manifest describes them) and the work
 * directories of runs that were killed (work-<pid>-XXXXXX of a pid that no
 * longer exists), and the log of where bench freed inodes lately (freed.h).
 * Results are the user's: never touched.
 */
#include "commands.h"
#include "datasets/dataset.h"
#include "fs/testfs.h"
#include "host/paths.h"
#include "lib/units.h"
#include "options/cli.h"
#include "run/freed.h"
#include "run/runner.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct clean_tally {
	unsigned long files;
	uint64_t bytes;
	bool dry;		/* --dry-run: "would remove" */
};

struct clean_opts {
	const char *dir;
	bool dry;
};

static bool clean_dry;	/* for the work directories' report, which takes no argument */

static void clean_report(const char *path, uint64_t bytes, const char *kept, void *arg)
{
	struct clean_tally *t = arg;
	char size[32];

	if (kept) {
		printf("kept %s: %s\n", path, kept);
		return;
	}
	format_size(bytes, size, sizeof(size));
	printf("%s %s%s%s%s\n", t->dry ? "would remove" : "removed", path, bytes ? " (" : "",
	       bytes ? size : "", bytes ? ")" : "");
	t->files++;
	t->bytes += bytes;
}

static void clean_fs_report(const char *what, const char *path, const char *why, void *arg)
{
	(void)arg;
	printf("%s %s%s%s (a test filesystem of a killed bench --fs)\n", what, path,
	       why ? ": " : "", why ? why : "");
}

static void clean_workdir_report(const char *path)
{
	printf("%s %s/ (the work directory of a killed run)\n", clean_dry ? "would remove" : "removed",
	       path);
}

/* The log of the flex groups bench freed lately (freed.h), if there. */
static void clean_freed_log(const char *dir, struct clean_tally *t)
{
	char path[PATH_MAX];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/%s", dir, FREED_LOG_NAME) >= (int)sizeof(path) ||
	    lstat(path, &st) || !S_ISREG(st.st_mode))
		return;
	if (t->dry || !unlink(path))
		clean_report(path, (uint64_t)st.st_size, NULL, t);
}

static int clean_apply(struct cli_parser *p, const struct cli_option *opt,
		       const struct cli_value *v)
{
	struct clean_opts *o = p->ctx;

	if (opt->id == OPT_DIR)
		o->dir = v->str;
	else if (opt->id == OPT_CLEAN_DRY_RUN)
		o->dry = true;
	return 0;
}

/* --dry-run: what bench clean would remove, said; nothing removed. */
static int clean_dry_run(const char *dir, struct clean_tally *t)
{
	char size[32], first[PATH_MAX];
	struct stat st;
	int ret, workdirs;
	size_t fs;

	if (stat(dir, &st) && errno == ENOENT) {
		printf("bench clean: nothing to clean: %s does not exist\n", dir);
		return 0;
	}
	ret = dataset_clean(dir, true, clean_report, t);
	if (ret < 0) {
		fprintf(stderr, "bench clean: %s: %s\n", dir, strerror(-ret));
		return 1;
	}
	clean_freed_log(dir, t);
	fs = testfs_find_stale(dir, first, sizeof(first));
	if (fs)
		printf("would unmount and remove %zu test filesystem folder%s of a killed bench --fs (%s)\n",
		       fs, fs == 1 ? "" : "s", first);
	workdirs = runner_remove_stale_workdirs(dir, true, clean_workdir_report);
	format_size(t->bytes, size, sizeof(size));
	printf("bench clean: dry run: %lu file%s (%s), %d work director%s and %zu test filesystem folder%s would be removed from %s\n",
	       t->files, t->files == 1 ? "" : "s", size, workdirs, workdirs == 1 ? "y" : "ies",
	       fs, fs == 1 ? "" : "s", dir);
	return 0;
}

int cmd_clean(int argc, char **argv)
{
	char default_dir[PATH_MAX], size[32];
	struct clean_tally t = { 0 };
	struct clean_opts o = { .dir = default_dir };
	const char *dir;
	struct stat st;
	int ret, workdirs, fs;
	struct cli_parser p = { .cmd = CMD_CLEAN, .apply = clean_apply, .ctx = &o };

	paths_dataset_dir(default_dir, sizeof(default_dir));
	ret = cli_parse(&p, argc, argv);
	if (ret)
		return ret < 0 ? 0 : ret;
	dir = o.dir;
	t.dry = clean_dry = o.dry;
	if (o.dry)
		return clean_dry_run(dir, &t);
	if (stat(dir, &st) && errno == ENOENT) {
		printf("bench clean: nothing to clean: %s does not exist\n", dir);
		return 0;
	}
	ret = dataset_clean(dir, false, clean_report, &t);
	if (ret < 0) {
		fprintf(stderr, "bench clean: %s: %s\n", dir, strerror(-ret));
		return 1;
	}
	clean_freed_log(dir, &t);
	fs = testfs_clean_stale(dir, clean_fs_report, NULL);
	workdirs = runner_remove_stale_workdirs(dir, false, clean_workdir_report);
	format_size(t.bytes, size, sizeof(size));
	if (fs < 0) {
		fprintf(stderr, "bench clean: the test filesystems of a killed bench --fs in %s were not all removed (unmounting needs root)\n",
			dir);
		return 1;
	}
	if (t.files || workdirs || fs)
		printf("bench clean: %lu file%s (%s), %d work director%s and %d test filesystem folder%s removed from %s\n",
		       t.files, t.files == 1 ? "" : "s", size, workdirs, workdirs == 1 ? "y" : "ies",
		       fs, fs == 1 ? "" : "s", dir);
	else
		printf("bench clean: nothing of bench's to remove in %s\n", dir);
	return 0;
}
