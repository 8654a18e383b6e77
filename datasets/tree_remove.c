// SPDX-License-Identifier: MIT
/*
 * tree_remove.c - removing a tree of files (treegen.h): one entry at a time
 * (tree_remove, tree_remove_at), or, for a tree of many files, with many
 * removals in flight (tree_remove_wide).
 *
 * Removing a file can wait on the device: on a filesystem mounted with
 * discard and no journal (ext4), each freed block range is trimmed before
 * unlink returns. One remover then waits for each file in turn; many
 * removers keep the device's queue full. So the tree is listed first (one
 * thread: getdents), its files are unlinked by a pool of threads taking
 * chunks of the list through an atomic cursor, and its folders are removed
 * last, deepest first. A folder deeper than PATH_MAX is removed while the
 * tree is listed, one entry at a time. docs/tree.md has the figures.
 */
#include "treegen.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Empties the folder dfd (closed here), counting what it removed. */
static int tree_empty_dir(int dfd, uint64_t *count)
{
	struct dirent *e;
	DIR *dir = fdopendir(dfd);
	int err = 0;

	if (!dir) {
		err = -errno;
		close(dfd);
		return err;
	}
	while ((e = readdir(dir))) {
		int fd;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!unlinkat(dirfd(dir), e->d_name, 0)) {
			++*count;
			continue;
		}
		if (errno != EISDIR && errno != EPERM) {
			err = err ? err : -errno;
			continue;
		}
		fd = openat(dirfd(dir), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			err = err ? err : -errno;
			continue;
		}
		tree_empty_dir(fd, count);
		if (unlinkat(dirfd(dir), e->d_name, AT_REMOVEDIR))
			err = err ? err : -errno;
		else
			++*count;
	}
	closedir(dir);
	return err;
}

int tree_remove(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	uint64_t count = 0;

	if (fd < 0) {
		if (errno == ENOTDIR || errno == ELOOP)
			return unlink(path) ? -errno : 0;
		return errno == ENOENT ? 0 : -errno;
	}
	tree_empty_dir(fd, &count);
	return rmdir(path) ? -errno : 0;
}

int tree_remove_at(int dfd, const char *name, uint64_t *count)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = tree_empty_dir(fd, count);
	if (unlinkat(dfd, name, AT_REMOVEDIR))
		return err ? err : -errno;
	++*count;
	return err;
}

#define REMOVE_CHUNK 32		/* files a thread takes at a time */
#define REMOVE_THREADS_MAX 64

struct remove_file {
	size_t dir;		/* index into dirs */
	size_t name;		/* offset into names */
};

struct remove_list {
	char **dirs;		/* full paths, parents before children */
	size_t ndirs, dirs_cap;
	struct remove_file *files;
	size_t nfiles, files_cap;
	char *names;
	size_t names_len, names_cap;
	atomic_size_t cursor;
	atomic_int err;		/* the first failure, -errno */
	atomic_uint_fast64_t removed;
	void (*note)(void *arg, uint64_t ino);	/* each entry listed, or NULL */
	void *note_arg;
};

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static int add_dir(struct remove_list *l, const char *path)
{
	char *copy;

	if (grow((void **)&l->dirs, &l->dirs_cap, l->ndirs + 1, sizeof(*l->dirs)))
		return -ENOMEM;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	l->dirs[l->ndirs++] = copy;
	return 0;
}

static int add_file(struct remove_list *l, size_t dir, const char *name)
{
	size_t len = strlen(name) + 1;

	if (grow((void **)&l->files, &l->files_cap, l->nfiles + 1, sizeof(*l->files)) ||
	    grow((void **)&l->names, &l->names_cap, l->names_len + len, 1))
		return -ENOMEM;
	memcpy(l->names + l->names_len, name, len);
	l->files[l->nfiles++] = (struct remove_file){ .dir = dir, .name = l->names_len };
	l->names_len += len;
	return 0;
}

/* Is the entry e of the open folder d a folder (asking fstatat when the
 * filesystem does not say: DT_UNKNOWN)? */
