// SPDX-License-Identifier: MIT
/*
 * transform.c - the `transform` workload: remove the middle third of every
 * line, with two processes joined by a channel.
 *
 * A line of L bytes (without its '\n') keeps [0, t) and [2t, L) with
 * t = floor(L / 3), then its '\n'. A last line without '\n' is transformed
 * the same way and gets no '\n' added. Lines of 0..2 bytes are kept whole.
 *
 * Before the clock, setup() makes the channel and forks the writer (it
 * receives bytes and writes the output file); the writer takes its side of
 * the channel and says it is ready through a pipe, and setup() returns only
 * then. Inside the clock, run() is the reader: read(2) into one reused buffer
 * of the case's size, transform into buffers the channel hands out, send;
 * then it closes its side and waits for the writer to finish. So the clock
 * holds both processes' work on the bytes, and neither fork nor channel
 * set-up. Batching:
 *	batch_lines == 1	one send per line
 *	batch_lines == N > 1	a send every N lines (and the rest at the end)
 *	batch_lines == 0	the lines completed by each input buffer, one send
 * A line cut by a buffer boundary is carried over in a growing buffer, so
 * lines longer than the buffer work. Newlines are found 64 bytes at a time
 * with SSE2 compares where the compiler targets SSE2 (every x86-64), else
 * with memchr (tf_lines). At the end the reader closes its side and waits
 * for the writer; the run fails if either failed.
 *
 * prepare() computes the expected output's size and XXH3 with a plain
 * single-process getline(3) transform of the dataset (cached per dataset
 * file and hash, so many cases on one dataset compute it once).
 */
#include "workload.h"
#include "lib/fileio.h"
#include "workloads/channels/channel.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define TF_BATCH_ESTIMATE (64u * 1024u)
/*
 * Input and output buffers keep TF_SLACK spare bytes past their end, so the
 * pieces of a short line (most lines are 10..64 bytes) are moved with two
 * fixed 16-byte copies instead of a call to memcpy with a variable length:
 * the copy may read and write up to 32 bytes past a piece; the extra bytes
 * are overwritten by the next piece or never sent.
 */
#define TF_SLACK 64u
#define TF_SHORT 32u
#define TF_CACHE_SLOTS 16

struct tf_reader {
	const struct channel *ch;
	struct channel_conn *conn;
	unsigned batch_lines;
	size_t est;		/* size of a batch's first reservation */
	char *out;		/* current batch, from the channel */
	size_t out_len, out_cap;
	unsigned lines;		/* lines in the current batch */
	char *pend;		/* a line cut by the end of a read */
	size_t pend_len, pend_cap;
};

struct tf_state {
	char *inbuf;
	size_t insize;
	struct channel_conn conn;
	pid_t writer;		/* 0: not started or already reaped */
	struct sigaction old_pipe;
};

static int tf_start_writer(struct run_ctx *ctx, struct tf_state *st);

/* ---- expected output ---------------------------------------------------- */

struct tf_expect {
	char path[PATH_MAX];
	uint64_t src_hash;
	uint64_t hash;
	uint64_t size;
};

static struct tf_expect tf_cache[TF_CACHE_SLOTS];
static size_t tf_cache_next;

/* The reference: one line at a time, no batching, no second process. */
static int tf_reference(const char *path, uint64_t *hash, uint64_t *size)
{
	XXH3_state_t *xs = XXH3_createState();
	FILE *in = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int err = 0;

	if (!xs || !in) {
		err = xs ? -errno : -ENOMEM;
		goto out_free;
	}
	XXH3_64bits_reset(xs);
	*size = 0;
	while ((len = getline(&line, &cap, in)) > 0) {
		size_t nl = line[len - 1] == '\n', l = (size_t)len - nl, t = l / 3;

		XXH3_64bits_update(xs, line, t);
		XXH3_64bits_update(xs, line + 2 * t, l - 2 * t);
		XXH3_64bits_update(xs, "\n", nl);
		*size += l - t + nl;
	}
	if (ferror(in))
		err = -EIO;
	*hash = XXH3_64bits_digest(xs);
out_free:
	free(line);
	if (in)
		fclose(in);
	XXH3_freeState(xs);
	return err;
}

