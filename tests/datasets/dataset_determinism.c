// SPDX-License-Identifier: MIT
/*
 * dataset_determinism.c - datasets are reproducible from (kind, size, seed),
 * their recorded hash is the hash of what is on disk, each kind has the
 * documented shape, and dataset_ensure reuses a file only while its manifest
 * matches.
 */
#include "datasets/dataset.h"
#include "support/testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

static const uint64_t test_sizes[] = {
	0, 1, 4096, (1u << 20) + 13, 3u << 20,
};

/* The whole file, malloc'ed (at least 1 byte); *len set. NULL on error. */
static char *read_whole(const char *path, uint64_t *len)
{
	struct stat st;
	char *buf = NULL;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st))
		goto out_close;
	buf = malloc((size_t)st.st_size + 1);
	if (buf && read(fd, buf, (size_t)st.st_size) != st.st_size) {
		free(buf);
		buf = NULL;
	}
	*len = (uint64_t)st.st_size;
out_close:
	close(fd);
	return buf;
}

static void path_in_tmp(char *out, size_t n, const char *name)
{
	snprintf(out, n, "%s/%s", test_tmpdir(), name);
}

static void check_text(const char *buf, uint64_t len)
{
	uint64_t start = 0, bad_len = 0, bad_char = 0;

	if (len == 0)
		return;
	CHECK(buf[len - 1] == '\n');
	for (uint64_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c != '\n' && (c < 0x20 || c > 0x7e))
			bad_char++;
		if (c != '\n')
			continue;
		/* Only a final line may be short, and only a short file's. */
		if (i + 1 - start > 64 || (i + 1 - start < 10 && i + 1 != len))
			bad_len++;
		start = i + 1;
	}
	CHECK_EQ_U64(bad_char, 0);
	CHECK_EQ_U64(bad_len, 0);
}

static void check_zero(const char *path, const char *buf, uint64_t len)
{
	struct stat st;
	uint64_t nonzero = 0;

	for (uint64_t i = 0; i < len; i++)
		nonzero += buf[i] != 0;
	CHECK_EQ_U64(nonzero, 0);
	/* Written zeros take space; holes would not. */
	CHECK(stat(path, &st) == 0);
	CHECK((uint64_t)st.st_blocks * 512 >= len);
}

/* Islands at the start of every stride hold data; the rest reads as zero. */
static void check_sparse_layout(const char *buf, uint64_t len)
{
	uint64_t stray = 0, empty_islands = 0;

	for (uint64_t s = 0; s < len; s += DATASET_SPARSE_STRIDE) {
		uint64_t island = len - s < DATASET_SPARSE_ISLAND ?
				  len - s : DATASET_SPARSE_ISLAND;
		uint64_t end = len - s < DATASET_SPARSE_STRIDE ?
			       len : s + DATASET_SPARSE_STRIDE;
		uint64_t nonzero = 0;

		for (uint64_t i = s; i < s + island; i++)
			nonzero += buf[i] != 0;
		if (island >= 64 && nonzero < island / 2)
			empty_islands++;
		for (uint64_t i = s + island; i < end; i++)
			stray += buf[i] != 0;
	}
	CHECK_EQ_U64(empty_islands, 0);
	CHECK_EQ_U64(stray, 0);
}

/* When the file system reports holes, they are exactly the gaps. */
static void check_sparse_holes(const char *path, uint64_t len)
{
	int fd = open(path, O_RDONLY);
	off_t hole, data;

	CHECK(fd >= 0);
	if (fd < 0 || len < 3u << 20)
		goto out_close;
	hole = lseek(fd, 0, SEEK_HOLE);
	if (hole < 0 || (uint64_t)hole >= len) {
		printf("note: no holes reported by this file system for %s\n", path);
		goto out_close;
	}
	CHECK_EQ_U64(hole, DATASET_SPARSE_ISLAND);
	data = lseek(fd, hole, SEEK_DATA);
	CHECK_EQ_U64(data, DATASET_SPARSE_STRIDE);
	hole = lseek(fd, 2 * DATASET_SPARSE_STRIDE, SEEK_HOLE);
	CHECK_EQ_U64(hole, 2 * DATASET_SPARSE_STRIDE + DATASET_SPARSE_ISLAND);
out_close:
	if (fd >= 0)
		close(fd);
}

