// SPDX-License-Identifier: MIT
/* fileio.c - the project's small I/O library: full reads and writes that loop
 * on short transfers and retry EINTR, aligned buffers, streams on a duplicate
 * descriptor, and scratch files for run-time probes. */
#include "fileio.h"
#include "fsinfo.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct write_round {
	int fd;
	const char *p;
	const uint64_t *off;	/* NULL: at the file offset */
};

static ssize_t write_round(const void *arg, uint64_t done, size_t want)
{
	const struct write_round *w = arg;

	return w->off ? pwrite(w->fd, w->p + done, want, (off_t)(*w->off + done))
		      : write(w->fd, w->p + done, want);
}

/* Writes all len bytes, at *off when off is given, else at the offset: the
 * loop of move_in_rounds, where a write of nothing is an I/O error. */
static int write_all(int fd, const void *buf, size_t len, const uint64_t *off)
{
	struct write_round w = { .fd = fd, .p = buf, .off = off };
	int ret = move_in_rounds(len, SSIZE_MAX, write_round, &w);

	return ret == -ENODATA ? -EIO : ret;
}

int full_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	return write_all(fd, buf, len, &off);
}

int full_write(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len, NULL);
}

/* Reads up to len bytes; stops early only at end of file. */
ssize_t full_pread(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, p + done, len - done, (off_t)(off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/*
 * Fresh pages straight from mmap, never a block of the heap: whether malloc
 * maps a large block or carves it from a free chunk depends on what the
 * process freed before (a child inherits its parent's free chunks), and so
 * would the buffer's first-touch faults, its offset and the mmap/munmap
 * counts that bench's syscall gate compares exactly. One mmap, one munmap,
 * whatever came before.
 */
void *page_buf_alloc(size_t len)
{
	void *p;

	if (len == 0)
		len = 1;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void page_buf_free(void *p, size_t len)
{
	if (p)
		munmap(p, len ? len : 1);
}

int probe_scratch_file(const char *dir, char *out, size_t n)
{
	int fd;

	snprintf(out, n, "%s/.copybench-probe-XXXXXX", dir ? dir : ".");
	fd = mkstemp(out);
	if (fd < 0)
		return -errno;
	return fd;
}

int probe_scratch_fd(const char *dir, const void *data, size_t len, char *why, size_t n)
{
	char path[PATH_MAX];
	int fd = probe_scratch_file(dir, path, sizeof(path)), err;

	if (fd < 0) {
		if (why && n)
			snprintf(why, n, "cannot create a probe file in %s: %s",
				 dir ? dir : ".", strerror(-fd));
		return fd;
	}
	unlink(path);
	err = len ? full_pwrite(fd, data, len, 0) : 0;
	if (err) {
		if (why && n)
			snprintf(why, n, "cannot write a probe file in %s: %s",
				 dir ? dir : ".", strerror(-err));
		close(fd);
		return err;
	}
	return fd;
}

FILE *stream_on_dup(int fd, const char *mode)
{
	int dupfd = dup(fd);
	FILE *f;

	if (dupfd < 0)
		return NULL;
	f = fdopen(dupfd, mode);
	if (!f) {
		int saved = errno;

		close(dupfd);
		errno = saved;
		return NULL;
	}
	return f;
}

FILE *stream_at(int fd, const char *mode, uint64_t off, char *buf, size_t bufsz)
{
	FILE *f = stream_on_dup(fd, mode);
	int err;

	if (!f)
		return NULL;
	if (bufsz && setvbuf(f, buf, _IOFBF, bufsz)) {
		err = ENOMEM;
		goto out_close;
	}
	if (fseeko(f, (off_t)off, SEEK_SET)) {
		err = errno;
		goto out_close;
	}
	return f;

out_close:
	fclose(f);
	errno = err;
	return NULL;
}

int stream_close(FILE *f, int ret)
{
	errno = 0;
	if (fclose(f) && ret == 0)
		ret = -(errno ? errno : EIO);
	return ret;
}

int move_in_rounds(uint64_t len, uint64_t max_round, move_round_fn step, const void *arg)
{
	uint64_t done = 0;

	while (done < len) {
		uint64_t left = len - done;
		ssize_t n = step(arg, done, (size_t)(left < max_round ? left : max_round));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENODATA;
		done += (uint64_t)n;
	}
	return 0;
}

int move_until_end(move_step_fn step, void *arg, uint64_t *moved)
{
	for (;;) {
		ssize_t n = step(arg);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		if (moved)
			*moved += (uint64_t)n;
	}
}

int probe_direct_io(const char *dir, char *why, size_t n)
{
	char path[PATH_MAX], fs[32];
	int fd, dfd, ret = 0;

	fd = probe_scratch_file(dir, path, sizeof(path));
	if (fd < 0) {
		snprintf(why, n, "cannot create a probe file: %s", strerror(-fd));
		return fd;
	}
	dfd = open(path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (dfd < 0) {
		ret = -errno;
		fs_type_name(dir ? dir : ".", fs, sizeof(fs));
		snprintf(why, n, "filesystem %s does not support O_DIRECT (%s)",
			 fs, strerrorname_np(-ret) ? strerrorname_np(-ret) : "?");
	} else {
		close(dfd);
	}
	close(fd);
	unlink(path);
	return ret;
}
