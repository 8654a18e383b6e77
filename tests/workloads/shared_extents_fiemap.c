// SPDX-License-Identifier: MIT
/*
 * shared_extents_fiemap.c - the copy workload says when a copy shared
 * extents instead of copying.
 *
 * Always: a file written byte by byte shares no extent (fs_file_shares_extents
 * reports false). With root and mkfs.btrfs or mkfs.xfs (reflink=1): on a
 * small loop filesystem made here, a copy_file_range copy shares extents
 * and a readwrite copy does not, both by fs_file_shares_extents and in
 * bench's summary.csv (shared_extents 1 and 0) and table note. Skipped,
 * with the reason, when no such filesystem can be made and mounted.
 */
#include "lib/csv.h"
#include "lib/fsinfo.h"
#include "support/copyutil.h"
#include "support/testutil.h"
#include "workloads/workload.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

extern const struct copy_strategy strategy_copy_file_range;
extern const struct copy_strategy strategy_readwrite;

struct loopfs {
	const char *name;
	const char *mkfs;	/* %s: the image */
	const char *size;
};

static const struct loopfs loopfs_kinds[] = {
	{ "btrfs", "mkfs.btrfs -q -f '%s'", "160M" },
	{ "xfs", "mkfs.xfs -q -f -m reflink=1 '%s'", "320M" },
};

/* One copy by s in dir; 1 shared, 0 not, -1 on error. */
static int copy_and_look(const struct copy_strategy *s, const char *dir,
			 const char *src, uint64_t size, uint64_t hash)
{
	char dst[1300], why[256];
	bool shared = false;
	int ret;

	if (snprintf(dst, sizeof(dst), "%s/dst-%s", dir, s->name) >= (int)sizeof(dst)) {
		fprintf(stderr, "%s: destination path too long\n", s->name);
		return -1;
	}
	ret = copyutil_copy_verify(s, src, dst, size, hash, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "%s copy failed: %s\n", s->name, why);
		return -1;
	}
	ret = fs_file_shares_extents(dst, &shared);
	unlink(dst);
	return ret ? -1 : shared;
}

static void check_plain_file(const char *tmp)
{
	char path[1200];
	uint64_t hash;
	bool shared = true;

	snprintf(path, sizeof(path), "%s/plain.dat", tmp);
	CHECK(dataset_generate(DATASET_RANDOM, 1 << 20, 7, path, &hash) == 0);
	CHECK(fs_file_shares_extents(path, &shared) == 0 || !shared);
	CHECK(!shared);
	unlink(path);
}

/* Makes and mounts a loop filesystem at mnt; 0, or -1 with why filled. */
static int mount_loopfs(const struct loopfs *fs, const char *img, const char *mnt,
			char *why, size_t n)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "command -v %.*s >/dev/null 2>&1",
		 (int)strcspn(fs->mkfs, " "), fs->mkfs);
	if (system(cmd) != 0) {
		snprintf(why, n, "%.*s not installed", (int)strcspn(fs->mkfs, " "), fs->mkfs);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "truncate -s %s '%s' && ", fs->size, img);
	snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), fs->mkfs, img);
	strncat(cmd, " >/dev/null 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	if (system(cmd) != 0) {
		snprintf(why, n, "mkfs of a %s %s image failed", fs->size, fs->name);
		return -1;
	}
	mkdir(mnt, 0755);
	snprintf(cmd, sizeof(cmd), "mount -o loop -t %s '%s' '%s' >/dev/null 2>&1",
		 fs->name, img, mnt);
	if (system(cmd) != 0) {
		snprintf(why, n, "cannot loop-mount a %s image (no loop devices or no %s in this kernel?)",
			 fs->name, fs->name);
		return -1;
	}
	return 0;
}

static const char *cell(const struct csv_table *t, size_t row, const char *name)
{
	int c = csv_col(t, name);

	return c < 0 ? "" : csv_cell(t, row, (size_t)c);
}

/* bench itself on the mounted filesystem: the column and the table note. */
static void check_bench_rows(const char *bench, const char *mnt, const char *tmp)
{
	struct csv_table t = { 0 };
	char cmd[4096], path[1200], why[256];
	unsigned seen = 0;

	snprintf(cmd, sizeof(cmd),
		 "'%s' --workload copy --strategy copy_file_range,readwrite --size 1M "
		 "--repeat 1 --warmup 0 --syscalls off --no-limits --dir '%s' --out '%s/res' --force "
		 ">'%s/table' 2>'%s/stderr'", bench, mnt, tmp, tmp, tmp);
	CHECK_EQ_U64(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "grep -q 'shared extents' '%s/table'", tmp);
	CHECK_EQ_U64(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/res/summary.csv", tmp);
	CHECK(csv_read(path, &t, why, sizeof(why)) == 0);
	for (size_t r = 0; r < t.nrows; r++) {
		const char *s = cell(&t, r, "strategy");

		if (strcmp(s, "copy_file_range") == 0) {
			CHECK(strcmp(cell(&t, r, "shared_extents"), "1") == 0);
			seen++;
		} else if (strcmp(s, "readwrite") == 0) {
			CHECK(strcmp(cell(&t, r, "shared_extents"), "0") == 0);
			seen++;
		}
	}
	CHECK_EQ_U64(seen, 2);
	csv_free(&t);
}

/* 1 tested, 0 skipped (why filled). */
static int check_loopfs(const struct loopfs *fs, const char *tmp, char *why, size_t n)
{
	char img[1200], mnt[1200], src[1300];
	const char *bench = getenv("BENCH");
	uint64_t hash;

	snprintf(img, sizeof(img), "%s/%s.img", tmp, fs->name);
	snprintf(mnt, sizeof(mnt), "%s/mnt-%s", tmp, fs->name);
	if (mount_loopfs(fs, img, mnt, why, n)) {
		unlink(img);
		return 0;
	}
	snprintf(src, sizeof(src), "%s/src.dat", mnt);
	CHECK(dataset_generate(DATASET_RANDOM, 1 << 20, 7, src, &hash) == 0);
	CHECK_EQ_U64(copy_and_look(&strategy_copy_file_range, mnt, src, 1 << 20, hash), 1);
	CHECK_EQ_U64(copy_and_look(&strategy_readwrite, mnt, src, 1 << 20, hash), 0);
	unlink(src);
	if (bench)
		check_bench_rows(bench, mnt, tmp);
	CHECK(umount2(mnt, 0) == 0);
	rmdir(mnt);
	unlink(img);
	printf("%s: copy_file_range shared extents, readwrite did not\n", fs->name);
	return 1;
}

int main(void)
{
	const char *tmp = test_tmpdir();
	char why[256];
	unsigned tested = 0;

	check_plain_file(tmp);
	if (geteuid() != 0) {
		printf("shared_extents_fiemap: loop filesystems skipped: needs root to mount\n");
	} else {
		for (size_t i = 0; i < sizeof(loopfs_kinds) / sizeof(loopfs_kinds[0]); i++) {
			if (check_loopfs(&loopfs_kinds[i], tmp, why, sizeof(why)))
				tested++;
			else
				printf("shared_extents_fiemap: %s skipped: %s\n", loopfs_kinds[i].name, why);
		}
	}
	test_cleanup_dir();
	if (!tested && !test_failures) {
		printf("skip: no reflink filesystem could be made here; only the plain-file check ran\n");
		return 77;
	}
	return test_report("shared_extents_fiemap");
}
