// SPDX-License-Identifier: MIT
/*
 * fuzz_meta.c - libFuzzer target for history_meta_parse(), the reader of a
 * results folder's meta.json behind `bench history add` and `bench history
 * check` (SQLite's JSON functions).
 *
 * Any bytes: 0 with every value a string that ends inside its field, or
 * -EINVAL (not a JSON object) with every field empty, or -ENOMEM; it must
 * not crash or leak.
 */
#include "history/history_internal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ENDS_INSIDE(field) (strnlen(field, sizeof(field)) < sizeof(field))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct history_meta m;
	int err = history_meta_parse((const char *)data, size, &m);

	if (err && err != -EINVAL && err != -ENOMEM)
		abort();
	if (!ENDS_INSIDE(m.build_type) || !ENDS_INSIDE(m.started) || !ENDS_INSIDE(m.commit))
		abort();
	if (err == -EINVAL && (m.build_type[0] || m.started[0] || m.commit[0] || m.version))
		abort();
	return 0;
}
