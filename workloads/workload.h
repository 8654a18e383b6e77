/* SPDX-License-Identifier: MIT */
/*
 * workload.h - what is done with the bytes: copy, split, transform, tree and the
 * machine's limits. A workload is a plug-in like a strategy: one file each,
 * one line in workloads/registry.c.
 *
 * A workload prepares a case once in the parent (expected output), then for
 * every run the harness forks a child that calls setup() (untimed), run()
 * (timed: the only thing inside the clock), teardown() (untimed) and exits.
 * Back in the parent, verify() checks the output, inspect() looks at how it
 * is laid out, and remove_output() deletes it. Adding a workload touches no
 * strategy and no harness file.
 *
 * What the harness does differently for a workload is said here, by flags
 * and fields of its descriptor, never by its name.
 */
#ifndef COPYBENCH_WORKLOAD_H
#define COPYBENCH_WORKLOAD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "datasets/dataset.h"
#include "strategies/strategy.h"

struct bench_command;
struct channel;
struct workload;

/*
 * What a workload sees of a case: the cell of the experiment matrix minus
 * the cache state and the outcome, which belong to the harness.
 */
struct case_spec {
	const struct workload *wl;
	const char *variant;			/* strategy, channel or own variant */
	const struct copy_strategy *strategy;	/* strategy workloads */
	const struct channel *channel;		/* WORKLOAD_CHANNELS */
	/* WORKLOAD_COMMANDS: a program the harness runs instead of the
	 * workload's setup/run/teardown (its prepare, verify, inspect and
	 * remove_output stay the workload's); NULL for the other rows. */
	const struct bench_command *command;
	/* The command's template for this source (a file's or a tree's),
	 * chosen before its first run: its identity with the name. */
	const char *command_line;
	struct dataset *ds;			/* shared between cases */
	uint64_t size;		/* bytes copied: a tree's are all its files' */
	uint64_t files;		/* WORKLOAD_TREE: files in the tree; else 0 */
	uint64_t file_size;	/* WORKLOAD_TREE: each file's size, or
				 * DATASET_SIZE_SRC (the source-tree mix) */
	size_t buffer;
	unsigned batch_lines;	/* channels: 0 = buffer-sized batches */
	uint64_t part_size;	/* WORKLOAD_PARTS */
	unsigned queue_depth;
	unsigned threads;
	bool fsync;		/* fdatasync the output inside the timed region */
	/* Filled by the workload's prepare(). */
	uint64_t expect_hash;
	uint64_t expect_size;
};

/* What a verified output is made of (inspect()). */
struct output_info {
	bool shared_extents;	/* shares an extent with another file: cloned */
	uint64_t blocks;	/* 512-byte blocks allocated (st_blocks), all files */
	uint64_t hole_bytes;	/* bytes in holes before the end (SEEK_HOLE), all files */
};

/* Per-run state of a child. */
struct run_ctx {
	const struct case_spec *c;
	const char *src;	/* the source file (the case's dataset) */
	const char *dst;	/* output path that does not exist yet: a file,
				 * or a prefix for several files */
	int src_fd;
	int dst_fd;
	void *state;		/* the workload's own */
	struct copy_facts facts;	/* what the strategy chose (copy_job.facts) */
	/* Detail for an error, filled by the workload: room for two whole
	 * paths, as a long TMPDIR makes them. */
	char msg[1024];
};

enum workload_flags {
	/* Runs when no --workload is named (and without --all). */
	WORKLOAD_DEFAULT = 1u << 0,
	/* Moves byte ranges at offsets: only STRATEGY_RANGE strategies (and
	 * the naive baseline, which it runs its own way) take part. */
	WORKLOAD_RANGES = 1u << 1,
	/* Cuts its output into parts of --part-size. */
	WORKLOAD_PARTS = 1u << 2,
	/* Its variants are channels between two processes, not strategies. */
	WORKLOAD_CHANNELS = 1u << 3,
	/* Its variants (own_variants) are the machine's limits: planned with
	 * every run that copies, at every size planned; never named by
	 * --workload. */
	WORKLOAD_LIMITS = 1u << 4,
	/* Syscall counts would mean nothing: not counted. */
	WORKLOAD_UNCOUNTED = 1u << 5,
	/* Runs on more than one CPU whatever the variant (two processes). */
	WORKLOAD_MULTI_CPU = 1u << 6,
	/*
	 * Its source and output are trees of files (a folder): the dataset is a
	 * tree of --files files of --size each (the size of each file, or
	 * `src`), the output a folder; the cache state is set and checked over
	 * every file. Its own variants (tree methods) are planned beside the
	 * strategies, with the knobs their flags name.
	 */
	WORKLOAD_TREE = 1u << 7,
	/* What run() does, an outside program can do: read the source path
	 * and create the output at the dst path (a file, or a folder when
	 * the source is one). `--command` rows run for it, timed as whole
	 * processes by the harness; verify() judges their output. */
	WORKLOAD_COMMANDS = 1u << 8,
	/*
	 * Its output is many files, whose removal changes where the next run's
	 * files are allocated (ext4 without a journal scans past every inode
	 * freed in the last minutes: docs/tree.md). With `--destination fresh`
	 * (the default) the harness keeps each verified output until the
	 * invocation ends, so no run writes where an earlier one was freed.
	 */
	WORKLOAD_KEEP_OUTPUTS = 1u << 9,
};

