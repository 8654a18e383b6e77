// SPDX-License-Identifier: MIT
/*
 * dataset.c - generated input files, reproducible from (kind, size, seed).
 *
 * The content is cut into 1 MiB blocks, and each block comes from its own
 * xoshiro256** stream seeded from (seed, kind, block number). A block never
 * depends on another, so two worker threads can fill blocks in any order
 * while the calling thread writes them and feeds XXH3 in file order: the
 * bytes and the hash are the same on every machine and every run, whatever
 * the scheduling. Numbers become bytes little-endian, whatever the CPU.
 *
 * Kinds:
 *   random - xoshiro256** output, incompressible.
 *   text   - printable ASCII lines of 10..64 bytes including '\n' (uniform,
 *            mean 37, like a log or CSV file). Each block ends with '\n';
 *            only a final block shorter than 10 bytes makes a shorter line.
 *   zero   - zero bytes, written out (allocated blocks, not holes).
 *   sparse - ftruncate to the size, then DATASET_SPARSE_ISLAND random bytes
 *            at the start of every DATASET_SPARSE_STRIDE (dataset.h); the
 *            holes are hashed as the zeros they read as, without writing.
 *
 * A file is written under a temporary name in its directory and renamed
 * into place when complete, so an interrupted generation never leaves a
 * half-written file under the final name. dataset_ensure() adds a small text
 * manifest beside the file so that later runs can reuse it (dataset_cache.c).
 */
#include "dataset_internal.h"
#include "stream.h"
#include "lib/fileio.h"
#include "lib/rng.h"
#include "lib/units.h"


#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

_Static_assert(DATASET_TREE == STREAM_KIND_TREE, "trees draw their bytes with their kind's number");

#define DATASET_BLOCK		DATASET_SPARSE_STRIDE
#define DATASET_SLACK		64	/* text fill may run 7 bytes past a line */
#define DATASET_SLOTS		8	/* blocks in flight between threads */
#define DATASET_WORKERS		2
#define DATASET_MIN_POOLED	4	/* fewer blocks: generate inline */
#define TEXT_MIN_LINE		10
#define TEXT_MAX_LINE		DATASET_TEXT_MAX_LINE

static const char *const dataset_kind_names[DATASET_KIND_COUNT] = {
	[DATASET_RANDOM] = "random",
	[DATASET_TEXT] = "text",
	[DATASET_ZERO] = "zero",
	[DATASET_SPARSE] = "sparse",
};

/*
 * 128 characters picked by 7 random bits: lowercase twice as often as
 * uppercase, spaces about one in five, some punctuation.
 */
static const char text_alphabet[] =
	"abcdefghijklmnopqrstuvwxyz"
	"abcdefghijklmnopqrstuvwxyz"
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	"0123456789"
	"                        "
	".,;:!?'\"-()/&%#@";
_Static_assert(sizeof(text_alphabet) == 129, "text alphabet must hold 128 characters");

/* Never written: the content of holes and of zero datasets. */
static char dataset_zeros[DATASET_BLOCK];

static inline void put_le64(char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (char)(v >> (8 * i));
}

/* ------------------------------------------------------------------ */
/* Block content                                                       */
/* ------------------------------------------------------------------ */


/* Length of the next line when `left` bytes of the block remain. */
static size_t text_line_length(struct xoshiro *x, size_t left)
{
	size_t span = TEXT_MAX_LINE - TEXT_MIN_LINE + 1;
	size_t len;

	if (left <= TEXT_MAX_LINE)
		return left;
	len = TEXT_MIN_LINE + (size_t)(((xoshiro_next(x) >> 32) * span) >> 32);
	if (left - len < TEXT_MIN_LINE)
		len = left - TEXT_MIN_LINE;	/* leave room for a whole line */
	return len;
}

/* Lines ending exactly at buf[len - 1]; buf has DATASET_SLACK spare bytes. */
static void fill_text(struct xoshiro *x, char *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		size_t line = text_line_length(x, len - pos);
		char *p = buf + pos;

		for (size_t j = 0; j + 1 < line; j += 8) {
			uint64_t r = xoshiro_next(x);

			for (int k = 0; k < 8; k++)
				p[j + k] = text_alphabet[(r >> (8 * k)) & 127];
		}
		p[line - 1] = '\n';
		pos += line;
	}
}

/* Bytes of block b that are data (the rest of a sparse block is a hole). */
static size_t block_data_len(enum dataset_kind kind, size_t len)
{
	if (kind == DATASET_SPARSE && len > DATASET_SPARSE_ISLAND)
		return DATASET_SPARSE_ISLAND;
	return len;
}

