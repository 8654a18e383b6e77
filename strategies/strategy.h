/* SPDX-License-Identifier: MIT */
/*
 * strategy.h - the contract every copy strategy implements.
 *
 * A strategy moves `len` bytes from (src_fd, src_off) to (dst_fd, dst_off).
 * It knows nothing about timing, files, verification or CSV: the harness owns
 * all of that. A strategy must
 *   - loop on short transfers and retry EINTR,
 *   - handle len == 0 (return 0 without touching anything),
 *   - handle ranges and offsets beyond 4 GiB (mind per-call limits),
 *   - leave the file offsets of src_fd and dst_fd alone (use pread/pwrite or
 *     explicit offset arguments) unless the strategy's own technique needs them,
 *   - release everything it made before it returns, since the clock stops
 *     then: buffers, mappings, threads, pipes, rings, and what the kernel
 *     holds for them (io_uring's registered files and buffers), so that
 *     nothing of one run is finished during the next (docs/clock.md),
 *   - take data buffers from page_buf_alloc (fresh pages from mmap, freed
 *     with page_buf_free), unless malloc is the technique measured
 *     (full-buffer, lines): whether malloc maps a block or carves it from a
 *     free chunk depends on what the process freed before, and so would the
 *     time and the mmap/munmap counts the syscall gate compares,
 *   - return 0 on success or a negative errno value on failure.
 *
 * To add a strategy: copy strategies/readwrite.c (the commented example) to
 * strategies/<name>.c, rename its descriptor (strategy_<name>) and .name,
 * and add one line, X(strategy_<name>), to STRATEGY_LIST in
 * strategies/registry.c, which declares it too (lib/registry.h). That is
 * all: tests/e2e/add_plugins.sh proves it in a scratch copy of the tree.
 */
#ifndef COPYBENCH_STRATEGY_H
#define COPYBENCH_STRATEGY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * What a strategy chose at run time that changes its work, written by the
 * strategy when job->facts is set, for the harness to record per run.
 */
struct copy_facts {
	uint64_t pipe_bytes;	/* splice: the pipe size granted; 0: no pipe */
	int fixed_buffers;	/* io_uring: 1 registered, 0 plain buffers; -1: no ring */
};

/* One copy of a byte range: what the harness hands a strategy. */
struct copy_job {
	int src_fd;
	int dst_fd;
	uint64_t src_off;
	uint64_t dst_off;
	uint64_t len;
	size_t buffer_size;	/* bytes; strategies that take a buffer use it */
	unsigned queue_depth;	/* io_uring: submission queue depth */
	unsigned threads;	/* parallel strategies: worker count */
	struct copy_facts *facts;	/* NULL, or where to say what it chose */
};

/* Flags describing what a strategy can do. */
enum strategy_flags {
	STRATEGY_BUFFERED = 1u << 0,	/* honours job->buffer_size */
	STRATEGY_RANGE = 1u << 1,	/* copies at arbitrary offsets (split) */
	STRATEGY_WHOLE_FILE = 1u << 2,	/* holds the whole range in memory */
	STRATEGY_NAIVE = 1u << 3,	/* a deliberately naive baseline */
	STRATEGY_SHARES_EXTENTS = 1u << 4, /* may share extents, not copy */
	/* Hidden from --all and `bench list`, run only when named: a strategy
	 * that exists to test the harness (strategy_register_extra below). */
	STRATEGY_TEST_ONLY = 1u << 5,
	/* Reads and writes the device, around the page cache: different work
	 * from the page-cache copies, never ranked against them. */
	STRATEGY_DEVICE_IO = 1u << 6,
	/* Runs on more than one CPU (threads of its own or the kernel's
	 * workers): its bound is the all-core memory bandwidth. */
	STRATEGY_MULTI_CPU = 1u << 7,
	STRATEGY_THREADS = 1u << 8,	/* honours job->threads */
	STRATEGY_QUEUE_DEPTH = 1u << 9,	/* honours job->queue_depth */
	/* Runs in a tree by default (without --strategy or --all): its
	 * per-file technique is one the tree rows must show, where the
	 * others repeat it with more set-up a file (docs/tree.md). */
	STRATEGY_TREE_DEFAULT = 1u << 10,
};

