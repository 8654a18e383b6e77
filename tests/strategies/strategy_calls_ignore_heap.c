// SPDX-License-Identifier: MIT
/*
 * strategy_calls_ignore_heap.c - a strategy's system calls do not depend on
 * what the process freed before it ran.
 *
 * bench forks each timed child from a parent whose heap holds whatever its
 * own work left free. A buffer taken from malloc would be carved from such a
 * free chunk when one is large enough and mapped otherwise, so the syscall
 * gate saw readwrite's `mmap=1 munmap=1` in one run and `0 0` in the next.
 * Here each strategy copies once from a parent with a tidy heap and once
 * from a parent that left an 8 MiB chunk free, with counting on: the counts
 * must be equal, and the buffers' mmap and munmap calls exact.
 */
#include "strategies/strategy.h"
#include "support/testutil.h"
#include "syscount/syscount.h"

#include <fcntl.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define HEAP_SRC_LEN	(1u << 20)
#define HEAP_BUFFER	(128u << 10)
#define HEAP_FREE_CHUNK	(8u << 20)

static uint64_t by(const struct syscount *c, const char *name)
{
	for (size_t i = 0; i < syscount_nnames; i++)
		if (!strcmp(syscount_names[i], name))
			return c->by_name[i];
	fprintf(stderr, "no syscall name %s\n", name);
	exit(1);
}

/* The child: one counted copy, its counts back through the pipe. */
static void copy_child(struct syscount_session *s, const struct copy_strategy *st,
		       const char *src, const char *dst, int pipe_wr)
{
	struct copy_job job = { .len = HEAP_SRC_LEN, .buffer_size = HEAP_BUFFER };
	struct syscount c;
	int ok;

	job.src_fd = open(src, O_RDONLY | O_CLOEXEC);
	job.dst_fd = open(dst, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ok = job.src_fd >= 0 && job.dst_fd >= 0 && syscount_begin(s) == 0;
	ok &= st->copy(&job) == 0;
	ok &= syscount_end(s, &c) == 0;
	if (write(pipe_wr, &c, sizeof(c)) != (ssize_t)sizeof(c))
		ok = 0;
	_exit(ok ? 0 : 1);
}

static void counted_copy(struct syscount_session *s, const struct copy_strategy *st,
			 const char *src, const char *dst, struct syscount *out)
{
	struct syscount from_child, from_parent;
	int fds[2], status = 0;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	CHECK(pipe(fds) == 0);
	pid = syscount_fork(s);
	if (pid == 0) {
		close(fds[0]);
		copy_child(s, st, src, dst, fds[1]);
	}
	close(fds[1]);
	memset(&from_parent, 0, sizeof(from_parent));
	CHECK(pid > 0);
	CHECK(syscount_wait(s, pid, &status, NULL, &from_parent) == 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(read(fds[0], &from_child, sizeof(from_child)) == (ssize_t)sizeof(from_child));
	close(fds[0]);
	*out = syscount_counted_by_parent(s) ? from_parent : from_child;
	CHECK(out->valid);
}

/* Leaves a large chunk free inside the heap (the threshold fixed high so
 * malloc takes it from the heap); returns the guard that keeps it from
 * being trimmed, for the caller to free at the end. */
static void *leave_free_chunk(void)
{
	void *big, *guard;

	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	big = malloc(HEAP_FREE_CHUNK);
	guard = malloc(64);
	CHECK(big && guard);
	if (big)
		memset(big, 1, HEAP_FREE_CHUNK);
	free(big);
	return guard;
}

static void check_strategy(struct syscount_session *s, const char *name, uint64_t maps,
			   const char *src, const char *dst, bool heap_dirty)
{
	const struct copy_strategy *st = strategy_find(name);
	struct syscount c;

	CHECK(st != NULL);
	if (!st)
		return;
	counted_copy(s, st, src, dst, &c);
	printf("%s, heap %s: total %llu, mmap %llu, munmap %llu\n", name,
	       heap_dirty ? "with a free chunk" : "as it was", (unsigned long long)c.total,
	       (unsigned long long)by(&c, "mmap"), (unsigned long long)by(&c, "munmap"));
	CHECK_EQ_U64(by(&c, "mmap"), maps);
	CHECK_EQ_U64(by(&c, "munmap"), maps);
	CHECK_EQ_U64(by(&c, "brk"), 0);
}

int main(int argc, char **argv)
{
	struct syscount_session *s;
	char src[4096], dst[4096], why[160];
	void *guard = NULL;

	(void)argc;
	unsetenv("COPYBENCH_SYSCOUNT");
	if (syscount_session_new(&s, SYSCOUNT_AUTO, why, sizeof(why)) ||
	    !strcmp(syscount_session_method(s), "n/a")) {
		printf("skipped: no syscall counter here (%s)\n", why);
		return 77;
	}
	snprintf(src, sizeof(src), "%s/src", test_tmpdir());
	snprintf(dst, sizeof(dst), "%s/dst", test_tmpdir());
	CHECK(test_pattern_file(src, HEAP_SRC_LEN) == 0);
	for (int dirty = 0; dirty <= 1; dirty++) {
		if (dirty)
			guard = leave_free_chunk();
		check_strategy(s, "readwrite", 1, src, dst, dirty);
		check_strategy(s, "stdio", 3, src, dst, dirty);
	}
	free(guard);
	syscount_session_free(s);
	test_cleanup_dir();
	return test_report(argv[0]);
}
