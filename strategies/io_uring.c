// SPDX-License-Identifier: MIT
/*
 * io_uring.c - asynchronous copy through io_uring (liburing), with
 * registered buffers and files and each block's read linked to its write.
 *
 * Follows liburing's examples/io_uring-cp.c (a ring kept full of reads,
 * each completed read turned into a write) and examples/link-cp.c (the
 * write linked to its read with IOSQE_IO_LINK, so the kernel starts it when
 * the read completes, with no round trip through user space). On top:
 *
 *   - Registered buffers (READ_FIXED/WRITE_FIXED: no page pinning per
 *     request) and registered files (IOSQE_FIXED_FILE: no fget/fput), each
 *     falling back to the plain form when registration fails (RLIMIT_MEMLOCK
 *     too small for depth x block); the ring fd registered too.
 *   - The ring kept full: a slot whose block is written takes the next one,
 *     submitted with the next io_uring_submit_and_wait, which also waits for
 *     half of the completions in flight (fewer io_uring_enter calls).
 *   - IORING_SETUP_SINGLE_ISSUER | COOP_TASKRUN | DEFER_TASKRUN (Linux
 *     6.1+; without them on older kernels): completions are processed when
 *     this thread waits, not by interrupting it.
 *   - No SQPOLL (its kernel thread would take a core the copy needs) and no
 *     IOSQE_ASYNC (io_uring hands a write the filesystem cannot do without
 *     blocking to an io-wq worker anyway; ext4 and btrfs hand over every
 *     write, XFS runs most inline: docs/io_uring.md).
 *
 * Defaults, when the job leaves them 0: 1 MiB blocks (per-request and
 * per-handoff costs dominate smaller blocks on cached data) and 4 blocks in
 * flight (depth 1 leaves the io-wq worker idle while the caller reads;
 * deeper rings queue more writes behind the one worker that owns the file).
 * Depth is cut to the number of blocks of the range. The measurements behind
 * both are linked from docs/io_uring.md.
 *
 * Short transfers: a short read breaks the link, so its write completes
 * with -ECANCELED; the slot resubmits the rest of the read linked to a write
 * of everything not yet written. A short write resubmits the remainder.
 * -EAGAIN, -EINTR and -ECANCELED are retried the same way; a read of 0
 * before the block is complete is -ENODATA.
 *
 * A copy cannot hang on a lost request: when nothing completes for
 * URING_STALL_S while requests are in flight, every request of the ring is
 * cancelled (IORING_ASYNC_CANCEL_ANY) and the cancelled rounds are queued
 * again. A process that makes copy after copy can queue a write to io-wq
 * just as the worker of its previous ring exits, and that write never runs
 * (docs/io_uring.md); the retry gets a new worker.
 *
 * The ring is set up and torn down inside copy(). Its registered files and
 * buffers are unregistered before the ring is closed, inside the clock:
 * closing a ring leaves their release to a kernel worker that would run
 * during the next run (docs/clock.md).
 *
 * Built only when liburing is found (HAVE_LIBURING); otherwise the strategy
 * still exists and its probe says "built without liburing".
 *
 * Expected syscalls per call: io_uring_setup, mmap x3, io_uring_register x6
 * (buffers, files and the ring fd, each registered and unregistered),
 * io_uring_enter about once per batch of completions, munmap x3, close.
 */
#include "strategy.h"
#include "lib/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define URING_DEFAULT_BLOCK	(1u << 20)
#define URING_DEFAULT_DEPTH	4u

#ifdef HAVE_LIBURING
#include <liburing.h>
#include <stdbool.h>
#include <stdlib.h>

#define URING_MAX_BLOCK		(1u << 30)
#define URING_SETUP_FAST	(IORING_SETUP_SINGLE_ISSUER | \
				 IORING_SETUP_COOP_TASKRUN | \
				 IORING_SETUP_DEFER_TASKRUN)
#define URING_STALL_S		1	/* no completion this long: cancel and retry */
#define URING_CANCEL_DATA	UINT64_MAX	/* user_data of the cancel request */
#define URING_SRC		0	/* registered file indexes */
#define URING_DST		1

enum uring_op { URING_OP_READ, URING_OP_WRITE };

