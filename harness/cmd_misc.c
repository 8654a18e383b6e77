// SPDX-License-Identifier: MIT
/* cmd_misc.c - `bench list`, `bench gen`, `bench evict`. */
#include "cache.h"
#include "channel.h"
#include "commands.h"
#include "dataset.h"
#include "interrupt.h"
#include "strategy.h"
#include "units.h"
#include "workload.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cmd_list(int argc, char **argv)
{
	const char *dir = argc > 2 && strcmp(argv[1], "--dir") == 0 ? argv[2] : ".";
	char why[200];

	if (argc > 1 && strcmp(argv[1], "--dir") != 0) {
		fprintf(stderr, "bench list: unexpected argument '%s' (usage: bench list [--dir DIR])\n", argv[1]);
		return 2;
	}
	printf("strategies (workloads copy and split; probed on files in %s):\n", dir);
	for (size_t i = 0; i < strategy_count; i++) {
		const struct copy_strategy *s = strategy_table[i];

		if (s->flags & STRATEGY_TEST_ONLY)
			continue;
		printf("  %-16s %-11s %s\n", s->name,
		       strategy_probe(s, dir, why, sizeof(why)) ? "unavailable" : "available",
		       s->description);
		if (why[0])
			printf("  %-16s %-11s unavailable: %s\n", "", "", why);
		printf("  %-16s %-11s syscalls: %s\n", "", "", s->syscalls);
	}
	printf("\nchannels (workload transform):\n");
	for (size_t i = 0; i < channel_count; i++) {
		const struct channel *ch = channel_table[i];
		int err = channel_probe(ch, why, sizeof(why));

		printf("  %-16s %-11s %s\n", ch->name, err ? "unavailable" : "available",
		       ch->description);
		if (err)
			printf("  %-16s %-11s unavailable: %s\n", "", "", why);
	}
	printf("\nworkloads:\n");
	for (size_t i = 0; i < workload_count; i++)
		printf("  %-16s %s\n", workload_table[i]->name, workload_table[i]->description);
	return 0;
}

int cmd_gen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	enum dataset_kind kind;
	uint64_t size, seed = 1, hash;
	struct stat st;
	bool force = false;
	int opt, err;

	opterr = 0;
	optind = 0;	/* options may follow KIND SIZE FILE, as the README shows */
	while ((opt = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		if (opt == 'f') {
			force = true;
			continue;
		}
		if (opt != 's' || parse_size(optarg, &seed) || strpbrk(optarg, "KkMmGgTt.")) {
			fprintf(stderr, "bench gen: bad option '%s' (usage: bench gen KIND SIZE FILE [--seed N] [--force])\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind != 3) {
		fprintf(stderr, "bench gen: usage: bench gen KIND SIZE FILE [--seed N]\n");
		return 2;
	}
	if (dataset_kind_parse(argv[optind], &kind)) {
		fprintf(stderr, "bench gen: unknown dataset kind '%s' (known: random, text, zero, sparse)\n",
			argv[optind]);
		return 2;
	}
	if (parse_size(argv[optind + 1], &size)) {
		fprintf(stderr, "bench gen: '%s' is not a size (examples: 4096, 64K, 200M, 1.5G)\n",
			argv[optind + 1]);
		return 2;
	}
	if (lstat(argv[optind + 2], &st) == 0 && (!force || !S_ISREG(st.st_mode))) {
		fprintf(stderr, "bench gen: %s exists; %s\n", argv[optind + 2],
			S_ISREG(st.st_mode) ? "use --force to replace it" : "it is not a regular file");
		return 1;
	}
	err = dataset_generate(kind, size, seed, argv[optind + 2], &hash);
	if (err) {
		fprintf(stderr, "bench gen: %s: %s\n", argv[optind + 2], strerror(-err));
		return 1;
	}
	printf("%s %s %llu bytes seed %llu xxh3 %016llx\n", argv[optind + 2],
	       dataset_kind_name(kind), (unsigned long long)size,
	       (unsigned long long)seed, (unsigned long long)hash);
	return 0;
}

int cmd_evict(int argc, char **argv)
{
	double pct;
	int ret = 0;

	if (argc < 2) {
		fprintf(stderr, "bench evict: usage: bench evict FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		int err = cache_set(argv[i], CACHE_COLD, false, &pct);

		if (err) {
			fprintf(stderr, "bench evict: %s: %s\n", argv[i], strerror(-err));
			ret = 1;
		} else if (!cache_state_ok(CACHE_COLD, pct)) {
			fprintf(stderr, "bench evict: %s: still %.0f%% resident (tmpfs cannot evict)\n",
				argv[i], pct);
			ret = 1;
		}
	}
	return ret;
}
