// SPDX-License-Identifier: MIT
/*
 * tree_hash.c - the tree hash that verifies a copy of a tree, generated
 * (treegen.c) or the user's own (--source DIR, user_file.c), as a whole;
 * the first entry in which two trees differ; and a tree's latest ctime,
 * what tells that a generated tree changed.
 *
 * The tree hash covers every entry below the root sorted by its relative
 * name, so walk order never matters: for each, the name and a NUL, 'd' or
 * 'f', its size and its content's XXH3-64 (both 0 for a folder), as
 * little-endian 64-bit numbers.
 */
#include "hash.h"
#include "tree_internal.h"
#include "lib/fileio.h"
#include "lib/units.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#define TREE_SMALL_FILE (1u << 20)	/* hashed from one read */

/* ------------------------------------------------------------------ */
/* Entries and their hash                                              */
/* ------------------------------------------------------------------ */

int tree_list_add(struct tree_list *l, const char *name, char type,
		  uint64_t size, uint64_t hash)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		struct tree_entry *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].name = strdup(name);
	if (!l->v[l->n].name)
		return -ENOMEM;
	l->v[l->n].type = type;
	l->v[l->n].size = size;
	l->v[l->n].hash = hash;
	l->n++;
	return 0;
}

void tree_list_free(struct tree_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct tree_entry *)a)->name, ((const struct tree_entry *)b)->name);
}

static void put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Sorts l and hashes it into sum. */
int tree_list_sum(struct tree_list *l, struct tree_sum *sum)
{
	XXH3_state_t *xs = XXH3_createState();

	if (!xs)
		return -ENOMEM;
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), entry_cmp);
	XXH3_64bits_reset(xs);
	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; i < l->n; i++) {
		const struct tree_entry *e = &l->v[i];
		unsigned char tail[17];

		tail[0] = (unsigned char)e->type;
		put_le64(tail + 1, e->size);
		put_le64(tail + 9, e->hash);
		XXH3_64bits_update(xs, e->name, strlen(e->name) + 1);
		XXH3_64bits_update(xs, tail, sizeof(tail));
		if (e->type == 'd') {
			sum->dirs++;
		} else {
			sum->files++;
			sum->bytes += e->size;
		}
	}
	sum->hash = XXH3_64bits_digest(xs);
	XXH3_freeState(xs);
	return 0;
}

static int tree_fail(char *why, size_t n, const char *rel, int err, const char *what)
{
	char name[160];

	format_name(rel[0] ? rel : ".", name, sizeof(name));
	if (what)
		snprintf(why, n, "%s: %s", name, what);
	else
		snprintf(why, n, "%s: %s", name, strerror(-err));
	return err;
}

/* ------------------------------------------------------------------ */
/* Walking a tree to list it                                           */
/* ------------------------------------------------------------------ */

struct tree_walk_state {
	struct tree_list *l;
	char *buf;		/* TREE_SMALL_FILE bytes for small files */
	char *why;
	size_t n;
};

/* XXH3 of the regular file fd of size bytes. */
static int tree_hash_file(struct tree_walk_state *w, int fd, uint64_t size, uint64_t *hash)
{
	ssize_t got;

	if (size > TREE_SMALL_FILE)
		return hash_fd_range(fd, 0, size, hash);
	got = full_pread(fd, w->buf, (size_t)size, 0);
	if (got < 0)
		return (int)got;
	if ((uint64_t)got != size)
		return -ENODATA;
	*hash = XXH3_64bits(w->buf, (size_t)size);
	return 0;
}

static int tree_list_dir(struct tree_walk_state *w, int dfd, char *rel, size_t len);

/* One entry `name` of the folder dfd whose relative name is rel[0..len). */
static int tree_list_entry(struct tree_walk_state *w, int dfd, char *rel, size_t len,
			   const char *name)
{
	size_t nl = strlen(name);
	struct stat st;
	uint64_t hash = 0;
	int fd, err;

	if (len + nl + 2 > PATH_MAX * 4)
		return tree_fail(w->why, w->n, rel, -ENAMETOOLONG, NULL);
	if (len)
		rel[len++] = '/';
	memcpy(rel + len, name, nl + 1);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return tree_fail(w->why, w->n, rel, -errno, NULL);
	if (S_ISLNK(st.st_mode))
		return tree_fail(w->why, w->n, rel, -ELOOP, "is a symbolic link (trees of regular files and folders only)");
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return tree_fail(w->why, w->n, rel, -EINVAL, "is a special file (trees of regular files and folders only)");
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
	if (fd < 0)
		return tree_fail(w->why, w->n, rel, -errno, NULL);
	if (S_ISDIR(st.st_mode)) {
		err = tree_list_add(w->l, rel, 'd', 0, 0);
		if (!err)
			err = tree_list_dir(w, fd, rel, len + nl);
		close(fd);
		return err;
	}
	err = tree_hash_file(w, fd, (uint64_t)st.st_size, &hash);
	close(fd);
	if (err)
		return tree_fail(w->why, w->n, rel, err, NULL);
	return tree_list_add(w->l, rel, 'f', (uint64_t)st.st_size, hash);
}