/* One block in flight: its buffer and how far it has got. */
struct uring_slot {
	char *buf;
	uint64_t pos;		/* block start, relative to the job's offsets */
	size_t len;
	size_t rdone;		/* bytes read into buf */
	size_t wdone;		/* bytes of buf written */
	int rres, wres;		/* results of the current round */
	unsigned pending;	/* completions the current round still owes */
	bool reading;		/* the current round has a read */
};

struct uring_copy {
	struct io_uring ring;
	const struct copy_job *job;
	struct uring_slot *slots;
	unsigned nslots;
	size_t block;
	char *mem;
	uint64_t next;		/* first byte not yet given to a slot */
	unsigned inflight;	/* completions still to come */
	bool fixed_bufs;
	bool fixed_files;
	int err;
};

static bool uring_retry(int res)
{
	return res == -EAGAIN || res == -EINTR || res == -ECANCELED;
}

/* Fills an SQE for one read or write of slot i. */
static void uring_prep(struct uring_copy *uc, struct io_uring_sqe *sqe,
		       unsigned i, enum uring_op op)
{
	struct uring_slot *s = &uc->slots[i];
	bool rd = op == URING_OP_READ;
	size_t done = rd ? s->rdone : s->wdone;
	uint64_t off = (rd ? uc->job->src_off : uc->job->dst_off) + s->pos + done;
	int fd = uc->fixed_files ? (rd ? URING_SRC : URING_DST) :
		 (rd ? uc->job->src_fd : uc->job->dst_fd);
	unsigned nbytes = (unsigned)(s->len - done);

	if (uc->fixed_bufs && rd)
		io_uring_prep_read_fixed(sqe, fd, s->buf + done, nbytes, off, (int)i);
	else if (uc->fixed_bufs)
		io_uring_prep_write_fixed(sqe, fd, s->buf + done, nbytes, off, (int)i);
	else if (rd)
		io_uring_prep_read(sqe, fd, s->buf + done, nbytes, off);
	else
		io_uring_prep_write(sqe, fd, s->buf + done, nbytes, off);
	if (uc->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	io_uring_sqe_set_data64(sqe, (uint64_t)i << 1 | op);
	s->pending++;
	uc->inflight++;
}

/* Queues the next round of slot i: the missing read linked to the write. */
static int uring_queue_round(struct uring_copy *uc, unsigned i)
{
	struct uring_slot *s = &uc->slots[i];
	struct io_uring_sqe *sqe;

	/* A linked pair must not straddle two submissions. */
	if (io_uring_sq_space_left(&uc->ring) < 2) {
		int ret = io_uring_submit(&uc->ring);

		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			return ret;
		if (io_uring_sq_space_left(&uc->ring) < 2)
			return -EBUSY;
	}
	s->reading = s->rdone < s->len;
	s->rres = 0;
	s->wres = 0;
	if (s->reading) {
		sqe = io_uring_get_sqe(&uc->ring);
		uring_prep(uc, sqe, i, URING_OP_READ);
		sqe->flags |= IOSQE_IO_LINK;
	}
	sqe = io_uring_get_sqe(&uc->ring);
	uring_prep(uc, sqe, i, URING_OP_WRITE);
	return 0;
}

/* Gives slot i the next block of the range, if any is left. */
static int uring_start_block(struct uring_copy *uc, unsigned i)
{
	struct uring_slot *s = &uc->slots[i];
	uint64_t left = uc->job->len - uc->next;

	if (left == 0 || uc->err)
		return 0;
	s->pos = uc->next;
	s->len = left < uc->block ? (size_t)left : uc->block;
	s->rdone = 0;
	s->wdone = 0;
	uc->next += s->len;
	return uring_queue_round(uc, i);
}

/* Applies one finished round of slot i; 0 or the error it revealed. */
static int uring_settle(struct uring_copy *uc, unsigned i)
{
	struct uring_slot *s = &uc->slots[i];

	if (s->reading) {
		if (s->rres == 0)
			return -ENODATA;	/* source shorter than promised */
		if (s->rres > 0)
			s->rdone += (size_t)s->rres;
		else if (!uring_retry(s->rres))
			return s->rres;
	}
	if (s->wres > 0) {
		s->wdone += (size_t)s->wres;
		/* Never count bytes written past what was really read. */
		if (s->wdone > s->rdone)
			s->wdone = s->rdone;
	} else if (s->wres == 0) {
		return -EIO;
	} else if (!uring_retry(s->wres)) {
		return s->wres;
	}
	if (uc->err)
		return 0;
	if (s->wdone == s->len)
		return uring_start_block(uc, i);
	return uring_queue_round(uc, i);
}

static void uring_complete(struct uring_copy *uc, const struct io_uring_cqe *cqe)
{
	uint64_t data = io_uring_cqe_get_data64(cqe);
	unsigned i = (unsigned)(data >> 1);
	struct uring_slot *s = &uc->slots[i];
	int ret;

	if ((data & 1) == URING_OP_READ)
		s->rres = cqe->res;
	else
		s->wres = cqe->res;
	uc->inflight--;
	if (--s->pending)
		return;
	ret = uring_settle(uc, i);
	if (ret && !uc->err)
		uc->err = ret;
}

/* Nothing completed for URING_STALL_S: every request of the ring is
 * cancelled; each completes with -ECANCELED and its round is queued again. */
static void uring_cancel_all(struct uring_copy *uc)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&uc->ring);

	if (!sqe)
		return;
	io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
	io_uring_sqe_set_data64(sqe, URING_CANCEL_DATA);
}

