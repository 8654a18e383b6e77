/* SPDX-License-Identifier: MIT */
/*
 * tree.h - copying a tree of many files: the shared walker and the tree
 * methods.
 *
 * The `tree` workload (tree.c) copies a source folder to a new folder. Its
 * variants are of two sorts:
 *
 *   - every copy strategy (strategies/, struct copy_strategy) applied to one
 *     file at a time over the shared walker (tree_walk.c): the same walk,
 *     the same opens and closes, so the per-file technique is what differs;
 *   - tree methods: copiers of whole trees that do their own scheduling (a
 *     pool of threads over a work queue, io_uring with many files in flight,
 *     inode-order sorting, batches). Each is one file in workloads/ that
 *     defines a `const struct tree_method tree_method_<name>` and one line in
 *     TREE_METHOD_LIST of tree.c, which gives it its name, its one-line
 *     description and the knobs it takes (VARIANT_THREADS,
 *     VARIANT_QUEUE_DEPTH: --threads, --queue-depth become part of the case).
 *
 * A tree method gets a tree_job: the source root and an empty destination
 * root, both open folders; the case's knobs (job->c: buffer, threads,
 * queue_depth, fsync); and where to say what went wrong (msg). It must make
 * under dst_root every folder and regular file of src_root with the same
 * names and bytes (modes are not checked: files 0644, folders 0755 are
 * fine), refuse anything else (a symlink, a special file: -ELOOP / -EINVAL
 * with msg naming it, as tree_walk does), and, like a strategy, release
 * everything it made (threads, rings, descriptors) before it returns: the
 * clock stops then. The harness times copy(), verifies the output as a
 * whole (every name, size and content hash) and removes it. With
 * job->c->fsync, every file's data must be on stable storage when copy()
 * returns (fdatasync each, or syncfs once).
 *
 * It may use the shared walker to list the work, or walk the tree its own
 * way (getdents64, statx, io_uring openat): the walker is there so that a
 * method need not write one.
 */
#ifndef COPYBENCH_TREE_H
#define COPYBENCH_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "workload.h"

/* What the tree workload hands a tree method (and the per-file copy). */
struct tree_job {
	const struct case_spec *c;	/* knobs: buffer, threads, queue_depth, fsync */
	int src_root;			/* the source tree's root folder, O_RDONLY */
	int dst_root;			/* the new, empty destination root */
	struct copy_facts *facts;	/* what a strategy chose (per-file variants) */
	char *msg;			/* detail of an error, one line */
	size_t msg_len;
};

/*
 * .syscalls is a checked fact, as a strategy's is (strategies/strategy.h):
 * the system calls, comma separated and as harness/syscount counts them,
 * that one copy of a small tree (a few folders, tens of files of some KiB)
 * makes inside the timed region, with two threads, the default queue depth
 * and no --fsync; a name ending in '?' only under a condition its file's
 * header states. tests/strategies/declared_syscalls_match_counts.c copies such a tree with every
 * available method and fails on a name declared and not called, or called
 * and not declared (beyond STRATEGY_LIBC_SYSCALLS).
 */
struct tree_method {
	const char *syscalls;		/* see above: checked, comma separated */
	/*
	 * Can it run here, on trees in dir? 0, or -errno with a short reason
	 * in why (no trailing period). NULL: always.
	 */
	int (*probe)(const char *dir, char *why, size_t n);
	/* Copies job->src_root into job->dst_root. 0 or -errno (msg filled). */
	int (*copy)(const struct tree_job *job);
};

/* ------------------------------------------------------------------ */
/* The shared walker (tree_walk.c)                                     */
/* ------------------------------------------------------------------ */

/* One regular file the walk met. */
struct tree_file {
	int src_dir;		/* its folder in the source, open */
	int dst_dir;		/* the same folder in the destination, made, open */
	const char *name;	/* its name in both; valid during the callback only */
	uint64_t ino;		/* its inode number (getdents64), for sorting */
};

/*
 * Called for every regular file, in the order getdents64 returns them, folder
 * by folder, depth first. 0 to go on, -errno to stop the walk.
 */
typedef int (*tree_file_fn)(void *arg, const struct tree_file *f);

enum tree_walk_flags {
	/*
	 * Keep every folder descriptor open until tree_walk_end(), so that the
	 * callback may queue the file and copy it later (a pool, a ring);
	 * without it a folder is closed once its subtree is walked, and only
	 * the folders on the current path are open. A method keeping folders
	 * needs as many descriptors as the tree has folders.
	 */
	TREE_WALK_KEEP_DIRS = 1u << 0,
};

struct tree_walk {
	const struct tree_job *job;
	unsigned flags;
	int *kept;		/* TREE_WALK_KEEP_DIRS: folders to close at the end */
	size_t nkept, cap_kept;
	char *buf;		/* getdents64 */
	uint64_t files, dirs;	/* met so far */
};

/*
 * Walks job->src_root: reads each folder with getdents64, makes the same
 * folder under job->dst_root (mkdirat, 0755) before walking it, opens
 * folders relative to their parent (openat), and calls fn for every regular
 * file. A symlink is refused (-ELOOP), a special file too (-EINVAL), a
 * folder that cannot be read with its errno: job->msg names the entry. On
 * return (success or not) the folders are closed unless TREE_WALK_KEEP_DIRS
 * keeps them for tree_walk_end(). 0 or -errno.
 */
int tree_walk(struct tree_walk *w, const struct tree_job *job, unsigned flags,
	      tree_file_fn fn, void *arg);
/* Closes the folders TREE_WALK_KEEP_DIRS kept; frees the walk. */
void tree_walk_end(struct tree_walk *w);
/* Fills job->msg: "<name>: <what>" (name escaped to one line), returns err. */
int tree_job_fail(const struct tree_job *job, const char *name, int err, const char *what);

/*
 * Copies one file with the case's strategy: opens it in f->src_dir, learns
 * its size (fstat), creates it in f->dst_dir (O_EXCL, 0644), copies,
 * fdatasyncs with --fsync, closes both. The per-file variants are this over
 * tree_walk; a method may call it too. 0 or -errno.
 */
int tree_copy_one(const struct tree_job *job, const struct copy_strategy *s,
		  const struct tree_file *f);


/* ------------------------------------------------------------------ */
/* The whole list of files, for methods that schedule it (tree_files.c) */
/* ------------------------------------------------------------------ */

/* One file of the list: its folders stay open until tree_files_end(). */
struct tree_entry {
	int src_dir, dst_dir;
	uint64_t ino;
	size_t name_at;		/* its name: tree_entry_name() */
};

struct tree_files {
	struct tree_walk w;
	struct tree_entry *v;
	size_t n, cap;
	char *names;		/* every name, each ended by '\0' */
	size_t names_len, names_cap;
};

/*
 * Walks job->src_root (folders made, kept open) and lists every regular
 * file in walk order. 0 or -errno (job->msg filled); call tree_files_end()
 * whatever it returned.
 */
int tree_files_walk(struct tree_files *l, const struct tree_job *job);
void tree_files_end(struct tree_files *l);

static inline const char *tree_entry_name(const struct tree_files *l, const struct tree_entry *e)
{
	return l->names + e->name_at;
}

/* Entry e of l as the walker's tree_file, for tree_copy_one(). */
static inline struct tree_file tree_entry_file(const struct tree_files *l, const struct tree_entry *e)
{
	return (struct tree_file){ .src_dir = e->src_dir, .dst_dir = e->dst_dir,
				   .name = tree_entry_name(l, e), .ino = e->ino };
}

#endif
