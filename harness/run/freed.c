// SPDX-License-Identifier: MIT
/*
 * freed.c - the log of flex groups where bench freed many inodes lately,
 * one line a removal in --dir/.freed-inodes:
 *
 *	<major:minor> <unix seconds> <inodes a flex group> <group> <group> ...
 *
 * Lines of another filesystem, another geometry or older than the window
 * are ignored when read and dropped when the log is written again.
 */
#include "freed.h"
#include "lib/fsinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bool freed_has(const struct freed_set *s, uint64_t ino)
{
	uint64_t g;

	if (!s->per_flex)
		return false;
	g = ino / s->per_flex;
	for (size_t k = 0; k < s->n; k++)
		if (s->flex[k] == g)
			return true;
	return false;
}

static void add_group(struct freed_set *s, uint64_t g)
{
	for (size_t k = 0; k < s->n; k++)
		if (s->flex[k] == g)
			return;
	if (s->n < FREED_MAX)
		s->flex[s->n++] = g;
}

void freed_note(void *set, uint64_t ino)
{
	struct freed_set *s = set;

	if (!s->per_flex)
		return;
	s->entries++;
	add_group(s, ino / s->per_flex);
}

void freed_like(struct freed_set *s, const struct freed_set *from)
{
	memset(s, 0, sizeof(*s));
	s->per_flex = from->per_flex;
	memcpy(s->dev, from->dev, sizeof(s->dev));
}

/* Is line a line of s's filesystem within the window? Points *groups at
 * the group numbers. */
static bool line_current(const struct freed_set *s, char *line, time_t now, char **groups)
{
	char dev[24];
	long long when;
	unsigned long long per;
	int used = 0;

	if (sscanf(line, "%23s %lld %llu%n", dev, &when, &per, &used) != 3)
		return false;
	*groups = line + used;
	return !strcmp(dev, s->dev) && per == s->per_flex && when <= now &&
	       now - when < FREED_WINDOW_S;
}

static void read_groups(struct freed_set *s, char *groups)
{
	char *end;

	for (unsigned long long g = strtoull(groups, &end, 10); end != groups;
	     g = strtoull(groups, &end, 10)) {
		add_group(s, g);
		groups = end;
	}
}

bool freed_open(struct freed_set *s, const char *dir)
{
	char path[4096], *line = NULL, *groups;
	struct fs_mount m;
	size_t cap = 0;
	time_t now = time(NULL);
	FILE *f;

	memset(s, 0, sizeof(*s));
	if (fs_mount_info(dir, &m) || m.journal != 0 || fs_ext4_inodes_per_flex(dir, &s->per_flex))
		return false;
	memcpy(s->dev, m.dev, sizeof(s->dev));
	snprintf(path, sizeof(path), "%s/%s", dir, FREED_LOG_NAME);
	f = fopen(path, "re");
	if (!f)
		return true;
	while (getline(&line, &cap, f) > 0)
		if (line_current(s, line, now, &groups))
			read_groups(s, groups);
	free(line);
	fclose(f);
	return true;
}

/* The lines of the old log still current, into out. */
static void copy_current(const struct freed_set *s, FILE *in, FILE *out, time_t now)
{
	char *line = NULL, *groups;
	size_t cap = 0;

	while (getline(&line, &cap, in) > 0)
		if (line_current(s, line, now, &groups))
			fputs(line, out);
	free(line);
}

int freed_save(const struct freed_set *s, const char *dir)
{
	char path[4096], tmp[4096 + 24];
	time_t now = time(NULL);
	FILE *in, *out;
	int err = 0;

	if (!s->per_flex || s->entries < FREED_MIN_ENTRIES)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, FREED_LOG_NAME);
	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	out = fopen(tmp, "we");
	if (!out)
		return -errno;
	in = fopen(path, "re");
	if (in) {
		copy_current(s, in, out, now);
		fclose(in);
	}
	fprintf(out, "%s %lld %llu", s->dev, (long long)now, (unsigned long long)s->per_flex);
	for (size_t k = 0; k < s->n; k++)
		fprintf(out, " %llu", (unsigned long long)s->flex[k]);
	fputc('\n', out);
	if (fclose(out))
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}
