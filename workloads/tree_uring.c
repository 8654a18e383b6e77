// SPDX-License-Identifier: MIT
/*
 * tree_uring.c - the `uring` tree method: the tree walked once (folders
 * made, kept open), then io_uring keeps many files in flight. Each file is
 * two trips through the ring:
 *
 *   1. statx of its name in its source folder: its type and size;
 *   2. one linked chain: open the source and create the destination into
 *      registered file slots (direct descriptors: no file table entry, no
 *      per-file fd), read and write it buffer by buffer at offsets, with
 *      --fsync a datasync, and close both slots.
 *
 * A link breaks at the first failure, a short read or write included, and
 * cancels the rest of its chain: any failed or cancelled request fails the
 * copy with the file's name. While a chain runs, other files' statx and
 * chains are in the ring too: --queue-depth files in flight (default 32),
 * each with its own buffer. A file longer than eight buffers would make a
 * long chain: it is copied with copy_file_range(2) outside the ring.
 *
 * This is the shape of the io_uring tree copiers (uring-based cp variants,
 * and liburing's own examples chain open/read/write/close the same way).
 * The kernel may hand requests that would block to its io-wq worker
 * threads, so the method counts as running on several CPUs.
 */
#include "tree.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_LIBURING
#include <liburing.h>

#define TREE_URING_SLOTS 32u	/* files in flight without --queue-depth */
#define TREE_URING_CHUNKS 8u	/* buffers a file may take inside the ring */
/* The longest chain: two opens, the chunks' reads and writes, a datasync,
 * two closes. */
#define TREE_URING_CHAIN (2u + 2u * TREE_URING_CHUNKS + 1u + 2u)

extern const struct copy_strategy strategy_copy_file_range;

enum { STEP_STATX, STEP_CHAIN };

struct tree_slot {
	size_t file;		/* index in the list */
	struct statx stx;
	unsigned pending;	/* completions still to come */
	int err;		/* the first failure in them */
	bool cancelled;		/* a request was cancelled: a link broke */
	bool busy;
};

struct tree_uring {
	const struct tree_job *job;
	const struct tree_files *l;
	struct io_uring ring;
	struct tree_slot *slots;
	unsigned nslots, busy;
	size_t block;
	char *mem;		/* nslots buffers of block bytes */
	size_t next;		/* the next file to start */
	int err;
};

static uint64_t slot_data(unsigned s, int step)
{
	return (uint64_t)s << 1 | (uint64_t)step;
}

static const char *slot_name(const struct tree_uring *u, const struct tree_slot *s)
{
	return tree_entry_name(u->l, &u->l->v[s->file]);
}

/* An SQE, submitting what is queued first when fewer than need are free. */
static struct io_uring_sqe *get_sqe(struct tree_uring *u, unsigned need)
{
	if (io_uring_sq_space_left(&u->ring) < need)
		io_uring_submit(&u->ring);
	return io_uring_get_sqe(&u->ring);
}

static void start_statx(struct tree_uring *u, unsigned s)
{
	struct tree_slot *sl = &u->slots[s];
	const struct tree_entry *e = &u->l->v[u->next];
	struct io_uring_sqe *sqe = get_sqe(u, 1);

	*sl = (struct tree_slot){ .file = u->next++, .pending = 1, .busy = true };
	u->busy++;
	io_uring_prep_statx(sqe, e->src_dir, tree_entry_name(u->l, e),
			    AT_SYMLINK_NOFOLLOW, STATX_TYPE | STATX_SIZE, &sl->stx);
	io_uring_sqe_set_data64(sqe, slot_data(s, STEP_STATX));
}

/*
 * Marks a prepared request as one of slot s's chain, linked to the next
 * unless it is the last. After the prep call: io_uring_prep_* clears the
 * flags.
 */
static void chain_add(struct tree_uring *u, unsigned s, struct io_uring_sqe *sqe,
		      unsigned flags, bool last)
{
	io_uring_sqe_set_data64(sqe, slot_data(s, STEP_CHAIN));
	sqe->flags |= flags | (last ? 0 : IOSQE_IO_LINK);
	u->slots[s].pending++;
}

