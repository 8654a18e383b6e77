// SPDX-License-Identifier: MIT
/*
 * cache.c - set and check the page-cache state of the source before a run.
 *
 * warm: read the file once through a large buffer (so every page is
 * resident), then check with mincore.
 * cold: fdatasync, then POSIX_FADV_DONTNEED, which drops clean pages without
 * root; optionally /proc/sys/vm/drop_caches when root and asked. Then check.
 *
 * A folder (a tree workload's source) is every regular file below it: each
 * one read or evicted as above, and the figure is the resident share of all
 * their pages together, counted file by file with mincore (cold: one
 * syncfs first, then POSIX_FADV_DONTNEED a file). Cold with
 * drop_caches (root) drops folders and inodes too ("3"); without it only
 * the files' pages go, and the folders and inodes stay cached.
 */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_READ_CHUNK (4u << 20)
#define CACHE_MAP_WINDOW (1ull << 30)

static bool is_folder(int fd);
static int tree_cache(int fd, enum cache_mode mode, bool set, bool use_drop_caches,
		      struct cache_report *rep);

const char *cache_mode_name(enum cache_mode m)
{
	return m == CACHE_COLD ? "cold" : "warm";
}

bool cache_state_ok(enum cache_mode mode, double resident_pct)
{
	return mode == CACHE_WARM ? resident_pct >= 99.0 : resident_pct <= 1.0;
}

/* Counts resident pages of [0, size) with mincore, a window at a time. */
static int count_resident(int fd, uint64_t size, uint64_t *resident,
			  uint64_t *pages)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *vec;
	uint64_t off;
	int err = 0;

	*resident = *pages = 0;
	vec = malloc(size < CACHE_MAP_WINDOW ? (size_t)(size / (uint64_t)page + 1) :
		     CACHE_MAP_WINDOW / (uint64_t)page);
	if (!vec)
		return -ENOMEM;
	for (off = 0; off < size; off += CACHE_MAP_WINDOW) {
		size_t len = size - off < CACHE_MAP_WINDOW ? (size_t)(size - off) : CACHE_MAP_WINDOW;
		size_t np = (len + (size_t)page - 1) / (size_t)page;
		void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);

		if (p == MAP_FAILED) {
			err = -errno;
			break;
		}
		if (mincore(p, len, vec)) {
			err = -errno;
			munmap(p, len);
			break;
		}
		for (size_t i = 0; i < np; i++)
			*resident += vec[i] & 1;
		*pages += np;
		munmap(p, len);
	}
	free(vec);
	return err;
}

static int residency_fd(int fd, double *pct)
{
	struct stat st;
	uint64_t resident, pages;
	int err;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size == 0) {
		*pct = 100.0;	/* nothing to cache: as warm as it gets */
		return 0;
	}
	err = count_resident(fd, (uint64_t)st.st_size, &resident, &pages);
	if (err)
		return err;
	*pct = pages ? 100.0 * (double)resident / (double)pages : 100.0;
	return 0;
}

static int read_through(int fd)
{
	char *buf = malloc(CACHE_READ_CHUNK);
	ssize_t n;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	do {
		n = read(fd, buf, CACHE_READ_CHUNK);
	} while (n > 0 || (n < 0 && errno == EINTR));
	if (n < 0)
		err = -errno;
	free(buf);
	return err;
}

/* what: "1" the page cache, "3" folders and inodes too. true when the
 * kernel took the write; false, not root after all or refused: fadvise
 * already did what it can. */
static bool drop_all_caches(const char *what)
{
	const char *fail = getenv(CACHE_DROP_FAIL_ENV);
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	bool done;

	if (fd < 0)
		return false;
	sync();
	done = !(fail && !strcmp(fail, "1")) && write(fd, what, 1) == 1;
	close(fd);
	return done;
}

const char *cache_metadata_name(enum cache_metadata m)
{
	static const char *const names[] = { "", "cached", "dropped", "unknown" };

	return names[m];
}

/* ------------------------------------------------------------------ */
/* Trees: every regular file below a folder                            */
/* ------------------------------------------------------------------ */

struct tree_cache {
	enum cache_mode mode;
	bool set;		/* set the state, or only measure it */
	uint64_t resident, pages;
	double file_max_pct;	/* the most resident file's share */
};

/*
 * Evicts one file of a tree and counts what stays. Its filesystem was
 * synced once before the walk, so its pages are clean and go at once; a
 * file still dirty (written since, or on another filesystem below the
 * folder) is written back first and evicted again.
 */
