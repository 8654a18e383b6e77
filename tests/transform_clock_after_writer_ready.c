// SPDX-License-Identifier: MIT
/*
 * transform_clock_after_writer_ready - the transform workload starts its
 * writer process and channel before the clock: setup() returns only once
 * the writer holds its side of the channel, and run() (the timed part) does
 * not wait for the writer to start.
 *
 * The channel here is the pipe channel with a writer that takes
 * WRITER_START_MS to take its side. setup() must take at least that long,
 * and run() on 64 KiB of text must take far less (it takes about a
 * millisecond; the margin is 100x).
 */
#include "testutil.h"
#include "workload.h"
#include "channel.h"
#include "fileio.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WRITER_START_MS 500
#define TEXT_BYTES (64u * 1024u)

extern const struct workload workload_transform;
extern const struct channel channel_pipe;

/* The pipe channel whose receiving side is slow to start. */
static int slow_side(struct channel_conn *conn, enum channel_side side)
{
	if (side == CHANNEL_RECEIVER)
		usleep(WRITER_START_MS * 1000);
	return channel_pipe.side(conn, side);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int write_text(const char *path)
{
	char line[] = "the quick brown fox jumps over the lazy dog\n";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), err = 0;

	for (size_t n = 0; fd >= 0 && !err && n < TEXT_BYTES; n += sizeof(line) - 1)
		err = full_write(fd, line, sizeof(line) - 1);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -1 : err;
}

int main(void)
{
	struct channel slow = channel_pipe;
	struct dataset ds = { .kind = DATASET_TEXT };
	struct case_spec c = {
		.wl = &workload_transform, .variant = "pipe", .channel = &slow, .ds = &ds,
		.buffer = 64u << 10,
	};
	char src[PATH_MAX], dst[PATH_MAX], why[256];
	struct run_ctx ctx = { .c = &c, .src = src, .dst = dst };
	double t0, t1, t2;

	slow.side = slow_side;
	snprintf(src, sizeof(src), "%s/text", test_tmpdir());
	snprintf(dst, sizeof(dst), "%s/out", test_tmpdir());
	snprintf(ds.path, sizeof(ds.path), "%s", src);
	CHECK_EQ_U64(write_text(src), 0);
	CHECK_EQ_U64(workload_transform.prepare(&c, why, sizeof(why)), 0);
	t0 = now_ms();
	CHECK_EQ_U64(workload_transform.setup(&ctx), 0);
	t1 = now_ms();
	CHECK_EQ_U64(workload_transform.run(&ctx), 0);
	t2 = now_ms();
	workload_transform.teardown(&ctx);
	CHECK_EQ_U64(workload_transform.verify(&c, dst, why, sizeof(why)), 0);
	CHECK(t1 - t0 >= WRITER_START_MS);
	CHECK(t2 - t1 < WRITER_START_MS / 2);
	fprintf(stderr, "setup %.1f ms, run %.1f ms\n", t1 - t0, t2 - t1);
	workload_transform.remove_output(&c, dst);
	test_cleanup_dir();
	return test_report("transform_clock_after_writer_ready");
}
