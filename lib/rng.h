/* SPDX-License-Identifier: MIT */
/* rng.h - splitmix64: a tiny, fast, well-mixed 64-bit sequence from a seed
 * (Steele, Lea and Flood, "Fast splittable pseudorandom number generators"),
 * for dataset bytes and for the order of cases in a round. Not for secrets. */
#ifndef COPYBENCH_RNG_H
#define COPYBENCH_RNG_H

#include <stdint.h>

static inline uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