static int transform_prepare(struct case_spec *c, char *why, size_t n)
{
	struct tf_expect *e;
	int err;

	if (!c->channel) {
		snprintf(why, n, "the transform workload needs a channel");
		return -EINVAL;
	}
	for (size_t i = 0; i < TF_CACHE_SLOTS; i++) {
		e = &tf_cache[i];
		if (e->path[0] && e->src_hash == c->ds->hash &&
		    strcmp(e->path, c->ds->path) == 0)
			goto out_found;
	}
	e = &tf_cache[tf_cache_next++ % TF_CACHE_SLOTS];
	e->path[0] = '\0';
	err = tf_reference(c->ds->path, &e->hash, &e->size);
	if (err) {
		snprintf(why, n, "reference transform of %s: %s", c->ds->path, strerror(-err));
		return err;
	}
	snprintf(e->path, sizeof(e->path), "%s", c->ds->path);
	e->src_hash = c->ds->hash;
out_found:
	c->expect_hash = e->hash;
	c->expect_size = e->size;
	return 0;
}

/* ---- setup and teardown (untimed) --------------------------------------- */

static int transform_setup(struct run_ctx *ctx)
{
	size_t insize = ctx->c->buffer ? ctx->c->buffer : CHANNEL_DEFAULT_BUFFER;
	struct tf_state *st = calloc(1, sizeof(*st));
	int err;

	if (!st)
		return -ENOMEM;
	st->insize = insize;
	st->inbuf = page_buf_alloc(insize + TF_SLACK);
	if (!st->inbuf) {
		err = -ENOMEM;
		goto out_free_state;
	}
	ctx->src_fd = open(ctx->src, O_RDONLY | O_CLOEXEC);
	if (ctx->src_fd < 0) {
		err = -errno;
		snprintf(ctx->msg, sizeof(ctx->msg), "open %s: %s", ctx->src, strerror(errno));
		goto out_free_buf;
	}
	ctx->dst_fd = open(ctx->dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (ctx->dst_fd < 0) {
		err = -errno;
		snprintf(ctx->msg, sizeof(ctx->msg), "create %s: %s", ctx->dst, strerror(errno));
		goto out_close_src;
	}
	ctx->state = st;
	err = tf_start_writer(ctx, st);
	if (err)
		goto out_close_dst;
	return 0;

out_close_dst:
	ctx->state = NULL;
	close(ctx->dst_fd);
out_close_src:
	close(ctx->src_fd);
out_free_buf:
	page_buf_free(st->inbuf, st->insize + TF_SLACK);
out_free_state:
	free(st);
	return err;
}

static void transform_teardown(struct run_ctx *ctx)
{
	struct tf_state *st = ctx->state;

	if (st && st->writer) {	/* run() did not reap it: stop it */
		st->conn.ch->close(&st->conn);
		kill(st->writer, SIGKILL);
		waitpid(st->writer, NULL, 0);
	}
	if (st) {
		sigaction(SIGPIPE, &st->old_pipe, NULL);
		page_buf_free(st->inbuf, st->insize + TF_SLACK);
	}
	free(st);
	ctx->state = NULL;
	close(ctx->dst_fd);
	close(ctx->src_fd);
}

/* ---- the reader (the calling process) ------------------------------------ */

static int tf_flush(struct tf_reader *r)
{
	int err = 0;

	if (r->out_len)
		err = r->ch->send(r->conn, r->out_len);
	r->out = NULL;
	r->out_len = 0;
	r->out_cap = 0;
	r->lines = 0;
	return err;
}

/* Room for k more bytes in the current batch. */
static int tf_make_room(struct tf_reader *r, size_t k)
{
	size_t need = r->out_len + k, cap;

	if (r->out && need <= r->out_cap)
		return 0;
	cap = r->out ? 2 * r->out_cap : r->est;
	if (cap < need)
		cap = need;
	r->out = r->ch->reserve(r->conn, cap, r->out_len);
	if (!r->out)
		return -ENOMEM;
	r->out_cap = cap;
	return 0;
}

/* Copies n bytes; a short piece as two fixed 16-byte moves (see TF_SLACK). */
static inline void tf_copy(char *dst, const char *src, size_t n)
{
	if (n <= TF_SHORT) {
		memcpy(dst, src, 16);
		memcpy(dst + 16, src + 16, 16);
	} else {
		memcpy(dst, src, n);
	}
}

/* Appends the transform of one line (len bytes, without '\n') to the batch. */
static int tf_emit(struct tf_reader *r, const char *line, size_t len, int nl)
{
	size_t t = len / 3, k = len - t + (nl ? 1 : 0);
	char *o;
	int err;

	err = tf_make_room(r, k + TF_SLACK);
	if (err)
		return err;
	o = r->out + r->out_len;
	tf_copy(o, line, t);
	tf_copy(o + t, line + 2 * t, len - 2 * t);
	if (nl)
		o[len - t] = '\n';
	r->out_len += k;
	if (r->batch_lines && ++r->lines >= r->batch_lines)
		return tf_flush(r);
	return 0;
}

static int tf_pend_append(struct tf_reader *r, const char *p, size_t n)
{
	if (r->pend_len + n + TF_SLACK > r->pend_cap) {
		size_t cap = 2 * (r->pend_len + n) + TF_SLACK;
		char *q = realloc(r->pend, cap);

		if (!q)
			return -ENOMEM;
		r->pend = q;
		r->pend_cap = cap;
	}
	memcpy(r->pend + r->pend_len, p, n);
	r->pend_len += n;
	return 0;
}

#ifdef __SSE2__
/* Bit i is set when s[i] is '\n', for the 64 bytes at s. */
static inline uint64_t tf_newlines64(const char *s)
{
	const __m128i nl = _mm_set1_epi8('\n');
	uint64_t m = 0;

	for (int k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + 16 * k));

		m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) << (16 * k);
	}
	return m;
}
#endif

