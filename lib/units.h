/* SPDX-License-Identifier: MIT */
/* units.h - sizes as people write them: 4K, 200M, 1G, 1.5G, 4096. */
#ifndef COPYBENCH_UNITS_H
#define COPYBENCH_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parses a byte size. Accepts a plain integer or a decimal number followed by
 * K, M, G or T (binary: KiB, MiB, GiB, TiB; an optional trailing "iB"/"B" is
 * accepted, case-insensitive). Rejects empty strings, signs, junk, overflow
 * and fractions of a byte. 0 on success, -EINVAL or -ERANGE otherwise.
 */
int parse_size(const char *s, uint64_t *out);
/* "200M", "1.5G", "4097" - the shortest exact form, for names and tables. */
void format_size(uint64_t bytes, char *out, size_t n);
/* A file name fit for one line of a message: bytes outside printable
 * ASCII, and the backslash, as \xNN; cut to fit out[0..n). */
void format_name(const char *name, char *out, size_t n);

#endif
