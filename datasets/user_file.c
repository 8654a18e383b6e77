// SPDX-License-Identifier: MIT
/*
 * user_file.c - the user's own file as the source of a run (--source): taken
 * as it is, hashed once before the run so that every copy is verified
 * against it, and checked again after the run. A file that changed while
 * bench used it has no meaningful result: the caller refuses it.
 *
 * The stamp (device, inode, size, mtime, ctime) catches a replaced, resized
 * or written file cheaply; ctime also catches a write whose mtime was set
 * back. The hash, read again at the end, catches the rest.
 */
#include "dataset.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void stamp_of(const struct stat *st, struct dataset_stamp *s)
{
	s->dev = st->st_dev;
	s->ino = st->st_ino;
	s->size = (uint64_t)st->st_size;
	s->mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
	s->ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec;
}

/* The first field in which a and b differ, NULL when none. */
static const char *stamp_diff(const struct dataset_stamp *a, const struct dataset_stamp *b)
{
	if (a->dev != b->dev || a->ino != b->ino)
		return "it was replaced by another file";
	if (a->size != b->size)
		return "its size changed";
	if (a->mtime_ns != b->mtime_ns)
		return "its mtime changed";
	if (a->ctime_ns != b->ctime_ns)
		return "its ctime changed";
	return NULL;
}

/* Hash of fd's whole content, and its stamp before and after reading it. */
static int hash_with_stamps(int fd, uint64_t *hash, struct dataset_stamp *before,
			    struct dataset_stamp *after)
{
	struct stat st;
	int err;

	if (fstat(fd, &st))
		return -errno;
	stamp_of(&st, before);
	err = hash_fd_range(fd, 0, before->size, hash);
	if (err)
		return err;
	if (fstat(fd, &st))
		return -errno;
	stamp_of(&st, after);
	return 0;
}

int dataset_from_file(struct dataset *d, const char *path, char *why, size_t n)
{
	struct dataset_stamp after;
	struct stat st;
	int fd, err;

	memset(d, 0, sizeof(*d));
	d->kind = DATASET_FILE;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return -errno;
	}
	err = fstat(fd, &st) ? -errno : 0;
	if (!err && !S_ISREG(st.st_mode))
		err = -EINVAL;
	else if (!err && st.st_size == 0)
		err = -ENODATA;
	if (!err)
		err = hash_with_stamps(fd, &d->hash, &d->stamp, &after);
	if (!err && stamp_diff(&d->stamp, &after))
		err = -EAGAIN;
	close(fd);
	snprintf(why, n, "%s", err == -EINVAL ? "is not a regular file" :
		 err == -ENODATA ? "is empty" :
		 err == -EAGAIN ? "changed while it was being read" : strerror(-err));
	if (err)
		return err;
	d->size = d->stamp.size;
	if (!realpath(path, d->path))
		snprintf(d->path, sizeof(d->path), "%s", path);
	return 0;
}

int dataset_file_changed(const struct dataset *d, char *what, size_t n)
{
	struct dataset_stamp before, after;
	const char *diff;
	uint64_t hash;
	int fd, err;

	if (d->kind == DATASET_DIR)
		return dataset_dir_changed(d, what, n);
	fd = open(d->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = -errno;
		snprintf(what, n, "it cannot be opened: %s", strerror(errno));
		return err;
	}
	err = hash_with_stamps(fd, &hash, &before, &after);
	close(fd);
	diff = stamp_diff(&d->stamp, &before);
	if (!diff && err) {
		snprintf(what, n, "it cannot be read: %s", strerror(-err));
		return err;
	}
	if (!diff)
		diff = stamp_diff(&before, &after);
	if (!diff && hash != d->hash)
		diff = "its content changed";
	if (!diff)
		return 0;
	snprintf(what, n, "%s", diff);
	return 1;
}

int dataset_from_dir(struct dataset *d, const char *path, char *why, size_t n)
{
	struct tree_sum sum;
	char what[200];
	int err;

	memset(d, 0, sizeof(*d));
	err = tree_hash(path, &sum, what, sizeof(what));
	if (err) {
		snprintf(why, n, "%s", what);
		return err;
	}
	if (!sum.files) {
		snprintf(why, n, "holds no file");
		return -ENODATA;
	}
	if (!realpath(path, d->path)) {
		snprintf(why, n, "%s", strerror(errno));
		return -errno;
	}
	d->kind = DATASET_DIR;
	d->hash = sum.hash;
	d->files = sum.files;
	d->total = sum.bytes;
	d->size = sum.files ? sum.bytes / sum.files : 0;
	return 0;
}

int dataset_dir_changed(const struct dataset *d, char *what, size_t n)
{
	struct tree_sum sum;
	char why[200];
	int err = tree_hash(d->path, &sum, why, sizeof(why));

	if (err) {
		snprintf(what, n, "%s", why);
		return err;
	}
	if (sum.hash == d->hash)
		return 0;
	snprintf(what, n, "its tree hash");
	return 1;
}