static void fill_block(enum dataset_kind kind, uint64_t seed, uint64_t block,
		       char *buf, size_t len)
{
	struct xoshiro x;

	xoshiro_seed_block(&x, seed, kind, block);
	if (kind == DATASET_TEXT)
		fill_text(&x, buf, len);
	else
		xoshiro_fill(&x, buf, block_data_len(kind, len));
}

/* ------------------------------------------------------------------ */
/* Writing and hashing, in file order                                  */
/* ------------------------------------------------------------------ */

struct gen_ctx {
	enum dataset_kind kind;
	uint64_t size;
	uint64_t seed;
	uint64_t nblocks;
	int fd;
	XXH3_state_t *xxh;
};

static size_t gen_block_len(const struct gen_ctx *g, uint64_t b)
{
	uint64_t left = g->size - b * DATASET_BLOCK;

	return left < DATASET_BLOCK ? (size_t)left : DATASET_BLOCK;
}

/* Writes block b's data (holes stay holes) and hashes all of it. */
static int gen_consume(struct gen_ctx *g, uint64_t b, const char *buf)
{
	size_t len = gen_block_len(g, b);
	size_t data = block_data_len(g->kind, len);
	int ret;

	if (dataset_stop && *dataset_stop)
		return -EINTR;
	ret = full_pwrite(g->fd, buf, data, b * DATASET_BLOCK);
	if (ret)
		return ret;
	XXH3_64bits_update(g->xxh, buf, data);
	if (len > data)
		XXH3_64bits_update(g->xxh, dataset_zeros, len - data);
	return 0;
}

/* Zero datasets need no generator: the same zero block, written n times. */
static int gen_zero(struct gen_ctx *g)
{
	for (uint64_t b = 0; b < g->nblocks; b++) {
		int ret = gen_consume(g, b, dataset_zeros);

		if (ret)
			return ret;
	}
	return 0;
}

static int gen_inline(struct gen_ctx *g)
{
	char *buf = malloc(DATASET_BLOCK + DATASET_SLACK);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t b = 0; b < g->nblocks && !ret; b++) {
		fill_block(g->kind, g->seed, b, buf, gen_block_len(g, b));
		ret = gen_consume(g, b, buf);
	}
	free(buf);
	return ret;
}

/* ------------------------------------------------------------------ */
/* Worker pool: workers fill slots, the caller drains them in order    */
/* ------------------------------------------------------------------ */

enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_READY };

struct gen_pool {
	struct gen_ctx *g;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t next;		/* next block a worker takes */
	int stop;
	enum slot_state state[DATASET_SLOTS];
	char *buf[DATASET_SLOTS];
};

