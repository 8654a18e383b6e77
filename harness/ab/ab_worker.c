// SPDX-License-Identifier: MIT
/*
 * ab_worker.c - the worker of bench ab (`bench copy --serve`): a process
 * of one build that makes copies with its own strategy code on request,
 * so that the orchestrator (another build, maybe) can time each copy from
 * outside without a process start inside the clock. The protocol is in
 * ab.h. The copy runs in this process: a strategy that dies ends the
 * worker, which the orchestrator reports as a failed case.
 *
 * COPYBENCH_TEST_WORKER_TIME_SCALE=F multiplies the figure this worker
 * reports by F: a worker that lies about its time, for the test that the
 * orchestrator notices.
 */
#include "ab.h"
#include "child/disturb.h"
#include "strategies/strategy.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define AB_WORKER_FIELDS 4

static uint64_t worker_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Splits line at tabs into at most AB_WORKER_FIELDS fields; their count. */
static size_t worker_split(char *line, char **f)
{
	size_t n = 0;

	line[strcspn(line, "\n")] = '\0';
	while (n < AB_WORKER_FIELDS) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

/* The figure reported: the worker's own, or a lie when the test asks. */
static uint64_t worker_figure(uint64_t ns)
{
	const char *env = getenv("COPYBENCH_TEST_WORKER_TIME_SCALE");
	double f = env ? strtod(env, NULL) : 1;

	return f > 0 ? (uint64_t)((double)ns * f) : ns;
}

static void worker_probe(char **f, size_t n, FILE *out)
{
	const struct copy_strategy *s = n == 3 ? strategy_find(f[1]) : NULL;
	char why[200];

	if (n != 3)
		fprintf(out, "error\tbad request\n");
	else if (!s)
		fprintf(out, "unavailable\tunknown strategy %s in this build\n", f[1]);
	else if (strategy_probe(s, f[2], why, sizeof(why)))
		fprintf(out, "unavailable\t%s\n", why);
	else
		fprintf(out, "ok\n");
}

/* The strategy's copy of src_fd into dst_fd, timed around it alone: the
 * wall time and the thread's wait for a CPU inside it into t[0], t[1]. */
static int worker_timed_copy(const struct copy_strategy *s, int src_fd, int dst_fd,
			     uint64_t len, uint64_t t[2])
{
	struct copy_job job = { .src_fd = src_fd, .dst_fd = dst_fd, .len = len,
				.buffer_size = strategy_default_buffer(s) };
	uint64_t w0 = 0, w1 = 0, run, t0;
	bool waits = disturb_thread_times(&w0, &run);
	int err;

	t0 = worker_now_ns();
	err = s->copy(&job);
	t[0] = worker_now_ns() - t0;
	waits = waits && disturb_thread_times(&w1, &run);
	t[1] = waits && w1 >= w0 ? w1 - w0 : 0;
	return err;
}

/* A copy request: DST created, the copy, both files closed, then the
 * reply, so that the output is complete when the orchestrator reads it. */
static void worker_copy(char **f, size_t n, FILE *out)
{
	const struct copy_strategy *s = n == 4 ? strategy_find(f[1]) : NULL;
	uint64_t t[2] = { 0, 0 };
	int src_fd, dst_fd, err;
	struct stat st;

	if (!s) {
		fprintf(out, "error\t%s\n", n == 4 ? "unknown strategy in this build" : "bad request");
		return;
	}
	src_fd = open(f[2], O_RDONLY | O_CLOEXEC);
	if (src_fd < 0) {
		err = -errno;
		goto out_reply;
	}
	err = fstat(src_fd, &st) ? -errno : 0;
	if (err)
		goto out_close_src;
	dst_fd = open(f[3], O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (dst_fd < 0) {
		err = -errno;
		goto out_close_src;
	}
	err = worker_timed_copy(s, src_fd, dst_fd, (uint64_t)st.st_size, t);
	close(dst_fd);
out_close_src:
	close(src_fd);
out_reply:
	if (err)
		fprintf(out, "error\t%s: %s\n", s->name, strerror(-err));
	else
		fprintf(out, "ok\t%llu\t%llu\n", (unsigned long long)worker_figure(t[0]),
			(unsigned long long)t[1]);
}

int ab_worker_serve(FILE *in, FILE *out)
{
	char line[3 * PATH_MAX + 64], *f[AB_WORKER_FIELDS];

	while (fgets(line, sizeof(line), in)) {
		size_t n = worker_split(line, f);

		if (!strcmp(f[0], "probe"))
			worker_probe(f, n, out);
		else if (!strcmp(f[0], "copy"))
			worker_copy(f, n, out);
		else
			fprintf(out, "error\tunknown request %s\n", f[0]);
		fflush(out);
	}
	return 0;
}
