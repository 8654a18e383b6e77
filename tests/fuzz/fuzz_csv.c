// SPDX-License-Identifier: MIT
/*
 * fuzz_csv.c - libFuzzer target for csv_parse(), the reader behind
 * `bench check` and `bench plot`.
 *
 * Any bytes: csv_parse() returns 0 with a rectangular table whose every
 * cell can be read, or -EINVAL with a reason; it must not crash or leak.
 */
#include "lib/csv.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csv_table t;
	char why[256] = "";
	size_t total = 0;
	int err;

	err = csv_parse((const char *)data, size, &t, why, sizeof(why));
	if (err) {
		if (err != -EINVAL && err != -ENOMEM)
			abort();
		if (err == -EINVAL && !why[0])
			abort();
		return 0;
	}
	if (t.ncols == 0)
		abort();
	for (size_t c = 0; c < t.ncols; c++)
		total += strlen(t.header[c]);
	for (size_t r = 0; r < t.nrows; r++)
		for (size_t c = 0; c < t.ncols; c++)
			total += strlen(csv_cell(&t, r, c));
	if (total > size)
		abort();
	if (t.ncols && csv_col(&t, t.header[0]) < 0)
		abort();
	csv_free(&t);
	return 0;
}
