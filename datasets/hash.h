/* SPDX-License-Identifier: MIT */
/* hash.h - XXH3-64 of files and ranges of them (datasets/hash.c). */
#ifndef COPYBENCH_HASH_H
#define COPYBENCH_HASH_H

#include <stdint.h>

/*
 * XXH3-64 of len bytes of fd at off, read with 1 MiB preads
 * (the file offset is left alone). 0, -ENODATA if the file is shorter, or
 * -errno.
 */
int hash_fd_range(int fd, uint64_t off, uint64_t len, uint64_t *hash);
/*
 * The first len bytes of fd, which holds at least len bytes and must not
 * shrink meanwhile (a mapping past the end faults), through read-only
 * mappings of up to 64 MiB (mapped page cache counts in the resident set:
 * a larger window would make bench's own peak RSS that large): added to an
 * XXH3 state (hash_fd_update) or hashed (hash_fd_mapped). Files that cannot
 * be mapped are read. 0 or -errno.
 */
struct XXH3_state_s;
int hash_fd_update(int fd, uint64_t len, struct XXH3_state_s *xs);
int hash_fd_mapped(int fd, uint64_t len, uint64_t *hash);

#endif