/*
 * Emits the complete lines of [*pp, end), none of them pending; leaves *pp
 * after the last '\n'. With SSE2, 64 bytes are searched at a time and their
 * newlines taken from the bit mask (a memchr call per line of 10..64 bytes
 * costs more than the line's transform; docs/transform.md); the last bytes,
 * and other CPUs, use memchr.
 */
static int tf_lines(struct tf_reader *r, const char **pp, const char *end)
{
	const char *p = *pp, *s = p, *nl;
	int err = 0;

#ifdef __SSE2__
	for (; !err && end - s >= 64; s += 64) {
		for (uint64_t m = tf_newlines64(s); m && !err; m &= m - 1) {
			nl = s + __builtin_ctzll(m);
			err = tf_emit(r, p, (size_t)(nl - p), 1);
			p = nl + 1;
		}
	}
#endif
	while (!err && s < end && (nl = memchr(s, '\n', (size_t)(end - s)))) {
		err = tf_emit(r, p, (size_t)(nl - p), 1);
		p = s = nl + 1;
	}
	*pp = p;
	return err;
}

/* Transforms the complete lines of one input buffer; keeps the cut tail. */
static int tf_process(struct tf_reader *r, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n, *nl = NULL;
	int err = 0;

	if (r->pend_len && (nl = memchr(p, '\n', n))) {
		err = tf_pend_append(r, p, (size_t)(nl - p));
		if (!err)
			err = tf_emit(r, r->pend, r->pend_len, 1);
		r->pend_len = 0;
		p = nl + 1;
	}
	if (!err && !r->pend_len)
		err = tf_lines(r, &p, end);
	if (!err && p < end)
		err = tf_pend_append(r, p, (size_t)(end - p));
	if (!err && r->batch_lines == 0)
		err = tf_flush(r);
	return err;
}

static int tf_read_all(struct run_ctx *ctx, struct tf_reader *r)
{
	struct tf_state *st = ctx->state;
	int err;

	for (;;) {
		ssize_t got = read(ctx->src_fd, st->inbuf, st->insize);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		if (got == 0)
			break;
		err = tf_process(r, st->inbuf, (size_t)got);
		if (err)
			return err;
	}
	if (r->pend_len) {
		err = tf_emit(r, r->pend, r->pend_len, 0);
		if (err)
			return err;
	}
	return tf_flush(r);
}

static int tf_reader_run(struct run_ctx *ctx, struct channel_conn *conn)
{
	const struct case_spec *c = ctx->c;
	struct tf_reader r = {
		.ch = c->channel,
		.conn = conn,
		.batch_lines = c->batch_lines,
	};
	int err;

	if (c->batch_lines == 0)
		r.est = ((struct tf_state *)ctx->state)->insize;
	else if (c->batch_lines > 1)
		r.est = TF_BATCH_ESTIMATE;
	err = tf_read_all(ctx, &r);
	free(r.pend);
	return err;
}

/* ---- the writer (a child process) ----------------------------------------- */

/* The writer: its side of the channel, "ready" on the pipe, then the bytes. */
static void __attribute__((noreturn))
tf_writer_main(struct run_ctx *ctx, struct channel_conn *conn, int ready_fd)
{
	const struct channel *ch = ctx->c->channel;
	int err, cerr;

	err = ch->side(conn, CHANNEL_RECEIVER);
	if (full_write(ready_fd, &err, sizeof(err)))
		_exit(EIO);
	close(ready_fd);
	if (!err)
		err = ch->drain(conn, ctx->dst_fd);
	if (!err && ctx->c->fsync && fdatasync(ctx->dst_fd))
		err = -errno;
	cerr = ch->close(conn);
	if (!err)
		err = cerr;
	if (err && (-err & 0xff) == 0)
		err = -EIO;
	_exit(-err & 0xff);
}

