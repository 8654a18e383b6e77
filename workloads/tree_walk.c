// SPDX-License-Identifier: MIT
/*
 * tree_walk.c - the walker every tree variant shares (tree.h).
 *
 * A folder is read with getdents64 into a 64 KiB buffer (one call returns
 * hundreds of entries; readdir(3) would make the same calls through a
 * DIR of its own), its copy made with mkdirat in the destination folder, and
 * each subfolder opened relative to its parent with openat: no path is ever
 * resolved from the root again, so depth costs nothing per file and paths
 * longer than PATH_MAX work. The type comes from d_type; where the
 * filesystem leaves it DT_UNKNOWN, fstatat says.
 *
 * Per file, tree_copy_one makes openat (source), fstat (its size), openat
 * (destination, O_CREAT | O_EXCL), the strategy's calls, close, close.
 */
#include "tree.h"
#include "lib/units.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TREE_DENTS_BUFFER (64u << 10)

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

int tree_job_fail(const struct tree_job *job, const char *name, int err, const char *what)
{
	char shown[160];

	if (!job->msg || !job->msg_len)
		return err;
	format_name(name, shown, sizeof(shown));
	snprintf(job->msg, job->msg_len, "%s: %s", shown, what ? what : strerror(-err));
	return err;
}

static int walk_keep(struct tree_walk *w, int fd)
{
	if (w->nkept == w->cap_kept) {
		size_t cap = w->cap_kept ? 2 * w->cap_kept : 64;
		int *k = realloc(w->kept, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		w->kept = k;
		w->cap_kept = cap;
	}
	w->kept[w->nkept++] = fd;
	return 0;
}

/* The type of entry name of dfd when getdents64 did not say. */
static unsigned char walk_type(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return DT_UNKNOWN;
	if (S_ISDIR(st.st_mode))
		return DT_DIR;
	if (S_ISREG(st.st_mode))
		return DT_REG;
	return S_ISLNK(st.st_mode) ? DT_LNK : DT_CHR;
}

static int walk_dir(struct tree_walk *w, int src, int dst, tree_file_fn fn, void *arg);

/* Makes and walks subfolder name of (src, dst). */
static int walk_subdir(struct tree_walk *w, int src, int dst, const char *name,
		       tree_file_fn fn, void *arg)
{
	int s, d, err;

	s = openat(src, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s < 0)
		return tree_job_fail(w->job, name, -errno, NULL);
	if (mkdirat(dst, name, 0755)) {
		err = tree_job_fail(w->job, name, -errno, NULL);
		goto out_close_src;
	}
	d = openat(dst, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d < 0) {
		err = tree_job_fail(w->job, name, -errno, NULL);
		goto out_close_src;
	}
	w->dirs++;
	err = walk_dir(w, s, d, fn, arg);
	if (w->flags & TREE_WALK_KEEP_DIRS) {
		int k = walk_keep(w, s);

		if (k) {
			close(d);
			close(s);
			return err ? err : k;
		}
		k = walk_keep(w, d);
		if (k)
			close(d);
		return err ? err : k;
	}
	close(d);
out_close_src:
	close(s);
	return err;
}

static int walk_entry(struct tree_walk *w, int src, int dst, const struct linux_dirent64 *e,
		      tree_file_fn fn, void *arg)
{
	unsigned char type = e->d_type;
	const char *name = e->d_name;

	if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
		return 0;
	if (type == DT_UNKNOWN)
		type = walk_type(src, name);
	if (type == DT_DIR)
		return walk_subdir(w, src, dst, name, fn, arg);
	if (type == DT_REG) {
		struct tree_file f = { .src_dir = src, .dst_dir = dst, .name = name,
				       .ino = e->d_ino };

		w->files++;
		return fn(arg, &f);
	}
	if (type == DT_LNK)
		return tree_job_fail(w->job, name, -ELOOP,
				     "is a symbolic link (trees of regular files and folders only)");
	return tree_job_fail(w->job, name, -EINVAL,
			     "is a special file (trees of regular files and folders only)");
}

/* Every entry of src, made or copied into dst. */
static int walk_dir(struct tree_walk *w, int src, int dst, tree_file_fn fn, void *arg)
{
	char *buf = malloc(TREE_DENTS_BUFFER);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		long got = syscall(SYS_getdents64, src, buf, TREE_DENTS_BUFFER);

		if (got < 0) {
			err = tree_job_fail(w->job, ".", -errno, NULL);
			break;
		}
		if (got == 0)
			break;
		for (long at = 0; at < got && !err;) {
			const struct linux_dirent64 *e = (const void *)(buf + at);

			err = walk_entry(w, src, dst, e, fn, arg);
			at += e->d_reclen;
		}
		if (err)
			break;
	}
	free(buf);
	return err;
}

int tree_walk(struct tree_walk *w, const struct tree_job *job, unsigned flags,
	      tree_file_fn fn, void *arg)
{
	memset(w, 0, sizeof(*w));
	w->job = job;
	w->flags = flags;
	return walk_dir(w, job->src_root, job->dst_root, fn, arg);
}

void tree_walk_end(struct tree_walk *w)
{
	for (size_t i = 0; i < w->nkept; i++)
		close(w->kept[i]);
	free(w->kept);
	w->kept = NULL;
	w->nkept = w->cap_kept = 0;
}

int tree_copy_one(const struct tree_job *job, const struct copy_strategy *s,
		  const struct tree_file *f)
{
	struct copy_job cj;
	struct stat st;
	int src, dst, err;

	src = openat(f->src_dir, f->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (src < 0)
		return tree_job_fail(job, f->name, -errno, NULL);
	if (fstat(src, &st)) {
		err = tree_job_fail(job, f->name, -errno, NULL);
		goto out_close_src;
	}
	if (!S_ISREG(st.st_mode)) {
		err = tree_job_fail(job, f->name, -EINVAL, "is no longer a regular file (the tree changed)");
		goto out_close_src;
	}
	dst = openat(f->dst_dir, f->name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (dst < 0) {
		err = tree_job_fail(job, f->name, -errno, NULL);
		goto out_close_src;
	}
	workload_fill_job(job->c, &cj);
	cj.src_fd = src;
	cj.dst_fd = dst;
	cj.len = (uint64_t)st.st_size;
	cj.facts = job->facts;
	err = s->copy(&cj);
	if (!err && job->c->fsync && fdatasync(dst))
		err = -errno;
	if (err)
		tree_job_fail(job, f->name, err, NULL);
	close(dst);
out_close_src:
	close(src);
	return err;
}