/* Submits what is queued and reaps completions until nothing is in flight. */
static int uring_run(struct uring_copy *uc)
{
	while (uc->inflight > 0) {
		struct __kernel_timespec stall = { .tv_sec = URING_STALL_S };
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		unsigned want = uc->inflight > 2 ? uc->inflight / 2 : 1;
		int ret = io_uring_submit_and_wait_timeout(&uc->ring, &cqe, want, &stall, NULL);

		if (ret < 0 && ret != -ETIME && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY) {
			if (!uc->err)
				uc->err = ret;
			return uc->err;	/* the ring is unusable: give up */
		}
		io_uring_for_each_cqe(&uc->ring, head, cqe) {
			if (io_uring_cqe_get_data64(cqe) != URING_CANCEL_DATA)
				uring_complete(uc, cqe);
			seen++;
		}
		io_uring_cq_advance(&uc->ring, seen);
		if (ret == -ETIME && !seen)
			uring_cancel_all(uc);
	}
	return uc->err;
}

static int uring_init_ring(struct uring_copy *uc)
{
	unsigned entries = 2 * uc->nslots;
	int ret;

	ret = io_uring_queue_init(entries, &uc->ring, URING_SETUP_FAST);
	if (ret == -EINVAL)	/* kernel older than 6.1 */
		ret = io_uring_queue_init(entries, &uc->ring, 0);
	return ret;
}

/* Allocates the slots' buffers and registers buffers and files. */
static int uring_setup_slots(struct uring_copy *uc)
{
	int fds[2] = { uc->job->src_fd, uc->job->dst_fd };
	struct iovec *iov;

	uc->slots = calloc(uc->nslots, sizeof(*uc->slots));
	iov = calloc(uc->nslots, sizeof(*iov));
	uc->mem = page_buf_alloc(uc->nslots * uc->block);
	if (!uc->slots || !iov || !uc->mem) {
		free(iov);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < uc->nslots; i++) {
		uc->slots[i].buf = uc->mem + i * uc->block;
		iov[i].iov_base = uc->slots[i].buf;
		iov[i].iov_len = uc->block;
	}
	uc->fixed_bufs = io_uring_register_buffers(&uc->ring, iov, uc->nslots) == 0;
	uc->fixed_files = io_uring_register_files(&uc->ring, fds, 2) == 0;
	io_uring_register_ring_fd(&uc->ring);	/* failure: the plain fd works */
	free(iov);
	return 0;
}

/* Lets go of the registered files and buffers now, not after exit. */
static void uring_release(struct uring_copy *uc)
{
	if (uc->fixed_files)
		io_uring_unregister_files(&uc->ring);
	if (uc->fixed_bufs)
		io_uring_unregister_buffers(&uc->ring);
}