static int tf_wait_writer(struct run_ctx *ctx, pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(ctx->msg, sizeof(ctx->msg), "waitpid: %s", strerror(errno));
			return -errno;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status)) {
		snprintf(ctx->msg, sizeof(ctx->msg), "writer process: %s",
			 strerror(WEXITSTATUS(status)));
		return -WEXITSTATUS(status);
	}
	snprintf(ctx->msg, sizeof(ctx->msg), "writer process killed by signal %d",
		 WTERMSIG(status));
	return -ECHILD;
}

/* Reads the writer's "ready" (the result of taking its side of the channel). */
static int tf_await_ready(struct run_ctx *ctx, struct tf_state *st, int fd)
{
	ssize_t got;
	int err = 0;

	do {
		got = read(fd, &err, sizeof(err));
	} while (got < 0 && errno == EINTR);
	if (got == (ssize_t)sizeof(err) && !err)
		return 0;
	if (got != (ssize_t)sizeof(err)) {	/* it died before it was ready */
		err = tf_wait_writer(ctx, st->writer);
		st->writer = 0;
		return err ? err : -EIO;
	}
	snprintf(ctx->msg, sizeof(ctx->msg), "writer process: channel %s: %s",
		 st->conn.ch->name, strerror(-err));
	return err;
}

/*
 * Before the clock: the channel, the writer process, the reader's side.
 * Returns once the writer holds its side; 0, or -errno with ctx->msg and
 * nothing left running.
 */
static int tf_start_writer(struct run_ctx *ctx, struct tf_state *st)
{
	const struct channel *ch = ctx->c->channel;
	struct sigaction ignore = { .sa_handler = SIG_IGN };
	int ready[2], err;

	st->conn = (struct channel_conn){ .ch = ch, .buffer = ctx->c->buffer, .fd = { -1, -1 } };
	if (pipe2(ready, O_CLOEXEC))
		return -errno;
	err = ch->open(&st->conn);
	if (err) {
		snprintf(ctx->msg, sizeof(ctx->msg), "channel %s: %s", ch->name, strerror(-err));
		goto out_close_ready;
	}
	sigaction(SIGPIPE, &ignore, &st->old_pipe);	/* a dead writer is -EPIPE */
	st->writer = fork();
	if (st->writer < 0) {
		err = -errno;
		st->writer = 0;
		snprintf(ctx->msg, sizeof(ctx->msg), "fork: %s", strerror(-err));
		goto out_close_channel;
	}
	if (st->writer == 0) {
		close(ready[0]);
		tf_writer_main(ctx, &st->conn, ready[1]);
	}
	close(ready[1]);
	ready[1] = -1;
	err = ch->side(&st->conn, CHANNEL_SENDER);
	if (!err)
		err = tf_await_ready(ctx, st, ready[0]);
	if (!err)
		goto out_close_ready;
	if (st->writer) {
		kill(st->writer, SIGKILL);
		waitpid(st->writer, NULL, 0);
		st->writer = 0;
	}
out_close_channel:
	ch->close(&st->conn);
	sigaction(SIGPIPE, &st->old_pipe, NULL);
out_close_ready:
	close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
	return err;
}

/* Inside the clock: read, transform and send everything; wait for the writer. */
static int transform_run(struct run_ctx *ctx)
{
	struct tf_state *st = ctx->state;
	int err, cerr, werr;

	err = tf_reader_run(ctx, &st->conn);
	cerr = st->conn.ch->close(&st->conn);
	werr = tf_wait_writer(ctx, st->writer);
	st->writer = 0;
	if (werr)
		err = werr;	/* the writer's failure explains the reader's */
	else if (err)
		snprintf(ctx->msg, sizeof(ctx->msg), "reader process: %s", strerror(-err));
	else if (cerr) {
		err = cerr;
		snprintf(ctx->msg, sizeof(ctx->msg), "closing the channel: %s", strerror(-err));
	}
	return err;
}

/* ---- verification (parent) ------------------------------------------------ */

const struct workload workload_transform = {
	.name = "transform",
	.description = "remove the middle third of every line; reader and writer processes joined by a channel",
	.flags = WORKLOAD_CHANNELS | WORKLOAD_MULTI_CPU,
	.default_dataset = DATASET_TEXT,
	.prepare = transform_prepare,
	.setup = transform_setup,
	.run = transform_run,
	.teardown = transform_teardown,
	.verify = workload_verify_output_hash,
	.inspect = workload_inspect_output_file,
	.remove_output = workload_remove_output_file,
};
