// SPDX-License-Identifier: MIT
/*
 * parallel.c - the range cut into pieces, one pthread per piece, each moving
 * its piece with copy_file_range(2) at explicit offsets.
 *
 * copy_file_range lets the file system copy inside the kernel (a
 * page-cache-to-page-cache copy on ext4, server-side copy on NFS, reflink on
 * btrfs/XFS when the ranges allow). One thread copies at the speed of one
 * core doing memcpy in the kernel; several threads on different pieces of
 * the same file overlap that work, as multi-threaded copiers such as mutil's
 * mcp and the Rust tool fcp do.
 *
 * Per thread it follows the loop of coreutils' copy_file_range path and
 * Rust std's kernel_copy.rs: explicit loff_t offsets (the descriptors' file
 * offsets are untouched), a fixed maximum per call, and on EXDEV,
 * EOPNOTSUPP, ENOSYS or EINVAL (cross-device before Linux 5.3, file systems
 * without support, seccomp filters, overlapping same-file ranges) a fallback
 * to a pread/pwrite loop for the rest of that thread's piece.
 *
 * Tuning:
 *   - Threads: job->threads, or the number of online CPUs when 0. Copies
 *     shorter than a piece each use fewer threads; a single piece runs on
 *     the calling thread (no pthread_create).
 *   - Pieces: len / threads, with every boundary moved up to the next
 *     1 MiB boundary of the *destination* offset, so no two threads write
 *     into the same destination page or file-system block (and extents are
 *     allocated in large aligned runs).
 *   - Each copy_file_range call asks for at most 1 GiB, as Rust std does:
 *     the kernel caps a call just under 2 GiB anyway, and 1 GiB rounds keep
 *     a stop request (another thread's error) prompt.
 *   - Fallback buffer: page aligned, job->buffer_size (128 KiB when 0).
 *
 * What limits it on ext4. copy_file_range there is the kernel's splice
 * fallback (see copy_file_range.c): each round reads 64 KiB into a pipe,
 * then does one buffered write, and a buffered write holds the destination
 * inode's i_rwsem exclusively. Threads writing into the same file therefore
 * take turns for the write half, which is most of the work; only the read
 * half overlaps, so on ext4 the threads gain little over one thread (the
 * measurements: docs/strategies.md). Filesystems whose writes to one file
 * run in parallel, and network filesystems with server-side copy, are where
 * the threads pay.
 *
 * Any thread's error is returned (the first piece's error wins); on an
 * error the other threads stop after their current round. End of source
 * before len bytes -> -ENODATA.
 *
 * Expected syscalls per call: clone3 per extra thread (and libc's thread
 * start and exit), a futex when the join finds a thread still running,
 * ceil(piece / 1 GiB) copy_file_range per piece; pread64/pwrite64 only
 * after a fallback.
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#define PARALLEL_ALIGN		(1ull << 20)	/* piece boundaries */
#define PARALLEL_CFR_MAX	(1ull << 30)	/* bytes per copy_file_range */

struct parallel_piece {
	const struct copy_job *job;
	uint64_t start;		/* relative to the job's offsets */
	uint64_t len;
	atomic_bool *stop;
	int ret;
	pthread_t tid;
	int started;
};

static int parallel_cfr_fallback(int err)
{
	return err == EXDEV || err == EOPNOTSUPP || err == ENOSYS ||
	       err == EINVAL;
}

/* pread/pwrite for [done, len) of a piece, after copy_file_range refused. */
static int parallel_rw(const struct parallel_piece *p, uint64_t done)
{
	const struct copy_job *job = p->job;
	size_t bufsz = job->buffer_size ? job->buffer_size : STRATEGY_DEFAULT_BUFFER;
	char *buf;
	int ret = 0;

	if (bufsz > p->len - done)
		bufsz = (size_t)(p->len - done);
	buf = page_buf_alloc(bufsz);
	if (!buf)
		return -ENOMEM;
	while (done < p->len && !atomic_load(p->stop)) {
		uint64_t pos = p->start + done;
		size_t want = p->len - done < bufsz ? (size_t)(p->len - done) : bufsz;
		ssize_t got = full_pread(job->src_fd, buf, want, job->src_off + pos);

		if (got <= 0) {
			ret = got < 0 ? (int)got : -ENODATA;
			break;
		}
		ret = full_pwrite(job->dst_fd, buf, (size_t)got, job->dst_off + pos);
		if (ret)
			break;
		done += (uint64_t)got;
	}
	page_buf_free(buf, bufsz);
	return ret;
}

