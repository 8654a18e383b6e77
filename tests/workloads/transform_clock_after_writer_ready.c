// SPDX-License-Identifier: MIT
/*
 * transform_clock_after_writer_ready - the transform workload starts its
 * writer process and channel before the clock: setup() returns only once
 * the writer holds its side of the channel, and run() (the timed part) does
 * not wait for the writer to start.
 *
 * The channel here is the pipe channel with a writer that takes
 * WRITER_START_MS to take its side and then leaves a marker file. When
 * setup() returns the marker must be there (the writer was ready before
 * the clock could start), and setup() took at least WRITER_START_MS; no
 * time is judged against an upper bound, so a busy machine cannot fail it.
 */
#include "lib/fileio.h"
#include "support/testutil.h"
#include "workloads/channels/channel.h"
#include "workloads/workload.h"

#include <fcntl.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WRITER_START_MS 500
#define TEXT_BYTES (64u * 1024u)

extern const struct workload workload_transform;
extern const struct channel channel_pipe;

static char marker[PATH_MAX];

/* The pipe channel whose receiving side is slow to start and says when it
 * has started (a file: it runs in the writer's process). */
static int slow_side(struct channel_conn *conn, enum channel_side side)
{
	int err, fd;

	if (side != CHANNEL_RECEIVER)
		return channel_pipe.side(conn, side);
	usleep(WRITER_START_MS * 1000);
	err = channel_pipe.side(conn, side);
	fd = open(marker, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	return err;
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
	bool ready_at_setup;

	slow.side = slow_side;
	snprintf(src, sizeof(src), "%s/text", test_tmpdir());
	snprintf(dst, sizeof(dst), "%s/out", test_tmpdir());
	snprintf(marker, sizeof(marker), "%s/writer-ready", test_tmpdir());
	snprintf(ds.path, sizeof(ds.path), "%s", src);
	CHECK_EQ_U64(write_text(src), 0);
	CHECK_EQ_U64(workload_transform.prepare(&c, why, sizeof(why)), 0);
	t0 = now_ms();
	CHECK_EQ_U64(workload_transform.setup(&ctx), 0);
	t1 = now_ms();
	ready_at_setup = access(marker, F_OK) == 0;
	CHECK_EQ_U64(workload_transform.run(&ctx), 0);
	t2 = now_ms();
	workload_transform.teardown(&ctx);
	CHECK_EQ_U64(workload_transform.verify(&c, dst, why, sizeof(why)), 0);
	CHECK(ready_at_setup);
	CHECK(t1 - t0 >= WRITER_START_MS);
	fprintf(stderr, "setup %.1f ms, run %.1f ms\n", t1 - t0, t2 - t1);
	workload_transform.remove_output(&c, dst);
	unlink(marker);
	test_cleanup_dir();
	return test_report("transform_clock_after_writer_ready");
}
