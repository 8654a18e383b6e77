/* SPDX-License-Identifier: MIT */
/*
 * dataset_internal.h - the pieces of generated datasets shared by its files:
 *   dataset.c        a dataset's content generated into a file
 *   dataset_cache.c  the manifests that let later runs reuse it, and its
 *                    removal
 */
#ifndef COPYBENCH_DATASET_INTERNAL_H
#define COPYBENCH_DATASET_INTERNAL_H

#include "dataset.h"

#include <stddef.h>

/* Creates "<path>.tmp-XXXXXX" beside path; returns the fd or -errno. */
int dataset_open_temp(const char *path, char *tmp, size_t n);

#endif