static void check_shape(enum dataset_kind kind, const char *path,
			const char *buf, uint64_t len)
{
	if (kind == DATASET_TEXT)
		check_text(buf, len);
	else if (kind == DATASET_ZERO)
		check_zero(path, buf, len);
	else if (kind == DATASET_SPARSE) {
		check_sparse_layout(buf, len);
		check_sparse_holes(path, len);
	}
}

static void check_hash_matches_file(const char *path, const char *buf,
				    uint64_t len, uint64_t hash)
{
	uint64_t on_disk = 0;
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(hash_fd_range(fd, 0, len, &on_disk) == 0);
	CHECK_EQ_U64(on_disk, hash);
	CHECK_EQ_U64(XXH3_64bits(buf, (size_t)len), hash);
	CHECK(hash_fd_range(fd, 0, len + 1, &on_disk) == -ENODATA);
	close(fd);
}

static void test_kind_size(enum dataset_kind kind, uint64_t size)
{
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
	uint64_t ha = 1, hb = 2, hc = 3, la = 0, lb = 0, lc = 0;
	char *ba, *bb, *bc;

	path_in_tmp(a, sizeof(a), "a.dat");
	path_in_tmp(b, sizeof(b), "b.dat");
	path_in_tmp(c, sizeof(c), "c.dat");
	CHECK(dataset_generate(kind, size, 7, a, &ha) == 0);
	CHECK(dataset_generate(kind, size, 7, b, &hb) == 0);
	CHECK(dataset_generate(kind, size, 8, c, &hc) == 0);
	ba = read_whole(a, &la);
	bb = read_whole(b, &lb);
	bc = read_whole(c, &lc);
	CHECK(ba && bb && bc);
	if (!ba || !bb || !bc)
		goto out_free;

	CHECK_EQ_U64(la, size);
	CHECK_EQ_U64(lb, size);
	CHECK_EQ_U64(ha, hb);
	CHECK(memcmp(ba, bb, (size_t)size) == 0);
	if (kind != DATASET_ZERO && size >= 4096) {
		CHECK(ha != hc);
		CHECK(memcmp(ba, bc, (size_t)size) != 0);
	}
	check_hash_matches_file(a, ba, la, ha);
	check_shape(kind, a, ba, la);
out_free:
	free(ba);
	free(bb);
	free(bc);
	unlink(a);
	unlink(b);
	unlink(c);
}

/*
 * Whole 1 MiB blocks do not depend on the file size, so a large file (made by
 * the worker threads) starts with the bytes of a small one (made inline).
 */
static void test_threads_same_bytes(enum dataset_kind kind)
{
	char small[PATH_MAX], large[PATH_MAX];
	uint64_t hs = 0, hl = 0, ls = 0, ll = 0;
	char *bs, *bl;

	path_in_tmp(small, sizeof(small), "small.dat");
	path_in_tmp(large, sizeof(large), "large.dat");
	CHECK(dataset_generate(kind, 3u << 20, 11, small, &hs) == 0);
	CHECK(dataset_generate(kind, (19u << 20) + 7, 11, large, &hl) == 0);
	bs = read_whole(small, &ls);
	bl = read_whole(large, &ll);
	CHECK(bs && bl);
	if (bs && bl) {
		CHECK_EQ_U64(ll, (19u << 20) + 7);
		CHECK(memcmp(bs, bl, 3u << 20) == 0);
		check_hash_matches_file(large, bl, ll, hl);
		check_shape(kind, large, bl, ll);
	}
	free(bs);
	free(bl);
	unlink(small);
	unlink(large);
}

/* Overwriting an existing file also works, and leaves no temporary behind. */
static void test_overwrite_leaves_one_file(void)
{
	char path[PATH_MAX];
	uint64_t h1 = 0, h2 = 0, len = 0;
	struct dirent *e;
	int entries = 0;
	DIR *dir;

	path_in_tmp(path, sizeof(path), "over.dat");
	CHECK(dataset_generate(DATASET_RANDOM, 5u << 20, 1, path, &h1) == 0);
	CHECK(dataset_generate(DATASET_TEXT, 4096, 1, path, &h2) == 0);
	free(read_whole(path, &len));
	CHECK_EQ_U64(len, 4096);
	dir = opendir(test_tmpdir());
	CHECK(dir != NULL);
	while (dir && (e = readdir(dir)))
		entries += e->d_name[0] != '.';
	if (dir)
		closedir(dir);
	CHECK_EQ_U64(entries, 1);
	unlink(path);
}

