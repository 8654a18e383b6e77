/* SPDX-License-Identifier: MIT */
/*
 * registry.h - the one lookup of the plug-in tables (strategies, workloads,
 * channels): each registry hands over how to read the name of its entry i.
 */
#ifndef COPYBENCH_REGISTRY_H
#define COPYBENCH_REGISTRY_H

#include <stddef.h>
#include <sys/types.h>

/* The index of the entry called name among n, read through name_at; -1 when
 * there is none. */
ssize_t registry_find(size_t n, const char *(*name_at)(size_t i), const char *name);

#endif