static int uring_copy(const struct copy_job *job)
{
	struct uring_copy uc = { .job = job };
	unsigned depth = job->queue_depth ? job->queue_depth : URING_DEFAULT_DEPTH;
	uint64_t blocks;
	int ret;

	if (job->len == 0)
		return 0;
	uc.block = job->buffer_size ? job->buffer_size : URING_DEFAULT_BLOCK;
	if (uc.block > URING_MAX_BLOCK)
		uc.block = URING_MAX_BLOCK;
	if (uc.block > job->len)
		uc.block = (size_t)job->len;
	blocks = (job->len + uc.block - 1) / uc.block;
	uc.nslots = blocks < depth ? (unsigned)blocks : depth;

	ret = uring_init_ring(&uc);
	if (ret)
		return ret;
	ret = uring_setup_slots(&uc);
	if (ret)
		goto out_free_slots;
	if (job->facts)
		job->facts->fixed_buffers = uc.fixed_bufs;
	for (unsigned i = 0; i < uc.nslots && !ret; i++)
		ret = uring_start_block(&uc, i);
	if (ret)
		uc.err = ret;
	ret = uring_run(&uc);

out_free_slots:
	uring_release(&uc);
	io_uring_queue_exit(&uc.ring);	/* before the buffers it may use */
	page_buf_free(uc.mem, uc.nslots * uc.block);
	free(uc.slots);
	return ret;
}

/* Why io_uring_setup refused, as precisely as the system tells. */
static void uring_setup_reason(int err, char *why, size_t n)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
	int disabled = 0;

	if (f) {
		if (fscanf(f, "%d", &disabled) != 1)
			disabled = 0;
		fclose(f);
	}
	if (err == -ENOSYS)
		snprintf(why, n, "kernel without io_uring (ENOSYS)");
	else if (err == -EPERM && disabled == 2)
		snprintf(why, n, "io_uring disabled by sysctl kernel.io_uring_disabled=2");
	else if (err == -EPERM && disabled == 1)
		snprintf(why, n, "io_uring limited to group kernel.io_uring_group by sysctl kernel.io_uring_disabled=1");
	else
		snprintf(why, n, "io_uring_queue_init failed: %s", strerror(-err));
}

static int uring_probe(const char *dir, char *why, size_t n)
{
	static const struct { int op; const char *name; } ops[] = {
		{ IORING_OP_READ_FIXED, "IORING_OP_READ_FIXED" },
		{ IORING_OP_WRITE_FIXED, "IORING_OP_WRITE_FIXED" },
	};
	struct io_uring_probe *probe;
	struct io_uring ring;
	int ret;

	(void)dir;
	ret = io_uring_queue_init(2, &ring, 0);
	if (ret < 0) {
		uring_setup_reason(ret, why, n);
		return ret;
	}
	probe = io_uring_get_probe_ring(&ring);
	if (!probe) {
		snprintf(why, n, "kernel cannot list io_uring opcodes (IORING_REGISTER_PROBE needs Linux 5.6)");
		ret = -EOPNOTSUPP;
		goto out_exit_ring;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]) && !ret; i++) {
		if (!io_uring_opcode_supported(probe, ops[i].op)) {
			snprintf(why, n, "kernel does not support %s", ops[i].name);
			ret = -EOPNOTSUPP;
		}
	}
	io_uring_free_probe(probe);
out_exit_ring:
	io_uring_queue_exit(&ring);
	return ret;
}

#else /* !HAVE_LIBURING */

static int uring_copy(const struct copy_job *job)
{
	(void)job;
	return -EOPNOTSUPP;
}

static int uring_probe(const char *dir, char *why, size_t n)
{
	(void)dir;
	snprintf(why, n, "built without liburing");
	return -EOPNOTSUPP;
}

#endif

const struct copy_strategy strategy_io_uring = {
	.name = "io_uring",
	.description = "io_uring READ_FIXED linked to WRITE_FIXED per block, registered buffers and files, ring kept full",
	.syscalls = "io_uring_setup,io_uring_register,io_uring_enter,mmap,munmap,close",
	.flags = STRATEGY_BUFFERED | STRATEGY_RANGE | STRATEGY_MULTI_CPU | STRATEGY_QUEUE_DEPTH,
	.default_buffer = URING_DEFAULT_BLOCK,
	.default_queue_depth = URING_DEFAULT_DEPTH,
	.probe = uring_probe,
	.copy = uring_copy,
};
