/* SPDX-License-Identifier: MIT */
/*
 * stream.h - seeded byte streams for generated datasets: the same (seed,
 * kind, block) always gives the same bytes, on any machine.
 */
#ifndef COPYBENCH_STREAM_H
#define COPYBENCH_STREAM_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct xoshiro {
	uint64_t s[4];
};

uint64_t xoshiro_next(struct xoshiro *x);
/* The stream of one block: mixes seed, kind (a dataset kind's number) and
 * block number in turn. */
void xoshiro_seed_block(struct xoshiro *x, uint64_t seed, uint64_t kind, uint64_t block);
/* len bytes of x's stream, little-endian 64-bit words. */
void xoshiro_fill(struct xoshiro *x, char *buf, size_t len);

/* The kind number trees' files are drawn with (DATASET_TREE, checked in
 * dataset.c). */
#define STREAM_KIND_TREE 5u
/* Stream number `stream` (a tree's file number) of seed: len bytes. */
void dataset_fill_stream(uint64_t seed, uint64_t stream, void *buf, size_t len);

/*
 * When set, generation polls *dataset_stop between blocks and gives up with
 * -EINTR (its temporary file removed) once it is non-zero: a signal handler's
 * flag, so an interrupted run stops without a half-written file.
 */
extern volatile sig_atomic_t *dataset_stop;

#endif