/*
 * .syscalls is a checked fact, not a wish. It names, comma separated and as
 * harness/syscount/syscount.c counts them, the system calls one copy makes inside the
 * timed region: a whole file of a few MiB (the test uses 4 MiB) on a local
 * filesystem, the strategy's default buffer, two threads, default queue
 * depth, no COPYBENCH_* environment. A name ending in '?' is made only under
 * a condition the strategy's header comment states (a range, a filesystem,
 * a fallback, timing). tests/strategies/declared_syscalls_match_counts.c
 * copies once with every available strategy, counts, and fails unless
 *   - every name is one syscount counts by name,
 *   - every name without '?' was called at least once,
 *   - nothing else was called but what libc may call on its own account
 *     (STRATEGY_LIBC_SYSCALLS: memory for malloc, its random seed, starting
 *     and ending threads), and nothing uncounted by name ("other" is 0).
 * So a strategy that allocates its buffer with malloc need not list mmap,
 * but one that maps files (mmap.c) must. In a sanitizer build the runtime's
 * own calls (STRATEGY_SANITIZER_SYSCALLS) are allowed too.
 */
#define STRATEGY_LIBC_SYSCALLS "brk,mmap,munmap,mprotect,madvise,getrandom," \
	"rt_sigaction,rt_sigprocmask,rseq,set_robust_list,exit"
#define STRATEGY_SANITIZER_SYSCALLS "gettid,sigaltstack,sched_getaffinity"

struct copy_strategy {
	const char *name;
	const char *description;	/* one line */
	const char *syscalls;		/* see above: checked, comma separated */
	unsigned flags;
	/* Buffer used when the user names none (STRATEGY_BUFFERED only);
	 * 0 means STRATEGY_DEFAULT_BUFFER. */
	size_t default_buffer;
	/* Requests kept in flight when job->queue_depth is 0
	 * (STRATEGY_QUEUE_DEPTH only): the harness's concurrent device row
	 * reads with as many. */
	unsigned default_queue_depth;
	/*
	 * Can this strategy run here, on files in `dir`? Return 0 if yes;
	 * otherwise write a short human reason (no trailing period) into
	 * why[0..n) and return a negative errno. NULL means always available.
	 */
	int (*probe)(const char *dir, char *why, size_t n);
	/* Move the bytes. 0 or -errno. */
	int (*copy)(const struct copy_job *job);
};

/*
 * strategies/registry.c: every strategy, sorted by name: the product's
 * (STRATEGY_LIST), and those a program built on the harness added with
 * strategy_register_extra. Read them; never assign them.
 */
extern const struct copy_strategy *const *strategy_table;
extern size_t strategy_count;

/*
 * For a program that is bench plus strategies of its own, not the product:
 * the tests' fixture executable (tests/fixtures/: bench_fixtures) registers
 * its fixtures here in its main(), then calls bench_main. The n descriptors
 * of extra join the table, sorted in by name; they must live as long as the
 * program. Call it before anything reads the table, from one thread. 0;
 * -EEXIST when a name is taken (the table is then unchanged); -ENOSPC
 * beyond STRATEGY_EXTRA_MAX extras in all.
 */
#define STRATEGY_EXTRA_MAX 16
int strategy_register_extra(const struct copy_strategy *const *extra, size_t n);

const struct copy_strategy *strategy_find(const char *name);
/* Runs s->probe (if any); 0 when available, else -errno with why filled. */
int strategy_probe(const struct copy_strategy *s, const char *dir,
		   char *why, size_t n);
/* The buffer a case of s gets when the user names none. */
size_t strategy_default_buffer(const struct copy_strategy *s);

#define STRATEGY_DEFAULT_BUFFER (128u * 1024u)

#endif