static void *pool_worker(void *arg)
{
	struct gen_pool *p = arg;
	struct gen_ctx *g = p->g;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		uint64_t b;
		unsigned s;

		while (!p->stop && p->next < g->nblocks &&
		       p->state[p->next % DATASET_SLOTS] != SLOT_FREE)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop || p->next >= g->nblocks)
			break;
		b = p->next++;
		s = (unsigned)(b % DATASET_SLOTS);
		p->state[s] = SLOT_FILLING;
		pthread_mutex_unlock(&p->lock);

		fill_block(g->kind, g->seed, b, p->buf[s], gen_block_len(g, b));

		pthread_mutex_lock(&p->lock);
		p->state[s] = SLOT_READY;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static int pool_drain(struct gen_pool *p)
{
	struct gen_ctx *g = p->g;
	int ret = 0;

	for (uint64_t b = 0; b < g->nblocks && !ret; b++) {
		unsigned s = (unsigned)(b % DATASET_SLOTS);

		pthread_mutex_lock(&p->lock);
		while (p->state[s] != SLOT_READY)
			pthread_cond_wait(&p->cond, &p->lock);
		pthread_mutex_unlock(&p->lock);

		ret = gen_consume(g, b, p->buf[s]);

		pthread_mutex_lock(&p->lock);
		p->state[s] = SLOT_FREE;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	return ret;
}

static void pool_stop(struct gen_pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

static int gen_pooled(struct gen_ctx *g)
{
	struct gen_pool p = { .g = g };
	pthread_t tid[DATASET_WORKERS];
	int started = 0, ret = 0;

	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	for (int i = 0; i < DATASET_SLOTS; i++) {
		p.buf[i] = malloc(DATASET_BLOCK + DATASET_SLACK);
		if (!p.buf[i]) {
			ret = -ENOMEM;
			goto out_free_bufs;
		}
	}
	for (; started < DATASET_WORKERS; started++) {
		ret = -pthread_create(&tid[started], NULL, pool_worker, &p);
		if (ret)
			break;
	}
	if (started)
		ret = pool_drain(&p);
	pool_stop(&p);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);

out_free_bufs:
	for (int i = 0; i < DATASET_SLOTS; i++)
		free(p.buf[i]);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	return ret;
}

static int gen_content(struct gen_ctx *g)
{
	if (g->kind == DATASET_SPARSE && ftruncate(g->fd, (off_t)g->size))
		return -errno;
	if (g->kind == DATASET_ZERO)
		return gen_zero(g);
	if (g->nblocks < DATASET_MIN_POOLED)
		return gen_inline(g);
	return gen_pooled(g);
}

/* ------------------------------------------------------------------ */
/* Public: names and generation                                        */
/* ------------------------------------------------------------------ */

const char *dataset_kind_name(enum dataset_kind kind)
{
	if (kind == DATASET_FILE)
		return "file";
	if (kind == DATASET_TREE)
		return "tree";
	if (kind == DATASET_DIR)
		return "dir";
	if ((unsigned)kind >= DATASET_KIND_COUNT)
		return "unknown";
	return dataset_kind_names[kind];
}

int dataset_kind_parse(const char *name, enum dataset_kind *out)
{
	for (int k = 0; k < DATASET_KIND_COUNT; k++) {
		if (strcmp(name, dataset_kind_names[k]) == 0) {
			*out = (enum dataset_kind)k;
			return 0;
		}
	}
	return -EINVAL;
}

void dataset_file_name(const struct dataset *d, char *out, size_t n)
{
	if (d->kind == DATASET_TREE) {
		if (d->size == DATASET_SIZE_SRC)
			snprintf(out, n, "tree-%" PRIu64 "xsrc-s%" PRIu64, d->files, d->seed);
		else
			snprintf(out, n, "tree-%" PRIu64 "x%" PRIu64 "-s%" PRIu64,
				 d->files, d->size, d->seed);
		return;
	}
	snprintf(out, n, "%s-%" PRIu64 "-s%" PRIu64 ".dat",
		 dataset_kind_name(d->kind), d->size, d->seed);
}

/* Creates "<path>.tmp-XXXXXX" beside path; returns the fd or -errno. */
int dataset_open_temp(const char *path, char *tmp, size_t n)
{
	int fd;

	if ((size_t)snprintf(tmp, n, "%s.tmp-XXXXXX", path) >= n)
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0644)) {
		int err = -errno;

		close(fd);
		unlink(tmp);
		return err;
	}
	return fd;
}

/*
 * Renames the finished tmp onto path. An old file is unlinked first: renaming
 * over it would make ext4 (auto_da_alloc) start writeback of the new file at
 * once, which costs more than the whole generation.
 */
static int dataset_replace(const char *tmp, const char *path)
{
	if (unlink(path) && errno != ENOENT)
		return -errno;
	if (rename(tmp, path))
		return -errno;
	return 0;
}

int dataset_generate(enum dataset_kind kind, uint64_t size, uint64_t seed,
		     const char *path, uint64_t *hash)
{
	struct gen_ctx g = { .kind = kind, .size = size, .seed = seed };
	char tmp[PATH_MAX];
	int ret;

	if ((unsigned)kind >= DATASET_KIND_COUNT)
		return -EINVAL;
	g.nblocks = (size + DATASET_BLOCK - 1) / DATASET_BLOCK;
	g.fd = dataset_open_temp(path, tmp, sizeof(tmp));
	if (g.fd < 0)
		return g.fd;
	g.xxh = XXH3_createState();
	if (!g.xxh) {
		ret = -ENOMEM;
		goto out_close_tmp;
	}
	XXH3_64bits_reset(g.xxh);
	ret = gen_content(&g);
	if (!ret)
		*hash = XXH3_64bits_digest(g.xxh);
	XXH3_freeState(g.xxh);

out_close_tmp:
	if (close(g.fd) && !ret)
		ret = -errno;
	if (!ret)
		ret = dataset_replace(tmp, path);
	if (ret)
		unlink(tmp);
	return ret;
}

void dataset_size_name(const struct dataset *d, char *out, size_t n)
{
	char one[32];

	if (d->kind != DATASET_TREE && d->kind != DATASET_DIR) {
		format_size(d->size, out, n);
		return;
	}
	if (d->kind == DATASET_DIR) {
		snprintf(out, n, "%" PRIu64 " files", d->files);
		return;
	}
	tree_size_name(d->size, one, sizeof(one));
	snprintf(out, n, "%" PRIu64 " x %s", d->files, one);
}