/* What a limit row bounds (WORKLOAD_LIMITS variants). */
enum limit_kind {
	LIMIT_NONE,
	LIMIT_MEMCPY,		/* single-thread memory bandwidth: warm copies */
	LIMIT_MEMCPY_MT,	/* all-core memory bandwidth: multi-CPU copies */
	LIMIT_DEVICE,		/* the storage read through the page cache */
	LIMIT_DEVICE_DIRECT,	/* the storage read around it (O_DIRECT) */
};

enum variant_flags {
	VARIANT_COLD_ONLY = 1u << 0,	/* planned only when cold runs are */
	VARIANT_MULTI_CPU = 1u << 1,	/* runs on every CPU */
	/* The row `bench check --vs memcpy` divides by (one per size). */
	VARIANT_REFERENCE = 1u << 2,
	VARIANT_THREADS = 1u << 3,	/* takes --threads */
	VARIANT_QUEUE_DEPTH = 1u << 4,	/* takes --queue-depth */
	/* Keeps as many requests in flight as the most concurrent strategy
	 * (its threads or queue depth, as this invocation runs it): the
	 * harness puts that number in case_spec.threads, at most
	 * VARIANT_MAX_STREAMS. */
	VARIANT_CONCURRENT = 1u << 5,
};

#define VARIANT_MAX_STREAMS 256

/* A variant a workload brings itself (the limit rows). */
struct workload_variant {
	const char *name;
	const char *description;
	unsigned flags;			/* enum variant_flags */
	enum limit_kind bounds;
	/* Can it run on files in dir? 0, or -errno with why. NULL: yes. */
	int (*probe)(const struct workload_variant *v, const char *dir, char *why, size_t n);
	const void *impl;		/* the workload's own (tree.h: a tree method) */
};

struct workload {
	const char *name;
	const char *description;
	unsigned flags;			/* enum workload_flags */
	/* Dataset kind used when the user names none. */
	enum dataset_kind default_dataset;
	/* Size it runs at unless --workload names it with --size: 0 for the
	 * run's default (64M). A tree's is each file's size. */
	uint64_t default_size;
	/* WORKLOAD_TREE: files of its tree unless --workload names it (--all);
	 * named, --files (default 2000) says. */
	uint64_t default_files;
	/* Variants that are neither strategies nor channels, ended by a
	 * zeroed entry; NULL for strategy and channel workloads. */
	const struct workload_variant *own_variants;
	/*
	 * Parent, once per case before any run: compute what verify() needs
	 * (expect_hash, expect_size) and refuse impossible cases. 0 or -errno
	 * with why filled.
	 */
	int (*prepare)(struct case_spec *c, char *why, size_t n);
	int (*setup)(struct run_ctx *ctx);	/* child, untimed */
	int (*run)(struct run_ctx *ctx);	/* child, timed */
	void (*teardown)(struct run_ctx *ctx);	/* child, untimed */
	/* Parent, after the child exited 0: 0 when the output is right. */
	int (*verify)(const struct case_spec *c, const char *dst,
		      char *why, size_t n);
	/*
	 * Parent: after a verified run and before remove_output(), what the
	 * output is made of: whether it shares extents with another file (it
	 * was cloned, not copied) and how many blocks it holds (holes show).
	 * NULL: there is no output to inspect (zeroed).
	 */
	void (*inspect)(const struct case_spec *c, const char *dst, struct output_info *out);
	/* Parent: remove whatever run() may have created at dst. */
	void (*remove_output)(const struct case_spec *c, const char *dst);
};

/* Helpers shared by workloads (workloads/common.c). */
void workload_fill_job(const struct case_spec *c, struct copy_job *job);
int workload_verify_file_hash(const char *path, uint64_t size, uint64_t hash,
			      char *why, size_t n);
/* verify() of a workload whose output is one file: c->expect_size/hash. */
int workload_verify_output_hash(const struct case_spec *c, const char *dst, char *why, size_t n);
/* Adds one file's blocks, holes and shared extents to *out; 0 or -errno.
 * may_share false skips FIEMAP, for a filesystem that cannot share
 * extents (fs_may_share_extents). */
int workload_inspect_file(const char *path, bool may_share, struct output_info *out);
/* inspect() of a workload whose output is one file. */
void workload_inspect_output_file(const struct case_spec *c, const char *dst,
				  struct output_info *out);
/* remove_output() of a workload whose output is (at most) one file. */
void workload_remove_output_file(const struct case_spec *c, const char *dst);
/* split.c: the name of part number idx made from dst ("<dst>.part-00000"). */
void split_part_path(const char *dst, unsigned idx, char *out, size_t n);

/* workloads/registry.c */
extern const struct workload *const workload_table[];
extern const size_t workload_count;
const struct workload *workload_find(const char *name);
/* The variant of wl named name, or NULL. */
const struct workload_variant *workload_variant_find(const struct workload *wl,
						      const char *name);

#endif
