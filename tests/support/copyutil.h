/* SPDX-License-Identifier: MIT */
/*
 * copyutil.h - one whole-file copy through a strategy, checked the way the
 * harness checks it: the destination has the source's size and hash.
 * Shared by the strategy matrix tests (the copy in copyutil.c).
 */
#ifndef COPYBENCH_COPYUTIL_H
#define COPYBENCH_COPYUTIL_H

#include "datasets/dataset.h"
#include "strategies/strategy.h"

#include <stddef.h>
#include <stdint.h>

#define COPYUTIL_BUFFER_SIZE (64u << 10)
#define COPYUTIL_QUEUE_DEPTH 8
#define COPYUTIL_THREADS 2

/*
 * Copies src (size bytes, XXH3 hash) to a new dst with s. 0 when the copy
 * returned 0 and dst has the right size and hash; otherwise -errno or
 * -EBADMSG, with what went wrong in why.
 */
int copyutil_copy_verify(const struct copy_strategy *s, const char *src, const char *dst,
			 uint64_t size, uint64_t hash, char *why, size_t n);

#endif