static void start_chain(struct tree_uring *u, unsigned s, uint64_t size)
{
	const struct tree_entry *e = &u->l->v[u->slots[s].file];
	const char *name = tree_entry_name(u->l, e);
	unsigned in = 2 * s, out = 2 * s + 1;
	char *buf = u->mem + (size_t)s * u->block;
	struct io_uring_sqe *sqe;

	if (io_uring_sq_space_left(&u->ring) < TREE_URING_CHAIN)
		io_uring_submit(&u->ring);
	sqe = io_uring_get_sqe(&u->ring);
	io_uring_prep_openat_direct(sqe, e->src_dir, name, O_RDONLY | O_NOFOLLOW, 0, in);
	chain_add(u, s, sqe, 0, false);
	sqe = io_uring_get_sqe(&u->ring);
	io_uring_prep_openat_direct(sqe, e->dst_dir, name, O_WRONLY | O_CREAT | O_EXCL, 0644, out);
	chain_add(u, s, sqe, 0, false);
	for (uint64_t off = 0; off < size; off += u->block) {
		unsigned len = (unsigned)(size - off < u->block ? size - off : u->block);

		sqe = io_uring_get_sqe(&u->ring);
		io_uring_prep_read(sqe, (int)in, buf, len, off);
		chain_add(u, s, sqe, IOSQE_FIXED_FILE, false);
		sqe = io_uring_get_sqe(&u->ring);
		io_uring_prep_write(sqe, (int)out, buf, len, off);
		chain_add(u, s, sqe, IOSQE_FIXED_FILE, false);
	}
	if (u->job->c->fsync) {
		sqe = io_uring_get_sqe(&u->ring);
		io_uring_prep_fsync(sqe, (int)out, IORING_FSYNC_DATASYNC);
		chain_add(u, s, sqe, IOSQE_FIXED_FILE, false);
	}
	sqe = io_uring_get_sqe(&u->ring);
	io_uring_prep_close_direct(sqe, in);
	chain_add(u, s, sqe, 0, false);
	sqe = io_uring_get_sqe(&u->ring);
	io_uring_prep_close_direct(sqe, out);
	chain_add(u, s, sqe, 0, true);
}

/* Slot s's statx came back: its chain, or the copy outside the ring. */
static int statx_done(struct tree_uring *u, unsigned s)
{
	struct tree_slot *sl = &u->slots[s];
	uint64_t size = sl->stx.stx_size;

	if (!S_ISREG(sl->stx.stx_mode))
		return tree_job_fail(u->job, slot_name(u, sl), -EINVAL,
				     "is no longer a regular file (the tree changed)");
	if (size <= (uint64_t)u->block * TREE_URING_CHUNKS) {
		start_chain(u, s, size);
		return 0;
	}
	{
		struct tree_file f = tree_entry_file(u->l, &u->l->v[sl->file]);
		int err = tree_copy_one(u->job, &strategy_copy_file_range, &f);

		sl->busy = false;
		u->busy--;
		return err;
	}
}

/* One completion. 0, or -errno once a file failed. */
static int complete(struct tree_uring *u, const struct io_uring_cqe *cqe)
{
	uint64_t data = io_uring_cqe_get_data64(cqe);
	unsigned s = (unsigned)(data >> 1);
	struct tree_slot *sl = &u->slots[s];

	sl->pending--;
	if (cqe->res == -ECANCELED)
		sl->cancelled = true;
	else if (cqe->res < 0 && !sl->err)
		sl->err = cqe->res;
	if (sl->pending)
		return 0;
	if (sl->err || sl->cancelled) {
		int err = sl->err ? sl->err : -EIO;

		sl->busy = false;
		u->busy--;
		return tree_job_fail(u->job, slot_name(u, sl), err, sl->err ? NULL :
				     "a read or write came back short (the tree changed?)");
	}
	if ((data & 1) == STEP_STATX)
		return statx_done(u, s);
	sl->busy = false;
	u->busy--;
	return 0;
}

/* Fills free slots, then waits for completions, until every file is done
 * or one failed and what was in flight has come back. */
