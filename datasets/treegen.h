/* SPDX-License-Identifier: MIT */
/*
 * treegen.h - trees of files: the layout of a generated tree, its
 * generation (datasets/treegen.c), the tree hash that verifies a copy
 * (tree_hash.c), and its removal (tree_remove.c).
 * It knows no struct dataset: dataset_cache.c makes a tree dataset with it.
 */
#ifndef COPYBENCH_TREEGEN_H
#define COPYBENCH_TREEGEN_H

#include <stddef.h>
#include <stdint.h>

/* A tree's `size` that names the source-tree size mix, not one size
 * (docs/tree.md); shown as "src". */
#define DATASET_SIZE_SRC UINT64_MAX

/*
 * Layout of a generated tree: TREE_FANOUT folders under the root, each with
 * TREE_FANOUT folders (the leaves, at most TREE_LEAVES, fewer when there are
 * fewer files); file number i is "f<i>" in leaf i % leaves.
 */
#define TREE_FANOUT 10u
#define TREE_LEAVES (TREE_FANOUT * TREE_FANOUT)

/* "4K"-style name of a tree's per-file size, or "src". */
void tree_size_name(uint64_t size, char *out, size_t n);
/* The size of file number i of a tree (size or the mix, seed). */
uint64_t tree_file_size(uint64_t size, uint64_t seed, uint64_t i);
/* Bytes of all files of a generated tree. */
uint64_t tree_total_size(uint64_t size, uint64_t files, uint64_t seed);

/* What a walk of a tree found (tree_hash). */
struct tree_sum;
/*
 * Writes the tree of files files of size (or the mix) from seed as a new
 * folder at path (which must not exist); *sum is its tree hash, files and
 * bytes. Built under a temporary name beside path and renamed when complete.
 * 0 or -errno.
 */
int tree_generate(uint64_t size, uint64_t files, uint64_t seed, const char *path,
		  struct tree_sum *sum);

/* What a walk of a tree found (tree_hash). */
struct tree_sum {
	uint64_t hash;		/* over every entry, sorted by name */
	uint64_t files, dirs, bytes;
};

/*
 * The tree hash of the folder at path: XXH3-64 over every entry below it,
 * sorted by relative name (bytes): the name, its type (folder or file), its
 * size and the XXH3-64 of its content. The order a walk meets entries in
 * does not change it. A symlink, a special file or an entry that cannot be
 * read is refused: -errno with why naming it ("a/b: is a symbolic link").
 * 0 or -errno.
 */
int tree_hash(const char *path, struct tree_sum *sum, char *why, size_t n);
/*
 * The first entry in which the trees at a and b differ, named in why
 * ("d0/d1/f11: 4096 bytes, expected 4095"); 1 when one was found, 0 when
 * they agree, -errno.
 */
int tree_first_difference(const char *got, const char *want, char *why, size_t n);
/*
 * The latest ctime of the folder at path and of everything below it, in ns:
 * what tells that a generated tree changed (its manifest's mtime_ns). 0 or
 * -errno.
 */
int tree_stamp(const char *path, uint64_t *stamp);
/*
 * Removes the tree at path, everything in it (never following a symlink out
 * of it). 0, or -errno of the first entry that could not be removed.
 */
int tree_remove(const char *path);
/* The folder name in the folder dfd and everything in it, one entry at a
 * time; count grows by what was removed. 0 or -errno. */
int tree_remove_at(int dfd, const char *name, uint64_t *count);
/*
 * The same with up to threads removals in flight (tree_remove.c): the tree
 * is listed first, its files unlinked by a pool of threads, its folders
 * removed last. removed (may be NULL) gets how many entries below path were
 * removed. 0, or -errno of the first entry that could not be removed (the
 * rest are removed all the same).
 */
#define TREE_REMOVE_THREADS 32
int tree_remove_wide(const char *path, unsigned threads, uint64_t *removed);
/* The same, telling note (when not NULL) the inode number of path and of
 * every entry listed below it before they are removed. */
int tree_remove_noting(const char *path, unsigned threads, uint64_t *removed,
		       void (*note)(void *arg, uint64_t ino), void *arg);

#endif
