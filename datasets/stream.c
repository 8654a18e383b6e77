// SPDX-License-Identifier: MIT
/*
 * stream.c - the seeded byte streams generated datasets are made of
 * (stream.h): xoshiro256** seeded by splitmix64 from (seed, kind, block),
 * and the stop flag generation polls. Files (dataset.c) and trees
 * (treegen.c) both draw from here.
 */
#include "stream.h"
#include "lib/rng.h"

#include <string.h>

volatile sig_atomic_t *dataset_stop;

/* ------------------------------------------------------------------ */
/* Random numbers                                                      */
/* ------------------------------------------------------------------ */

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t xoshiro_next(struct xoshiro *x)
{
	uint64_t *s = x->s;
	uint64_t result = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return result;
}

/* The stream of one block: mixes seed, kind and block number in turn. */
void xoshiro_seed_block(struct xoshiro *x, uint64_t seed, uint64_t kind, uint64_t block)
{
	uint64_t m = seed;

	m = splitmix64(&m) ^ kind;
	m = splitmix64(&m) ^ block;
	m = splitmix64(&m);
	for (int i = 0; i < 4; i++)
		x->s[i] = splitmix64(&m);
}

static inline void put_le64(char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (char)(v >> (8 * i));
}

void xoshiro_fill(struct xoshiro *x, char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8)
		put_le64(buf + i, xoshiro_next(x));
	if (i < len) {
		char last[8];

		put_le64(last, xoshiro_next(x));
		memcpy(buf + i, last, len - i);
	}
}

void dataset_fill_stream(uint64_t seed, uint64_t stream, void *buf, size_t len)
{
	struct xoshiro x;

	xoshiro_seed_block(&x, seed, STREAM_KIND_TREE, stream);
	xoshiro_fill(&x, buf, len);
}
