/* SPDX-License-Identifier: MIT */
/*
 * freed.h - where bench freed many inodes lately, on an ext4 without a
 * journal, so that no run of a later invocation writes there (docs/tree.md
 * "The destination"). Such an ext4 avoids reusing an inode freed in the
 * last 60 s, 360 s while its inode-table block is dirty (and allocating
 * dirties it): every file created walks past them. Bench notes the flex
 * groups of what it removed in a log in --dir, and a run's output goes into
 * a flex group that is not in it.
 */
#ifndef COPYBENCH_FREED_H
#define COPYBENCH_FREED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FREED_LOG_NAME ".freed-inodes"
#define FREED_WINDOW_S 420	/* the kernel's 360 s and a minute besides */
#define FREED_MAX 512		/* flex groups remembered */
#define FREED_TRIES 32		/* output folders made before giving up */
/* Fewer entries removed than this are not worth a line: a file or two
 * freed costs the next file created a lookup or two. */
#define FREED_MIN_ENTRIES 1000

struct freed_set {
	uint64_t per_flex;	/* inode numbers a flex group; 0: not tracked */
	char dev[24];		/* "major:minor" of the filesystem */
	uint64_t entries;	/* noted since freed_like */
	size_t n;
	uint64_t flex[FREED_MAX];
};

/*
 * Sets s up for the filesystem of dir: tracked when it is an ext4 without a
 * journal whose geometry can be read; then the groups of the log in dir
 * freed within FREED_WINDOW_S are read into it. True when tracked.
 */
bool freed_open(struct freed_set *s, const char *dir);
/* An empty set for the same filesystem as from. */
void freed_like(struct freed_set *s, const struct freed_set *from);
/* Is inode number ino in a flex group of s? */
bool freed_has(const struct freed_set *s, uint64_t ino);
/* Adds the flex group of inode ino (a tree_remove_noting note). */
void freed_note(void *set, uint64_t ino);
/* Appends the groups of s, freed now, to the log in dir, dropping lines
 * older than the window; nothing when s noted fewer than
 * FREED_MIN_ENTRIES. 0 or -errno. */
int freed_save(const struct freed_set *s, const char *dir);

#endif