static int uring_tree_loop(struct tree_uring *u)
{
	while (u->busy || (!u->err && u->next < u->l->n)) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		int ret;

		for (unsigned s = 0; s < u->nslots && !u->err && u->next < u->l->n; s++)
			if (!u->slots[s].busy)
				start_statx(u, s);
		ret = io_uring_submit_and_wait(&u->ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			return tree_job_fail(u->job, ".", ret, "io_uring_enter");
		io_uring_for_each_cqe(&u->ring, head, cqe) {
			int err = complete(u, cqe);

			if (err && !u->err)
				u->err = err;
			seen++;
		}
		io_uring_cq_advance(&u->ring, seen);
	}
	return u->err;
}

static int uring_tree_setup(struct tree_uring *u)
{
	unsigned entries = 64;
	int ret;

	while (entries < 2 * TREE_URING_CHAIN || entries < 4 * u->nslots)
		entries *= 2;
	ret = io_uring_queue_init(entries, &u->ring, 0);
	if (ret < 0)
		return tree_job_fail(u->job, ".", ret, "io_uring_queue_init");
	ret = io_uring_register_files_sparse(&u->ring, 2 * u->nslots);
	if (ret < 0) {
		io_uring_queue_exit(&u->ring);
		return tree_job_fail(u->job, ".", ret, "registering file slots");
	}
	u->slots = calloc(u->nslots, sizeof(*u->slots));
	u->mem = page_buf_alloc((size_t)u->nslots * u->block);
	if (!u->slots || !u->mem) {
		free(u->slots);
		page_buf_free(u->mem, (size_t)u->nslots * u->block);
		io_uring_queue_exit(&u->ring);
		return tree_job_fail(u->job, ".", -ENOMEM, NULL);
	}
	return 0;
}

static int uring_tree_copy(const struct tree_job *job)
{
	struct tree_files l;
	struct tree_uring u = {
		.job = job, .l = &l,
		.nslots = job->c->queue_depth ? job->c->queue_depth : TREE_URING_SLOTS,
		.block = job->c->buffer ? job->c->buffer : STRATEGY_DEFAULT_BUFFER,
	};
	int err = tree_files_walk(&l, job);

	if (err)
		goto out_list;
	err = uring_tree_setup(&u);
	if (err)
		goto out_list;
	err = uring_tree_loop(&u);
	io_uring_unregister_files(&u.ring);
	io_uring_queue_exit(&u.ring);
	page_buf_free(u.mem, (size_t)u.nslots * u.block);
	free(u.slots);
out_list:
	tree_files_end(&l);
	return err;
}

static int uring_tree_probe(const char *dir, char *why, size_t n)
{
	static const int ops[] = { IORING_OP_STATX, IORING_OP_OPENAT, IORING_OP_READ,
				   IORING_OP_WRITE, IORING_OP_CLOSE, IORING_OP_FSYNC };
	struct io_uring_probe *probe;
	struct io_uring ring;
	int ret;

	(void)dir;
	ret = io_uring_queue_init(2, &ring, 0);
	if (ret < 0) {
		snprintf(why, n, "io_uring_queue_init failed: %s", strerror(-ret));
		return ret;
	}
	probe = io_uring_get_probe_ring(&ring);
	for (size_t i = 0; probe && i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!io_uring_opcode_supported(probe, ops[i])) {
			snprintf(why, n, "the kernel's io_uring lacks opcode %d", ops[i]);
			ret = -EOPNOTSUPP;
		}
	if (!probe) {
		snprintf(why, n, "cannot probe io_uring's opcodes");
		ret = -EOPNOTSUPP;
	}
	if (!ret && (ret = io_uring_register_files_sparse(&ring, 2)) < 0)
		snprintf(why, n, "cannot register file slots (direct descriptors): %s", strerror(-ret));
	io_uring_free_probe(probe);
	io_uring_queue_exit(&ring);
	return ret < 0 ? ret : 0;
}

#else /* !HAVE_LIBURING */

static int uring_tree_copy(const struct tree_job *job)
{
	(void)job;
	return -ENOSYS;
}

static int uring_tree_probe(const char *dir, char *why, size_t n)
{
	(void)dir;
	snprintf(why, n, "built without liburing");
	return -ENOSYS;
}

#endif

const struct tree_method tree_method_uring = {
	.syscalls = "getdents64,openat,mkdirat,io_uring_setup,io_uring_register,io_uring_enter,mmap,munmap,close",
	.probe = uring_tree_probe,
	.copy = uring_tree_copy,
};