static int evict_file(int fd, uint64_t size, uint64_t *resident, uint64_t *pages)
{
	int err = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	if (!err)
		err = count_resident(fd, size, resident, pages);
	if (err || !*resident)
		return err;
	fdatasync(fd);
	err = -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return err ? err : count_resident(fd, size, resident, pages);
}

/* One file of a tree: its state set (when asked), its pages counted. */
static int tree_cache_file(struct tree_cache *t, int fd)
{
	struct stat st;
	uint64_t resident, pages;
	int err;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size == 0)
		return 0;
	err = count_resident(fd, (uint64_t)st.st_size, &resident, &pages);
	if (!err && t->set && t->mode == CACHE_WARM && resident < pages) {
		err = read_through(fd);
		if (!err)
			err = count_resident(fd, (uint64_t)st.st_size, &resident, &pages);
	} else if (!err && t->set && t->mode == CACHE_COLD && resident) {
		err = evict_file(fd, (uint64_t)st.st_size, &resident, &pages);
	}
	t->resident += resident;
	t->pages += pages;
	if (pages && 100.0 * (double)resident / (double)pages > t->file_max_pct)
		t->file_max_pct = 100.0 * (double)resident / (double)pages;
	return err;
}

/* An entry's type; where the filesystem leaves it DT_UNKNOWN, fstatat's. */
static unsigned char entry_type(int dfd, const struct dirent *e)
{
	struct stat st;

	if (e->d_type != DT_UNKNOWN)
		return e->d_type;
	if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
}

/* Every entry of the folder dfd (closed here), depth first. */
static int tree_cache_dir(struct tree_cache *t, int dfd)
{
	DIR *dir = fdopendir(dfd);
	struct dirent *e;
	int err = 0;

	if (!dir) {
		err = -errno;
		close(dfd);
		return err;
	}
	while (!err && (e = readdir(dir))) {
		unsigned char type = entry_type(dirfd(dir), e);
		int fd;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (type != DT_REG && type != DT_DIR))
			continue;
		fd = openat(dirfd(dir), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			break;
		}
		if (type == DT_DIR) {
			err = tree_cache_dir(t, fd);
			continue;
		}
		err = tree_cache_file(t, fd);
		close(fd);
	}
	closedir(dir);
	return err;
}

/*
 * The state of every file below the folder fd (closed here), one figure.
 * Cold with drop_caches drops folders and inodes after the count, never
 * before it: counting opens every file, which would read them back, and a
 * drop can only lower the figure.
 */
static int tree_cache(int fd, enum cache_mode mode, bool set, bool use_drop_caches,
		      struct cache_report *rep)
{
	struct tree_cache t = { .mode = mode, .set = set };
	int err;

	if (set && mode == CACHE_COLD)
		syncfs(fd);	/* one writeback for all, not an fdatasync a file */
	err = tree_cache_dir(&t, fd);

	/* only measured: what happened to them is not known here */
	rep->metadata = set ? METADATA_CACHED : METADATA_UNKNOWN;
	if (!err && set && mode == CACHE_COLD && use_drop_caches && geteuid() == 0)
		/* folders and inodes too */
		rep->metadata = drop_all_caches("3") ? METADATA_DROPPED : METADATA_CACHED;
	rep->resident_pct = t.pages ? 100.0 * (double)t.resident / (double)t.pages : 100.0;
	rep->file_resident_max_pct = t.file_max_pct;
	return err;
}

static bool is_folder(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISDIR(st.st_mode);
}

int cache_set(const char *path, enum cache_mode mode, bool use_drop_caches,
	      double *resident_pct)
{
	struct cache_report rep;
	int err = cache_set_report(path, mode, use_drop_caches, &rep);

	*resident_pct = rep.resident_pct;
	return err;
}

int cache_set_report(const char *path, enum cache_mode mode, bool use_drop_caches,
		     struct cache_report *rep)
{
	double *resident_pct = &rep->resident_pct;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	memset(rep, 0, sizeof(*rep));
	if (fd < 0)
		return -errno;
	if (is_folder(fd))
		return tree_cache(fd, mode, true, use_drop_caches, rep);
	if (mode == CACHE_WARM) {
		/* Reading costs time; skip it when everything is resident. */
		err = residency_fd(fd, resident_pct);
		if (!err && cache_state_ok(mode, *resident_pct) && *resident_pct >= 100.0)
			goto out_close;
		err = read_through(fd);
	} else {
		fdatasync(fd);
		err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		err = -err;
		if (!err && use_drop_caches && geteuid() == 0)
			drop_all_caches("1");
	}
	if (!err)
		err = residency_fd(fd, resident_pct);
out_close:
	close(fd);
	return err;
}