static void test_names(void)
{
	struct dataset d = { .kind = DATASET_RANDOM, .size = 209715200, .seed = 1 };
	enum dataset_kind k;
	char name[128];

	dataset_file_name(&d, name, sizeof(name));
	CHECK(strcmp(name, "random-209715200-s1.dat") == 0);
	for (int i = 0; i < DATASET_KIND_COUNT; i++) {
		CHECK(dataset_kind_parse(dataset_kind_name((enum dataset_kind)i), &k) == 0);
		CHECK_EQ_U64(k, i);
	}
	CHECK(dataset_kind_parse("bogus", &k) == -EINVAL);
	CHECK(strcmp(dataset_kind_name(DATASET_SPARSE), "sparse") == 0);
}

static uint64_t mtime_ns(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return 0;
	return (uint64_t)st.st_mtim.tv_sec * 1000000000ull +
	       (uint64_t)st.st_mtim.tv_nsec;
}

/* Replaces the value of `key=` in the manifest with `value`. */
static int edit_manifest(const char *path, const char *key, const char *value)
{
	char buf[1024], out[1100];
	size_t klen = strlen(key);
	char *line, *save = NULL;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	out[0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t used = strlen(out);

		if (strncmp(line, key, klen) == 0 && line[klen] == '=')
			snprintf(out + used, sizeof(out) - used, "%s=%s\n", key, value);
		else
			snprintf(out + used, sizeof(out) - used, "%s\n", line);
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(out, f);
	return fclose(f);
}

static void test_ensure(void)
{
	struct dataset d = { .kind = DATASET_TEXT, .size = (2u << 20) + 5, .seed = 3 };
	char dir[PATH_MAX], manifest[PATH_MAX + 16], mbuf[512];
	uint64_t first_hash, t0, len = 0;
	int reused = -1;
	char *text;

	path_in_tmp(dir, sizeof(dir), "cache/nested");
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 0);
	first_hash = d.hash;
	t0 = mtime_ns(d.path);
	CHECK(strstr(d.path, "/cache/nested/text-2097157-s3.dat") != NULL);
	snprintf(manifest, sizeof(manifest), "%s.manifest", d.path);

	text = read_whole(manifest, &len);
	CHECK(text != NULL);
	if (text) {
		snprintf(mbuf, sizeof(mbuf),
			 "kind=text\nsize=2097157\nseed=3\nxxh3=%016llx\nmtime_ns=%llu\nformat=1\n",
			 (unsigned long long)first_hash, (unsigned long long)t0);
		CHECK(len == strlen(mbuf) && memcmp(text, mbuf, len) == 0);
		free(text);
	}

	d.hash = 0;
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 1);
	CHECK_EQ_U64(d.hash, first_hash);
	CHECK_EQ_U64(mtime_ns(d.path), t0);

	/* An altered manifest no longer vouches for the file. */
	CHECK(edit_manifest(manifest, "mtime_ns", "12345") == 0);
	d.hash = 0;
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 0);
	CHECK_EQ_U64(d.hash, first_hash);
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 1);

	CHECK(edit_manifest(manifest, "format", "2") == 0);
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 0);

	/* A file changed behind the manifest's back is regenerated too. */
	CHECK(truncate(d.path, 100) == 0);
	CHECK(dataset_ensure(&d, dir, &reused) == 0);
	CHECK_EQ_U64(reused, 0);
	CHECK_EQ_U64(d.hash, first_hash);

	/* Without a manifest the file may be anyone's: refused, kept as is. */
	unlink(manifest);
	t0 = mtime_ns(d.path);
	CHECK(dataset_ensure(&d, dir, &reused) == -EEXIST);
	CHECK_EQ_U64(mtime_ns(d.path), t0);
}

int main(void)
{
	int rc;

	for (int k = 0; k < DATASET_KIND_COUNT; k++)
		for (size_t i = 0; i < sizeof(test_sizes) / sizeof(test_sizes[0]); i++)
			test_kind_size((enum dataset_kind)k, test_sizes[i]);
	for (int k = 0; k < DATASET_KIND_COUNT; k++)
		test_threads_same_bytes((enum dataset_kind)k);
	test_overwrite_leaves_one_file();
	test_names();
	test_ensure();
	rc = test_report("dataset_determinism");
	test_cleanup_dir();
	return rc;
}