static bool entry_is_dir(DIR *d, const struct dirent *e)
{
	struct stat st;

	if (e->d_type != DT_UNKNOWN)
		return e->d_type == DT_DIR;
	return !fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISDIR(st.st_mode);
}

static int remove_deep(struct remove_list *l, DIR *d, const char *name)
{
	uint64_t count = 0;
	int err = tree_remove_at(dirfd(d), name, &count);

	atomic_fetch_add(&l->removed, count);
	return err;
}

/* Lists folder number k: its files, and its folders appended to dirs. */
static int list_dir(struct remove_list *l, size_t k)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(l->dirs[k]);
	int err = 0;

	if (!d)
		return -errno;
	while (!err && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (l->note)
			l->note(l->note_arg, e->d_ino);
		if (!entry_is_dir(d, e)) {
			err = add_file(l, k, e->d_name);
			continue;
		}
		if (snprintf(path, sizeof(path), "%s/%s", l->dirs[k], e->d_name) < (int)sizeof(path))
			err = add_dir(l, path);
		else	/* too deep for a path: removed here, by folder descriptors */
			err = remove_deep(l, d, e->d_name);
	}
	closedir(d);
	return err;
}

static void note_error(struct remove_list *l, int err)
{
	int none = 0;

	atomic_compare_exchange_strong(&l->err, &none, err);
}

/* One remover: chunks of the file list until it is done. */
static void *remove_files(void *arg)
{
	struct remove_list *l = arg;
	size_t open_dir = (size_t)-1;
	int dfd = -1;

	for (;;) {
		size_t from = atomic_fetch_add(&l->cursor, REMOVE_CHUNK);

		if (from >= l->nfiles)
			break;
		for (size_t i = from; i < l->nfiles && i < from + REMOVE_CHUNK; i++) {
			const struct remove_file *f = &l->files[i];

			if (f->dir != open_dir) {
				if (dfd >= 0)
					close(dfd);
				dfd = open(l->dirs[f->dir], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
				open_dir = f->dir;
			}
			if (dfd < 0 || unlinkat(dfd, l->names + f->name, 0))
				note_error(l, -errno);
			else
				atomic_fetch_add(&l->removed, 1);
		}
	}
	if (dfd >= 0)
		close(dfd);
	return NULL;
}

/* The files by up to threads removers (the calling thread is one). */
static void remove_all_files(struct remove_list *l, unsigned threads)
{
	pthread_t tid[REMOVE_THREADS_MAX];
	unsigned started = 0;

	if (threads > REMOVE_THREADS_MAX)
		threads = REMOVE_THREADS_MAX;
	while (started + 1 < threads && (size_t)(started + 1) * REMOVE_CHUNK < l->nfiles &&
	       !pthread_create(&tid[started], NULL, remove_files, l))
		started++;
	remove_files(l);
	for (unsigned k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
}

static void free_list(struct remove_list *l)
{
	for (size_t k = 0; k < l->ndirs; k++)
		free(l->dirs[k]);
	free(l->dirs);
	free(l->files);
	free(l->names);
}

int tree_remove_wide(const char *path, unsigned threads, uint64_t *removed)
{
	return tree_remove_noting(path, threads, removed, NULL, NULL);
}

int tree_remove_noting(const char *path, unsigned threads, uint64_t *removed,
		       void (*note)(void *arg, uint64_t ino), void *arg)
{
	struct remove_list l = { .note = note, .note_arg = arg };
	struct stat st;
	int err;

	if (removed)
		*removed = 0;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (note)
		note(arg, st.st_ino);
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	err = add_dir(&l, path);
	for (size_t k = 0; !err && k < l.ndirs; k++)
		err = list_dir(&l, k);
	if (err)
		goto out_free;
	remove_all_files(&l, threads ? threads : 1);
	for (size_t k = l.ndirs; k-- > 1;) {
		if (rmdir(l.dirs[k]))
			note_error(&l, -errno);
		else
			atomic_fetch_add(&l.removed, 1);
	}
	err = atomic_load(&l.err);
	if (!err && rmdir(path))
		err = -errno;
	if (removed)
		*removed = atomic_load(&l.removed);
out_free:
	free_list(&l);
	return err;
}
