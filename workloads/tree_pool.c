// SPDX-License-Identifier: MIT
/*
 * tree_pool.c - the `pool` tree method: the tree walked once (folders made,
 * kept open), then a pool of threads takes the files from the list one at a
 * time (an atomic cursor: the work queue) and copies each with
 * copy_file_range(2), as cp does per file.
 *
 * This is how the parallel copiers do it (fcp and xcp keep a queue of files
 * that worker threads drain): with many small files the per-file system
 * calls (open, fstat, create, copy, close) are the work, and they run on
 * every CPU at once. --threads sets the pool's size (0: one per online CPU);
 * the calling thread is one of the workers. Its one read is libc's
 * sysconf(_SC_NPROCESSORS_ONLN) reading the online CPUs; futex only when
 * the join waits for a worker still busy.
 */
#include "tree.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct copy_strategy strategy_copy_file_range;

struct pool {
	const struct tree_job *job;
	const struct tree_files *l;
	atomic_size_t next;	/* the next file to take */
	atomic_int err;		/* the first failure, 0 while none */
	char msg[256];		/* its message, written by the thread that set err */
};

/* Takes files until the list is done or a worker failed. */
static void *pool_work(void *arg)
{
	struct pool *p = arg;
	struct tree_job mine = *p->job;
	char msg[sizeof(p->msg)] = "";

	mine.msg = msg;			/* each worker's own, no race */
	mine.msg_len = sizeof(msg);
	mine.facts = NULL;
	while (!atomic_load_explicit(&p->err, memory_order_relaxed)) {
		size_t i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
		struct tree_file f;
		int first = 0, err;

		if (i >= p->l->n)
			break;
		f = tree_entry_file(p->l, &p->l->v[i]);
		err = tree_copy_one(&mine, &strategy_copy_file_range, &f);
		if (err) {
			if (atomic_compare_exchange_strong(&p->err, &first, err))
				memcpy(p->msg, msg, sizeof(msg));
			break;
		}
	}
	return NULL;
}

static unsigned pool_threads(const struct tree_job *job)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (job->c->threads)
		return job->c->threads;
	return cpus > 0 ? (unsigned)cpus : 1;
}

/* Starts nthreads - 1 workers, works itself, joins them. */
static int pool_run(struct pool *p, unsigned nthreads)
{
	pthread_t *tid = calloc(nthreads, sizeof(*tid));
	unsigned started = 0;
	int err = 0;

	if (!tid)
		return -ENOMEM;
	for (; started + 1 < nthreads; started++) {
		err = pthread_create(&tid[started], NULL, pool_work, p);
		if (err) {
			int none = 0;

			/* the others stop at their next file */
			if (atomic_compare_exchange_strong(&p->err, &none, -err))
				snprintf(p->msg, sizeof(p->msg), "cannot start worker %u of %u: %s",
					 started + 2, nthreads, strerror(err));
			break;
		}
	}
	if (!err)
		pool_work(p);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	return atomic_load(&p->err);
}

static int pool_copy(const struct tree_job *job)
{
	struct tree_files l;
	struct pool p = { .job = job, .l = &l };
	int err = tree_files_walk(&l, job);

	if (!err) {
		atomic_init(&p.next, 0);
		atomic_init(&p.err, 0);
		err = pool_run(&p, pool_threads(job));
		if (err)
			snprintf(job->msg, job->msg_len, "%s", p.msg);
	}
	tree_files_end(&l);
	return err;
}

static int pool_probe(const char *dir, char *why, size_t n)
{
	return strategy_probe(&strategy_copy_file_range, dir, why, n);
}

const struct tree_method tree_method_pool = {
	.syscalls = "getdents64,openat,mkdirat,newfstatat,copy_file_range,close,clone3,read,futex?",
	.probe = pool_probe,
	.copy = pool_copy,
};
