// SPDX-License-Identifier: MIT
/*
 * io_uring.c - asynchronous copy through io_uring (liburing), with
 * registered buffers and files and each block's read linked to its write.
 *
 * Follows liburing's examples/io_uring-cp.c (a ring kept full of reads,
 * each completed read turned into a write) and examples/link-cp.c (read and
 * write of a block submitted together, the write linked to the read with
 * IOSQE_IO_LINK so the kernel starts it when the read completes, with no
 * round trip through user space). On top of those examples:
 *
 *   - Registered (fixed) buffers: one buffer per slot, registered once with
 *     io_uring_register_buffers, used with IORING_OP_READ_FIXED and
 *     IORING_OP_WRITE_FIXED, so the kernel does not pin and unpin user pages
 *     on every request. If registration fails (RLIMIT_MEMLOCK too small for
 *     depth x block), plain IORING_OP_READ/WRITE on the same buffers is used.
 *   - Registered files: src and dst registered with io_uring_register_files
 *     and used with IOSQE_FIXED_FILE (no fget/fput per request); plain
 *     descriptors if registration fails.
 *   - The ring is kept full: whenever a block is fully written its slot takes
 *     the next block at once; new requests go in with the next
 *     io_uring_submit_and_wait, one syscall that both submits and reaps.
 *   - Ring setup flags: IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN
 *     | IORING_SETUP_DEFER_TASKRUN (Linux 6.1+: completions are processed
 *     when this thread waits, not by interrupting it); without them on older
 *     kernels.
 *   - Registered ring descriptor (io_uring_register_ring_fd): io_uring_enter
 *     skips the fdget/fdput of the ring itself.
 *   - Each wait asks for half of the completions in flight, not one: fewer
 *     io_uring_enter calls and wake-ups, while the other half keeps the
 *     kernel busy.
 *   - No SQPOLL: a polling kernel thread would take one of the cores the
 *     copy itself needs. No IOSQE_ASYNC: reads from the page cache complete
 *     inline, and a write the filesystem cannot do without blocking is
 *     handed to an io-wq worker by io_uring anyway; forcing every write
 *     there would only remove the inline writes XFS can do.
 *
 * Where the writes run. io_uring first tries each buffered write without
 * blocking (IOCB_NOWAIT) in the submitting thread and, on -EAGAIN, hands it
 * to an io-wq worker (iou-wrk-PID); writes to one file are serialised in
 * that worker. The result depends on the filesystem:
 *
 *   - ext4 does not set FOP_BUFFER_WASYNC, so every write goes to the
 *     worker: the copy is a two-thread pipeline, reads in the caller and
 *     writes in iou-wrk, and every block crosses threads once. Larger
 *     blocks pay that handoff fewer times.
 *   - btrfs sets FOP_BUFFER_WASYNC, but its non-blocking path refuses the
 *     writes of these copies too, so it behaves like ext4.
 *   - XFS writes inline unless the non-blocking attempt would have to
 *     wait: when the file's timestamps need updating (a transaction; so the
 *     first write of a new file, and again as the clock moves on), when the
 *     write starts beyond the current end of file (an earlier block is still
 *     being written by the worker), or when the worker holds the inode's
 *     I/O lock. So one punted write tends to take the writes queued behind
 *     it along, and the deeper the ring, the larger the share of writes
 *     that run in iou-wrk.
 *
 * None of these refusals shows up here: the worker completes the write and
 * the CQE carries the full length. Measurements, traces and the guest
 * memory effect that made this strategy look slow on XFS are in
 * docs/io_uring.md.
 *
 * Defaults (used when the job leaves them 0; the harness passes --buffer and
 * --queue-depth when given, and .default_buffer otherwise), chosen from warm
 * 200 MiB copies with interleaved runs on ext4, where the handoff decides:
 *   - Block size 1 MiB: per-request and per-handoff costs dominate small
 *     blocks on cached data (128 KiB was the slowest size tried; 256 KiB
 *     and 1 MiB were within noise of each other). liburing's examples use
 *     32 KiB, tuned for devices rather than the page cache.
 *   - Queue depth 4 blocks in flight (the ring has 2 entries per block).
 *     Deeper rings only queue more writes behind the single worker that
 *     owns the file (and, on XFS, push more writes off the inline path);
 *     depth 1 leaves the worker idle while the caller reads. Depth 4 also
 *     pins only 4 MiB of buffers.
 *   - Depth is cut to the number of blocks the range has, so small copies
 *     do not allocate and pin unused buffers.
 *
 * Short transfers: a read that returns fewer bytes than asked breaks the
 * link, so its write completes with -ECANCELED; the slot then resubmits the
 * rest of the read linked to a write of everything not yet written. A short
 * write resubmits the unwritten remainder. -EAGAIN, -EINTR and -ECANCELED
 * results are retried the same way. A read returning 0 before the block is
 * complete means the source is shorter than len: -ENODATA. Offsets are
 * 64-bit in the SQE, so ranges beyond 4 GiB work.
 *
 * A copy that cannot hang on a lost request: when nothing completes for
 * URING_STALL_S while requests are in flight, the kernel is asked to
 * cancel every request of the ring (IORING_ASYNC_CANCEL_ANY) and the
 * cancelled rounds are queued again. On Linux 6.18 a process that makes
 * copy after copy (a test, bench ab's worker) can queue a write to io-wq
 * just as the io-wq worker of its previous ring exits, and that write
 * never runs (traced; docs/check.md); the cancel finds it on io-wq's list
 * and the retry gets a new worker. A bench run's copy, alone in a new
 * process, never meets it.
 *
 * The ring is set up and torn down inside copy(): the strategy owns its
 * resources, and that setup is part of what io_uring costs. Closing a ring
 * leaves the release of its registered files and buffers to a kernel worker
 * that runs after the process has gone (the next run would pay for it: the
 * worker drops the last reference to a replaced destination and frees its
 * page cache), so both are unregistered first, inside the clock.
 *
 * Built only when liburing is found (HAVE_LIBURING); otherwise the strategy
 * still exists and its probe says "built without liburing".
 *
 * Expected syscalls per call: io_uring_setup, mmap x3, io_uring_register x6
 * (buffers, files and the ring fd, each registered and unregistered),
 * io_uring_enter about once per batch of completions, munmap x3, close.
 */
#include "strategy.h"
#include "fileio.h"

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
