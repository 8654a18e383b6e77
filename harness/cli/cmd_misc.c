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

static const char list_usage[] = "usage: bench list [--dir DIR]";
static const char list_help[] =
"usage: bench list [--dir DIR]\n"
"\n"
"Lists the strategies, channels and workloads, whether each can run here and\n"
"why not, and the system calls each strategy and channel makes (checked by the\n"
"tests). Strategies are probed with scratch files in DIR (default: .), since\n"
"what the filesystem supports decides some of them.\n"
"\n"
"  --dir DIR    probe on the filesystem of DIR\n"
"  --help       this text\n";

static void list_strategies(const char *dir)
{
	char why[200];

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
}

static void list_channels(void)
{
	char why[200];

	printf("\nchannels (workload transform):\n");
	for (size_t i = 0; i < channel_count; i++) {
		const struct channel *ch = channel_table[i];
		int err = channel_probe(ch, why, sizeof(why));

		printf("  %-16s %-11s %s\n", ch->name, err ? "unavailable" : "available",
		       ch->description);
		if (err)
			printf("  %-16s %-11s unavailable: %s\n", "", "", why);
		printf("  %-16s %-11s syscalls: %s\n", "", "", ch->syscalls);
	}
}

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = ".";
	int opt;

	opterr = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (opt == 'd') {
			dir = optarg;
		} else if (opt == 'h') {
			fputs(list_help, stdout);
			return 0;
		} else {
			fprintf(stderr, "bench list: %s '%s' (%s)\n",
				opt == ':' ? "missing value for" : "unexpected argument",
				argv[optind - 1], list_usage);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bench list: unexpected argument '%s' (%s)\n", argv[optind], list_usage);
		return 2;
	}
	list_strategies(dir);
	list_channels();
	printf("\nworkloads:\n");
	for (size_t i = 0; i < workload_count; i++)
		printf("  %-16s %s\n", workload_table[i]->name, workload_table[i]->description);
	return 0;
}

static const char gen_usage[] = "usage: bench gen KIND SIZE FILE [--seed N] [--force]";
static const char gen_help[] =
"usage: bench gen KIND SIZE FILE [--seed N] [--force]\n"
"\n"
"Writes one dataset file, as bench generates its inputs: the same KIND, SIZE\n"
"and seed give the same bytes on every machine. Prints the file's XXH3 hash.\n"
"\n"
"  KIND         random, text (lines of 10..64 bytes), zero or sparse\n"
"  SIZE         bytes, or with a unit: 4096, 64K, 200M, 1.5G\n"
"  --seed N     the generator's seed (default 1)\n"
"  --force      replace FILE if it is a regular file\n"
"  --help       this text\n";

int cmd_gen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum dataset_kind kind;
	uint64_t size, seed = 1, hash;
	struct stat st;
	bool force = false;
	int opt, err;

	opterr = 0;
	optind = 0;	/* options may follow KIND SIZE FILE, as the README shows */
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (opt == 'f') {
			force = true;
			continue;
		}
		if (opt == 'h') {
			fputs(gen_help, stdout);
			return 0;
		}
		if (opt == 's' && (parse_size(optarg, &seed) || strpbrk(optarg, "KkMmGgTt."))) {
			fprintf(stderr, "bench gen: --seed '%s' is not a whole number (%s)\n", optarg, gen_usage);
			return 2;
		}
		if (opt != 's') {
			fprintf(stderr, "bench gen: %s '%s' (%s)\n",
				opt == ':' ? "missing value for" : "unknown option",
				argv[optind - 1], gen_usage);
			return 2;
		}
	}
	if (argc - optind != 3) {
		fprintf(stderr, "bench gen: %s\n", gen_usage);
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

static const char evict_usage[] = "usage: bench evict FILE...";
static const char evict_help[] =
"usage: bench evict FILE...\n"
"\n"
"Drops each FILE's pages from the page cache (fdatasync, then\n"
"POSIX_FADV_DONTNEED) and checks with mincore that they are gone. Fails for\n"
"a file that stays resident (tmpfs cannot evict). Name a file that starts\n"
"with '-' after --.\n"
"\n"
"  --help       this text\n";

/* Evicts one file; 0, or 1 with the reason on stderr. */
static int evict_one(const char *path)
{
	double pct;
	int err = cache_set(path, CACHE_COLD, false, &pct);

	if (err) {
		fprintf(stderr, "bench evict: %s: %s\n", path, strerror(-err));
		return 1;
	}
	if (!cache_state_ok(CACHE_COLD, pct)) {
		fprintf(stderr, "bench evict: %s: still %.0f%% resident (tmpfs cannot evict)\n",
			path, pct);
		return 1;
	}
	return 0;
}

int cmd_evict(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret = 0;

	opterr = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(evict_help, stdout);
			return 0;
		}
		fprintf(stderr, "bench evict: unknown option '%s' (%s)\n", argv[optind - 1], evict_usage);
		return 2;
	}
	if (optind >= argc) {
		fprintf(stderr, "bench evict: %s\n", evict_usage);
		return 2;
	}
	for (int i = optind; i < argc; i++)
		ret |= evict_one(argv[i]);
	return ret;
}