/* Lists the folder dfd (not closed here), relative name rel[0..len). */
static int tree_list_dir(struct tree_walk_state *w, int dfd, char *rel, size_t len)
{
	int fd = dup(dfd), err = 0;
	struct dirent *e;
	DIR *dir;

	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return tree_fail(w->why, w->n, rel, -errno, NULL);
	}
	errno = 0;
	while (!err && (e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		err = tree_list_entry(w, dfd, rel, len, e->d_name);
		rel[len] = '\0';
		errno = 0;
	}
	if (!err && errno)
		err = tree_fail(w->why, w->n, rel, -errno, NULL);
	closedir(dir);
	return err;
}

/* Lists the tree at path into l (unsorted). 0 or -errno with why. */
static int tree_list(const char *path, struct tree_list *l, char *why, size_t n)
{
	struct tree_walk_state w = { .l = l, .why = why, .n = n };
	char *rel = malloc(PATH_MAX * 4 + 2);
	struct stat st;
	int fd, err;

	w.buf = malloc(TREE_SMALL_FILE);
	if (!rel || !w.buf) {
		err = -ENOMEM;
		goto out_free;
	}
	rel[0] = '\0';
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, n, "%s", errno == ENOTDIR || errno == ELOOP ?
			 "is not a folder" : strerror(errno));
		goto out_free;
	}
	err = fstat(fd, &st) ? -errno : 0;
	if (!err)
		err = tree_list_dir(&w, fd, rel, 0);
	close(fd);
out_free:
	free(w.buf);
	free(rel);
	return err;
}

int tree_hash(const char *path, struct tree_sum *sum, char *why, size_t n)
{
	struct tree_list l = { 0 };
	int err = tree_list(path, &l, why, n);

	if (!err)
		err = tree_list_sum(&l, sum);
	tree_list_free(&l);
	return err;
}

static int tree_describe(const struct tree_entry *g, const struct tree_entry *w,
			 char *why, size_t n)
{
	char name[160];

	format_name(g ? g->name : w->name, name, sizeof(name));
	if (!g)
		snprintf(why, n, "%s: missing from the output", name);
	else if (!w)
		snprintf(why, n, "%s: in the output, not in the source", name);
	else if (g->type != w->type)
		snprintf(why, n, "%s: a %s in the output, a %s in the source", name,
			 g->type == 'd' ? "folder" : "file", w->type == 'd' ? "folder" : "file");
	else if (g->size != w->size)
		snprintf(why, n, "%s: %" PRIu64 " bytes, expected %" PRIu64, name, g->size, w->size);
	else
		snprintf(why, n, "%s: content hash %016" PRIx64 " differs from the source's %016" PRIx64,
			 name, g->hash, w->hash);
	return 1;
}

int tree_first_difference(const char *got, const char *want, char *why, size_t n)
{
	struct tree_list a = { 0 }, b = { 0 };
	struct tree_sum s;
	size_t i = 0, j = 0;
	int ret;

	ret = tree_list(got, &a, why, n);
	if (!ret)
		ret = tree_list(want, &b, why, n);
	if (ret || (ret = tree_list_sum(&a, &s)) || (ret = tree_list_sum(&b, &s)))
		goto out_free;
	while (!ret && (i < a.n || j < b.n)) {
		int c = i == a.n ? 1 : j == b.n ? -1 : strcmp(a.v[i].name, b.v[j].name);

		if (c < 0)
			ret = tree_describe(&a.v[i], NULL, why, n);
		else if (c > 0)
			ret = tree_describe(NULL, &b.v[j], why, n);
		else if (a.v[i].type != b.v[j].type || a.v[i].size != b.v[j].size ||
			 a.v[i].hash != b.v[j].hash)
			ret = tree_describe(&a.v[i], &b.v[j], why, n);
		i += c <= 0;
		j += c >= 0;
	}
out_free:
	tree_list_free(&a);
	tree_list_free(&b);
	return ret;
}

/* The latest ctime below the folder dfd (closed here); 0 or -errno. */
static int tree_stamp_dir(int dfd, uint64_t *latest)
{
	DIR *dir = fdopendir(dfd);
	struct dirent *e;
	int err = 0;

	if (!dir) {
		close(dfd);
		return -errno;
	}
	while (!err && (e = readdir(dir))) {
		struct stat st;
		uint64_t ns;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			err = -errno;
			break;
		}
		ns = (uint64_t)st.st_ctim.tv_sec * 1000000000ull + (uint64_t)st.st_ctim.tv_nsec;
		if (ns > *latest)
			*latest = ns;
		if (S_ISDIR(st.st_mode)) {
			int fd = openat(dirfd(dir), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			err = fd < 0 ? -errno : tree_stamp_dir(fd, latest);
		}
	}
	closedir(dir);
	return err;
}

int tree_stamp(const char *path, uint64_t *stamp)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	*stamp = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	*stamp = (uint64_t)st.st_ctim.tv_sec * 1000000000ull + (uint64_t)st.st_ctim.tv_nsec;
	return tree_stamp_dir(fd, stamp);
}
