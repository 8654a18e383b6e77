/* SPDX-License-Identifier: MIT */
/*
 * workload.h - what is done with the bytes: copy, split, transform.
 *
 * A workload prepares a case once in the parent (expected output), then for
 * every run the harness forks a child that calls setup() (untimed), run()
 * (timed: the only thing inside the clock), teardown() (untimed) and exits.
 * Back in the parent, verify() checks the output and remove_output() deletes
 * it. Adding a workload touches no strategy.
 */
#ifndef COPYBENCH_WORKLOAD_H
#define COPYBENCH_WORKLOAD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_case;

/* Per-run state of a child. */
struct run_ctx {
	const struct bench_case *c;
	const char *src;	/* the source file (the case's dataset) */
	const char *dst;	/* output path that does not exist yet: a file,
				 * or a prefix for several files */
	int src_fd;
	int dst_fd;
	void *state;		/* the workload's own */
	char msg[256];		/* detail for an error, filled by the workload */
};

struct workload {
	const char *name;
	const char *description;
	/* Dataset kind used when the user names none. */
	int default_dataset;
	/* True when the case's variant is a channel, not a copy strategy. */
	int uses_channels;
	/* Workloads whose variants are neither strategies nor channels (the
	 * limit rows) list them here, NULL-terminated. */
	const char *const *own_variants;
	/* True when syscall counts would mean nothing (the limit rows). */
	int uncounted;
	/*
	 * Parent, once per case before any run: compute what verify() needs
	 * (stored in the case) and refuse impossible cases. 0 or -errno with
	 * why filled.
	 */
	int (*prepare)(struct bench_case *c, char *why, size_t n);
	int (*setup)(struct run_ctx *ctx);	/* child, untimed */
	int (*run)(struct run_ctx *ctx);	/* child, timed */
	void (*teardown)(struct run_ctx *ctx);	/* child, untimed */
	/* Parent, after the child exited 0: 0 when the output is right. */
	int (*verify)(const struct bench_case *c, const char *dst,
		      char *why, size_t n);
	/*
	 * Parent, optional: after a verified run and before remove_output(),
	 * record what the output is made of (shared extents) in the case.
	 */
	void (*inspect)(struct bench_case *c, const char *dst);
	/* Parent: remove whatever run() may have created at dst. */
	void (*remove_output)(const struct bench_case *c, const char *dst);
};

struct copy_job;
/* Helpers shared by workloads (wl_copy.c). */
void case_fill_job(const struct bench_case *c, struct copy_job *job);
int verify_file_hash(const char *path, uint64_t size, uint64_t hash,
		     char *why, size_t n);
/* verify() of a workload whose output is one file: c->expect_size/hash. */
int verify_output_hash(const struct bench_case *c, const char *dst, char *why, size_t n);
/* remove_output() of a workload whose output is (at most) one file. */
void remove_output_file(const struct bench_case *c, const char *dst);
/* wl_split.c: the name of part number idx made from dst ("<dst>.part-00000"). */
void split_part_path(const char *dst, unsigned idx, char *out, size_t n);
/*
 * Does the file at path share any extent with another file (FIEMAP's
 * FIEMAP_EXTENT_SHARED: a reflink or a copy_file_range that cloned instead
 * of copying)? 0 with *shared set, or -errno (-EOPNOTSUPP: no FIEMAP).
 */
int file_shares_extents(const char *path, bool *shared);

extern const struct workload *const workload_table[];
extern const size_t workload_count;
const struct workload *workload_find(const char *name);

#endif
