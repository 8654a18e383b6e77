// SPDX-License-Identifier: MIT
/*
 * hash.c - XXH3-64 of a byte range of an open file.
 *
 * The harness verifies every output by hashing it and comparing with the
 * dataset's hash, so this reads in large (1 MiB) preads with sequential
 * readahead advice: the check should cost little next to the copy it checks.
 * pread leaves the descriptor's file offset alone.
 */
#include "dataset.h"
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <xxhash.h>

#define HASH_BUFFER_SIZE (1u << 20)

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
