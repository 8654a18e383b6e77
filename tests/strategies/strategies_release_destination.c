// SPDX-License-Identifier: MIT
/*
 * strategies_release_destination.c - when copy() returns, no strategy
 * still holds the destination: closing the harness's descriptor right
 * after is the last close of the file (inotify reports IN_CLOSE_WRITE at
 * once). io_uring's registered files would otherwise be let go of by a
 * kernel worker after the process has gone, during the next run.
 */
#include "strategies/strategy.h"
#include "support/testutil.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/inotify.h>
#include <unistd.h>

#define RELEASE_LEN ((3u << 20) + 13)

/* IN_CLOSE_WRITE events waiting on the inotify descriptor. */
static unsigned close_writes(int in)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	unsigned n = 0;
	ssize_t got;

	while ((got = read(in, buf, sizeof(buf))) > 0)
		for (char *p = buf; p < buf + got;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			n += (ev->mask & IN_CLOSE_WRITE) != 0;
			p += sizeof(*ev) + ev->len;
		}
	return n;
}

static void check_release(const struct copy_strategy *s, const char *src, const char *dst)
{
	struct copy_job job = { .len = RELEASE_LEN };
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	unsigned n;

	job.src_fd = open(src, O_RDONLY | O_CLOEXEC);
	job.dst_fd = open(dst, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(in >= 0 && job.src_fd >= 0 && job.dst_fd >= 0);
	if (in < 0 || job.src_fd < 0 || job.dst_fd < 0)
		goto out_close;
	CHECK(inotify_add_watch(in, dst, IN_CLOSE_WRITE) >= 0);
	CHECK(s->copy(&job) == 0);
	close_writes(in);	/* a strategy's own descriptors (direct) */
	close(job.dst_fd);
	job.dst_fd = -1;
	n = close_writes(in);
	if (n != 1)
		fprintf(stderr, "%s: the destination is still held after copy() returned\n", s->name);
	CHECK_EQ_U64(n, 1);
out_close:
	if (job.dst_fd >= 0)
		close(job.dst_fd);
	if (job.src_fd >= 0)
		close(job.src_fd);
	if (in >= 0)
		close(in);
}

int main(int argc, char **argv)
{
	const char *dir = test_tmpdir();
	char src[512], dst[512], why[200];
	unsigned tried = 0;

	(void)argc;
	snprintf(src, sizeof(src), "%s/src", dir);
	snprintf(dst, sizeof(dst), "%s/dst", dir);
	CHECK(test_pattern_file(src, RELEASE_LEN) == 0);
	for (size_t i = 0; i < strategy_count; i++) {
		const struct copy_strategy *s = strategy_table[i];

		if ((s->flags & STRATEGY_TEST_ONLY) || strategy_probe(s, dir, why, sizeof(why)))
			continue;
		check_release(s, src, dst);
		unlink(dst);
		tried++;
	}
	CHECK(tried > 0);
	test_cleanup_dir();
	return test_report(argv[0]);
}
