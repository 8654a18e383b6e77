// SPDX-License-Identifier: MIT
/*
 * copy_matrix_exact.c - every strategy in the registry that can run here
 * copies every dataset kind at sizes around the page and buffer boundaries
 * byte-exactly. The test walks strategy_table, so a new strategy is covered
 * the moment it is registered.
 */
#include "support/copyutil.h"
#include "support/testutil.h"

#include <stdlib.h>
#include <string.h>

static const uint64_t matrix_sizes[] = {
	0, 1, 4095, 4096, 4097, (1u << 20) + 13,
};

#define MATRIX_NSIZES (sizeof(matrix_sizes) / sizeof(matrix_sizes[0]))
#define MATRIX_NSOURCES (DATASET_KIND_COUNT * MATRIX_NSIZES)

struct matrix_source {
	enum dataset_kind kind;
	uint64_t size;
	uint64_t hash;
	char path[PATH_MAX];
};

static struct matrix_source sources[MATRIX_NSOURCES];

static int make_sources(void)
{
	for (size_t i = 0; i < MATRIX_NSOURCES; i++) {
		struct matrix_source *m = &sources[i];
		int ret;

		m->kind = (enum dataset_kind)(i / MATRIX_NSIZES);
		m->size = matrix_sizes[i % MATRIX_NSIZES];
		snprintf(m->path, sizeof(m->path), "%s/src-%s-%llu.dat",
			 test_tmpdir(), dataset_kind_name(m->kind),
			 (unsigned long long)m->size);
		ret = dataset_generate(m->kind, m->size, 42, m->path, &m->hash);
		if (ret) {
			fprintf(stderr, "cannot generate %s: %s\n", m->path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/* All sources through one strategy; returns the number verified. */
static unsigned run_strategy(const struct copy_strategy *s)
{
	char dst[PATH_MAX], why[256];
	unsigned ok = 0;

	snprintf(dst, sizeof(dst), "%s/dst-%s.dat", test_tmpdir(), s->name);
	for (size_t i = 0; i < MATRIX_NSOURCES; i++) {
		const struct matrix_source *m = &sources[i];
		int ret = copyutil_copy_verify(s, m->path, dst, m->size, m->hash,
					       why, sizeof(why));

		if (ret)
			fprintf(stderr, "FAIL %s %s %llu: %s\n", s->name,
				dataset_kind_name(m->kind),
				(unsigned long long)m->size, why);
		CHECK(ret == 0);
		ok += ret == 0;
		unlink(dst);
	}
	return ok;
}

int main(void)
{
	unsigned ran = 0, skipped = 0, copies = 0, verified = 0;
	char why[256];
	int rc;

	if (make_sources()) {
		test_cleanup_dir();
		return 1;
	}
	for (size_t i = 0; i < strategy_count; i++) {
		const struct copy_strategy *s = strategy_table[i];
		unsigned ok;

		if (s->flags & STRATEGY_TEST_ONLY)
			continue;
		if (strategy_probe(s, test_tmpdir(), why, sizeof(why))) {
			printf("skip %s: %s\n", s->name, why);
			skipped++;
			continue;
		}
		ok = run_strategy(s);
		printf("%s: %u/%zu copies exact\n", s->name, ok, MATRIX_NSOURCES);
		ran++;
		copies += MATRIX_NSOURCES;
		verified += ok;
	}
	printf("%u strategies run, %u skipped; %u of %u copies exact\n",
	       ran, skipped, verified, copies);
	if (!ran) {
		printf("skip: no strategy can run in %s\n", test_tmpdir());
		test_cleanup_dir();
		return 77;
	}
	rc = test_report("copy_matrix_exact");
	test_cleanup_dir();
	return rc;
}