/* Copies one piece; the thread body. */
static int parallel_copy_piece(struct parallel_piece *p)
{
	const struct copy_job *job = p->job;
	loff_t in = (loff_t)(job->src_off + p->start);
	loff_t out = (loff_t)(job->dst_off + p->start);
	uint64_t done = 0;

	while (done < p->len) {
		uint64_t want = p->len - done;
		ssize_t n;

		if (atomic_load(p->stop))
			return 0;	/* another piece failed: its error wins */
		if (want > PARALLEL_CFR_MAX)
			want = PARALLEL_CFR_MAX;
		n = copy_file_range(job->src_fd, &in, job->dst_fd, &out,
				    (size_t)want, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (parallel_cfr_fallback(errno))
				return parallel_rw(p, done);
			return -errno;
		}
		if (n == 0)
			return -ENODATA;	/* source shorter than promised */
		done += (uint64_t)n;
	}
	return 0;
}

static void *parallel_thread(void *arg)
{
	struct parallel_piece *p = arg;

	p->ret = parallel_copy_piece(p);
	if (p->ret)
		atomic_store(p->stop, true);
	return NULL;
}

static unsigned parallel_threads(const struct copy_job *job)
{
	long cpus;

	if (job->threads)
		return job->threads;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus > 0 ? (unsigned)cpus : 1;
}

/*
 * Cuts [0, len) into at most `threads` pieces whose inner boundaries fall
 * on 1 MiB boundaries of the destination. Returns the number of pieces.
 */
static size_t parallel_cut(const struct copy_job *job, unsigned threads,
			   struct parallel_piece *pieces)
{
	uint64_t share = job->len / threads;
	uint64_t prev = 0;
	size_t count = 0;

	for (unsigned i = 1; i <= threads && prev < job->len; i++) {
		uint64_t end = job->len;

		if (i < threads) {
			uint64_t abs = job->dst_off + share * i;

			abs = (abs + PARALLEL_ALIGN - 1) & ~(PARALLEL_ALIGN - 1);
			end = abs - job->dst_off;
			if (end > job->len)
				end = job->len;
			if (end <= prev)
				continue;
		}
		pieces[count].start = prev;
		pieces[count].len = end - prev;
		count++;
		prev = end;
	}
	return count;
}

/* Joins the started threads and returns the first error, by piece order. */
static int parallel_join(struct parallel_piece *pieces, size_t count)
{
	int ret = 0;

	for (size_t i = 0; i < count; i++) {
		if (pieces[i].started)
			pthread_join(pieces[i].tid, NULL);
		if (!ret && pieces[i].ret)
			ret = pieces[i].ret;
	}
	return ret;
}

static int parallel_copy(const struct copy_job *job)
{
	unsigned threads = parallel_threads(job);
	struct parallel_piece *pieces;
	atomic_bool stop = false;
	size_t count;
	int ret;

	if (job->len == 0)
		return 0;
	pieces = calloc(threads, sizeof(*pieces));
	if (!pieces)
		return -ENOMEM;
	count = parallel_cut(job, threads, pieces);
	for (size_t i = 0; i < count; i++) {
		pieces[i].job = job;
		pieces[i].stop = &stop;
	}
	/* Pieces 1..n-1 on new threads, piece 0 on this one. */
	for (size_t i = 1; i < count; i++) {
		int err = pthread_create(&pieces[i].tid, NULL, parallel_thread,
					 &pieces[i]);

		if (err) {	/* no thread: copy that piece here */
			parallel_thread(&pieces[i]);
			continue;
		}
		pieces[i].started = 1;
	}
	parallel_thread(&pieces[0]);
	ret = parallel_join(pieces, count);
	free(pieces);
	return ret;
}

const struct copy_strategy strategy_parallel = {
	.name = "parallel",
	.description = "copy_file_range(2) on 1 MiB-aligned pieces, one pthread each (pread/pwrite fallback)",
	.syscalls = "copy_file_range,clone3,futex?,pread64?,pwrite64?",
	.flags = STRATEGY_RANGE | STRATEGY_MULTI_CPU | STRATEGY_THREADS,
	.copy = parallel_copy,
};
