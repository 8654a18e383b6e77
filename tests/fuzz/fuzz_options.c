// SPDX-License-Identifier: MIT
/*
 * fuzz_options.c - libFuzzer target for options_parse(), the command line of
 * `bench [options]`.
 *
 * The input is split at newlines into argv[1..]. The parser must return 0,
 * 2 (usage error) or -1 (help/version), and on 0 every list it filled must
 * be within its bounds; argv is left as it was given. Run it with -close_fd_mask=3: the parser's own
 * messages are not the point.
 */
#include "options/options.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *given = malloc(size + 1), *argv[FUZZ_MAX_ARGS + 2], *save = NULL;
	struct bench_opts o;
	int argc = 1, ret;

	if (!buf || !given) {
		free(buf);
		free(given);
		return 0;
	}
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "bench";
	for (char *a = strtok_r(buf, "\n", &save); a && argc <= FUZZ_MAX_ARGS;
	     a = strtok_r(NULL, "\n", &save))
		argv[argc++] = a;
	argv[argc] = NULL;
	memcpy(given, buf, size + 1);
	ret = options_parse(argc, argv, &o);
	if (memcmp(given, buf, size + 1))
		abort();
	if (ret != 0 && ret != 2 && ret != -1)
		abort();
	if (ret == 0 && (o.sizes.n > OPT_LIST_MAX || o.buffers.n > OPT_LIST_MAX ||
			 o.strategies.n > OPT_LIST_MAX || o.batch_lines.n > OPT_LIST_MAX))
		abort();
	for (size_t i = 0; ret == 0 && i < o.sizes.n; i++)
		if (o.sizes.v[i] == 0)
			abort();
	cli_release();
	free(given);
	free(buf);
	return 0;
}
