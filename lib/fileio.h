/* SPDX-License-Identifier: MIT */
/*
 * fileio.h - the project's small I/O library, used by strategies, channels,
 * workloads, datasets and the harness alike.
 */
#ifndef COPYBENCH_FILEIO_H
#define COPYBENCH_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* All len bytes at off (loops on short writes, retries EINTR). 0 or -errno. */
int full_pwrite(int fd, const void *buf, size_t len, uint64_t off);
/* All len bytes at the descriptor's offset (pipes, sockets). 0 or -errno. */
int full_write(int fd, const void *buf, size_t len);
/* Up to len bytes at off; short only at end of file. Bytes read or -errno. */
ssize_t full_pread(int fd, void *buf, size_t len, uint64_t off);
/* len bytes of fresh zeroed pages (mmap), NULL on failure; page_buf_free(p,
 * len) returns them. The same calls whatever the process did before. */
void *page_buf_alloc(size_t len);
void page_buf_free(void *p, size_t len);
/* A FILE stream on a dup() of fd (the descriptor's offset is shared). NULL
 * with errno set on failure. */
FILE *stream_on_dup(int fd, const char *mode);
/*
 * stream_on_dup positioned at off; fully buffered through buf[0..bufsz) when
 * bufsz > 0, else stdio's default buffering. NULL with errno set on failure.
 */
FILE *stream_at(int fd, const char *mode, uint64_t off, char *buf, size_t bufsz);
/* fclose(f); returns ret, or the error of the final flush when ret is 0. */
int stream_close(FILE *f, int ret);
/*
 * Moves len bytes in calls of at most max_round bytes: step(arg, done, want)
 * moves up to want bytes starting done bytes into the range and returns how
 * many, or -1 with errno set. Retries EINTR; a 0 before len bytes is
 * -ENODATA (the source ended early). 0 or -errno.
 */
typedef ssize_t (*move_round_fn)(const void *arg, uint64_t done, size_t want);
int move_in_rounds(uint64_t len, uint64_t max_round, move_round_fn step, const void *arg);
/*
 * Calls step(arg) until it returns 0 (the end of what it reads): each call
 * moves what it can and returns how many bytes, or -1 with errno set.
 * Retries EINTR; adds what was moved to *moved when moved is not NULL.
 * 0 or -errno.
 */
typedef ssize_t (*move_step_fn)(void *arg);
int move_until_end(move_step_fn step, void *arg, uint64_t *moved);
/* Makes a small scratch file in dir for probes; returns fd, path in out. */
int probe_scratch_file(const char *dir, char *out, size_t n);
/*
 * A scratch file in dir, already unlinked, holding len bytes of data: the fd,
 * or -errno with why (may be NULL) filled.
 */
int probe_scratch_fd(const char *dir, const void *data, size_t len, char *why, size_t n);
/*
 * Does the filesystem under dir take O_DIRECT opens? 0, or -errno (EINVAL:
 * no direct I/O there) with why filled, naming the filesystem.
 */
int probe_direct_io(const char *dir, char *why, size_t n);

#endif
