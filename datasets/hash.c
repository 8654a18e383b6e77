// SPDX-License-Identifier: MIT
/*
 * hash.c - XXH3-64 of a byte range of an open file.
 *
 * The harness verifies every output by hashing it and comparing with the
 * dataset's hash, so this reads in large (1 MiB) preads with sequential
 * readahead advice: the check should cost little next to the copy it checks.
 * pread leaves the descriptor's file offset alone.
 *
 * Outputs are verified through a read-only mapping instead (hash_fd_update,
 * hash_fd_mapped): the hash reads the page cache where it is, with no copy
 * into a buffer first, which takes about a third off each verification
 * (docs/costs.md). A mapping needs a file that does not shrink while it is
 * hashed (SIGBUS): bench's own outputs, whose writers have exited.
 */
#include "hash.h"
#include "lib/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#define HASH_BUFFER_SIZE (1u << 20)
#define HASH_MAP_WINDOW (64ull << 20)

/* Reads exactly len bytes at off; -ENODATA if the file ends first. */
static int hash_read_full(int fd, char *buf, size_t len, uint64_t off)
{
	ssize_t got = full_pread(fd, buf, len, off);

	if (got < 0)
		return (int)got;
	return (size_t)got == len ? 0 : -ENODATA;
}

int hash_fd_range(int fd, uint64_t off, uint64_t len, uint64_t *hash)
{
	XXH3_state_t *st;
	char *buf;
	int ret = 0;

	buf = malloc(HASH_BUFFER_SIZE);
	if (!buf)
		return -ENOMEM;
	st = XXH3_createState();
	if (!st) {
		ret = -ENOMEM;
		goto out_free_buf;
	}
	XXH3_64bits_reset(st);
	posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_SEQUENTIAL);

	while (len > 0) {
		size_t want = len < HASH_BUFFER_SIZE ? (size_t)len : HASH_BUFFER_SIZE;

		ret = hash_read_full(fd, buf, want, off);
		if (ret)
			goto out_free_state;
		XXH3_64bits_update(st, buf, want);
		off += want;
		len -= want;
	}
	*hash = XXH3_64bits_digest(st);

out_free_state:
	XXH3_freeState(st);
out_free_buf:
	free(buf);
	return ret;
}

/* Adds [off, off + len) of fd to xs through preads of HASH_BUFFER_SIZE. */
static int hash_update_read(int fd, uint64_t off, uint64_t len, XXH3_state_t *xs)
{
	char *buf = malloc(HASH_BUFFER_SIZE);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (len > 0 && !ret) {
		size_t want = len < HASH_BUFFER_SIZE ? (size_t)len : HASH_BUFFER_SIZE;

		ret = hash_read_full(fd, buf, want, off);
		if (!ret)
			XXH3_64bits_update(xs, buf, want);
		off += want;
		len -= want;
	}
	free(buf);
	return ret;
}

int hash_fd_update(int fd, uint64_t len, struct XXH3_state_s *xs)
{
	for (uint64_t off = 0; off < len; off += HASH_MAP_WINDOW) {
		size_t n = len - off < HASH_MAP_WINDOW ? (size_t)(len - off) : HASH_MAP_WINDOW;
		void *p = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, (off_t)off);

		if (p == MAP_FAILED)	/* not mappable: read the rest */
			return hash_update_read(fd, off, len - off, xs);
		XXH3_64bits_update(xs, p, n);
		munmap(p, n);
	}
	return 0;
}

int hash_fd_mapped(int fd, uint64_t len, uint64_t *hash)
{
	XXH3_state_t *xs = XXH3_createState();
	int ret;

	if (!xs)
		return -ENOMEM;
	XXH3_64bits_reset(xs);
	ret = hash_fd_update(fd, len, xs);
	if (!ret)
		*hash = XXH3_64bits_digest(xs);
	XXH3_freeState(xs);
	return ret;
}
