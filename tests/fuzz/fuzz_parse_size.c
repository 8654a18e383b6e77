// SPDX-License-Identifier: MIT
/*
 * fuzz_parse_size.c - libFuzzer target for parse_size() and format_size().
 *
 * Any string: parse_size() must not crash, and whatever it accepts must
 * print back (format_size) to a string that parses to the same number.
 */
#include "lib/units.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), back[64];
	uint64_t v, again;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (parse_size(s, &v) == 0) {
		format_size(v, back, sizeof(back));
		if (parse_size(back, &again) != 0 || again != v)
			abort();
	}
	free(s);
	return 0;
}
