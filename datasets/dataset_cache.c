// SPDX-License-Identifier: MIT
/*
 * dataset_cache.c - generated datasets kept for later runs: the small text
 * manifest written beside each one (its kind, size, seed, hash and mtime),
 * the reuse of a dataset whose manifest still describes it
 * (dataset_ensure, which generates one that does not: dataset.c,
 * treegen.c), a file in the way that bench did not write
 * (dataset_foreign), and the removal of bench's datasets (dataset_clean).
 */
#include "dataset_internal.h"
#include "lib/fsinfo.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DATASET_FORMAT		1

struct manifest {
	char kind[32];
	uint64_t size;
	uint64_t seed;
	uint64_t hash;
	uint64_t mtime_ns;
	uint64_t format;
	uint64_t files;		/* trees only */
	unsigned fields;	/* bit per key seen */
};

#define MANIFEST_ALL_FIELDS 0x3fu	/* every file dataset's key */

static uint64_t stat_mtime_ns(const struct stat *st)
{
	return (uint64_t)st->st_mtim.tv_sec * 1000000000ull +
	       (uint64_t)st->st_mtim.tv_nsec;
}

/* Stores one "key=value" line; unknown keys and bad numbers are ignored. */
static void manifest_parse_line(struct manifest *m, const char *line)
{
	static const char *const keys[] = {
		"kind", "size", "seed", "xxh3", "mtime_ns", "format", "files",
	};
	uint64_t *const slots[] = {
		NULL, &m->size, &m->seed, &m->hash, &m->mtime_ns, &m->format, &m->files,
	};
	size_t klen = strcspn(line, "=");
	const char *v = line + klen + 1;
	size_t vlen = strcspn(v, "\n");
	char *end;

	if (line[klen] != '=')
		return;
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strlen(keys[i]) != klen || strncmp(line, keys[i], klen))
			continue;
		if (!slots[i]) {
			snprintf(m->kind, sizeof(m->kind), "%.*s", (int)vlen, v);
		} else {
			errno = 0;
			*slots[i] = strtoull(v, &end, i == 3 ? 16 : 10);
			if (errno || end == v || end != v + vlen)
				return;
		}
		m->fields |= 1u << i;
	}
}

static int manifest_read(const char *path, struct manifest *m)
{
	char line[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	memset(m, 0, sizeof(*m));
	while (fgets(line, sizeof(line), f))
		manifest_parse_line(m, line);
	fclose(f);
	return (m->fields & MANIFEST_ALL_FIELDS) == MANIFEST_ALL_FIELDS ? 0 : -EINVAL;
}

/* Writes the manifest through a temporary file too: all or nothing. */
static int manifest_write(const char *path, const struct dataset *d,
			  uint64_t mtime_ns)
{
	char tmp[PATH_MAX];
	FILE *f;
	int fd, ret = 0;

	fd = dataset_open_temp(path, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		goto out_unlink_tmp;
	}
	fprintf(f, "kind=%s\nsize=%" PRIu64 "\nseed=%" PRIu64 "\n",
		dataset_kind_name(d->kind), d->size, d->seed);
	fprintf(f, "xxh3=%016" PRIx64 "\nmtime_ns=%" PRIu64 "\nformat=%d\n",
		d->hash, mtime_ns, DATASET_FORMAT);
	if (d->kind == DATASET_TREE)
		fprintf(f, "files=%" PRIu64 "\n", d->files);
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
out_unlink_tmp:
	if (ret)
		unlink(tmp);
	return ret;
}

/* 1 when the manifest describes d and the file still looks unchanged. */
static int dataset_matches(struct dataset *d, const char *manifest_path)
{
	struct manifest m;
	struct stat st;

	if (manifest_read(manifest_path, &m))
		return 0;
	if (strcmp(m.kind, dataset_kind_name(d->kind)) || m.size != d->size ||
	    m.seed != d->seed || m.format != DATASET_FORMAT)
		return 0;
	if (d->kind == DATASET_TREE) {
		uint64_t stamp;

		if (m.files != d->files || lstat(d->path, &st) || !S_ISDIR(st.st_mode) ||
		    tree_stamp(d->path, &stamp) || stamp != m.mtime_ns)
			return 0;
		d->hash = m.hash;
		d->total = tree_total_size(d->size, d->files, d->seed);
		return 1;
	}
	if (stat(d->path, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != d->size || stat_mtime_ns(&st) != m.mtime_ns)
		return 0;
	d->hash = m.hash;
	return 1;
}

/* mkdir -p dir; it must end up a directory. */
static int dataset_mkdirs(const char *dir)
{
	char made[PATH_MAX];
	struct stat st;
	int err;

	if (!dir[0])
		return -EINVAL;
	err = fs_make_dirs(dir, made, sizeof(made));
	if (err)
		return err;
	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int dataset_foreign(const struct dataset *d, const char *dir, char *path, size_t n)
{
	char name[128], manifest[PATH_MAX + 16];
	struct manifest m;
	struct stat st;
	int ours;

	dataset_file_name(d, name, sizeof(name));
	snprintf(path, n, "%s/%s", dir, name);
	snprintf(manifest, sizeof(manifest), "%s.manifest", path);
	ours = manifest_read(manifest, &m) == 0 &&
	       strcmp(m.kind, dataset_kind_name(d->kind)) == 0 &&
	       m.size == d->size && m.seed == d->seed;
	if (d->kind == DATASET_TREE)
		ours = ours && m.files == d->files;
	if (lstat(path, &st) == 0)	/* the data file: ours and regular */
		return !ours || !(d->kind == DATASET_TREE ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
	if (lstat(manifest, &st) == 0 && !ours) {	/* a stranger's .manifest */
		snprintf(path, n, "%s", manifest);
		return 1;
	}
	return 0;
}

int dataset_ensure(struct dataset *d, const char *dir, int *reused)
{
	char foreign[PATH_MAX];
	char name[128], manifest[PATH_MAX];
	struct stat st;
	int ret;

	if ((unsigned)d->kind >= DATASET_KIND_COUNT && d->kind != DATASET_TREE)
		return -EINVAL;
	ret = dataset_mkdirs(dir);
	if (ret)
		return ret;
	dataset_file_name(d, name, sizeof(name));
	if ((size_t)snprintf(d->path, sizeof(d->path), "%s/%s", dir, name) >=
	    sizeof(d->path))
		return -ENAMETOOLONG;
	if ((size_t)snprintf(manifest, sizeof(manifest), "%s.manifest",
			     d->path) >= sizeof(manifest))
		return -ENAMETOOLONG;

	if (dataset_matches(d, manifest)) {
		if (reused)
			*reused = 1;
		return 0;
	}
	if (reused)
		*reused = 0;
	if (dataset_foreign(d, dir, foreign, sizeof(foreign)))
		return -EEXIST;
	if (unlink(manifest) && errno != ENOENT)
		return -errno;
	if (d->kind == DATASET_TREE) {
		struct tree_sum sum;

		ret = tree_remove(d->path);	/* ours, by its manifest, but changed */
		ret = ret ? ret : tree_generate(d->size, d->files, d->seed, d->path, &sum);
		if (!ret) {
			d->hash = sum.hash;
			d->total = sum.bytes;
		}
	} else {
		ret = dataset_generate(d->kind, d->size, d->seed, d->path, &d->hash);
	}
	if (ret)
		return ret;
	if (d->kind == DATASET_TREE) {
		uint64_t stamp;

		ret = tree_stamp(d->path, &stamp);
		return ret ? ret : manifest_write(manifest, d, stamp);
	}
	if (stat(d->path, &st))
		return -errno;
	return manifest_write(manifest, d, stat_mtime_ns(&st));
}

/* ------------------------------------------------------------------ */
/* Public: cleaning up                                                 */
/* ------------------------------------------------------------------ */

static int is_manifest_name(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 9 && strcmp(e->d_name + n - 9, ".manifest") == 0;
}

/*
 * One <name>.manifest of dir: when bench's, removes the file it describes
 * and itself. 1 when something was removed, 0 when not.
 */
static int dataset_clean_one(const char *dir, const char *manifest_name, bool dry,
			     dataset_clean_fn fn, void *arg)
{
	char manifest[PATH_MAX], path[PATH_MAX], name[128];
	struct dataset d = { 0 };
	struct manifest m;
	struct stat st;

	snprintf(manifest, sizeof(manifest), "%s/%s", dir, manifest_name);
	if (manifest_read(manifest, &m))
		return 0;
	if (!strcmp(m.kind, dataset_kind_name(DATASET_TREE)))
		d.kind = DATASET_TREE;
	else if (dataset_kind_parse(m.kind, &d.kind))
		return 0;
	d.size = m.size;
	d.seed = m.seed;
	d.files = m.files;
	dataset_file_name(&d, name, sizeof(name));
	if (strlen(manifest_name) != strlen(name) + 9 || strncmp(manifest_name, name, strlen(name)))
		return 0;	/* it does not name its own file: not bench's */
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (d.kind == DATASET_TREE && lstat(path, &st) == 0) {
		uint64_t stamp = 0;

		if (!S_ISDIR(st.st_mode) || tree_stamp(path, &stamp) || stamp != m.mtime_ns) {
			fn(path, 0, "changed since bench made it", arg);
			return 0;
		}
		if (!dry && tree_remove(path))
			return 0;
		fn(path, tree_total_size(m.size, m.files, m.seed), NULL, arg);
	} else if (lstat(path, &st) == 0) {
		if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != m.size ||
		    stat_mtime_ns(&st) != m.mtime_ns) {
			fn(path, (uint64_t)st.st_size, "changed since bench made it", arg);
			return 0;
		}
		if (!dry && unlink(path))
			return 0;
		fn(path, m.size, NULL, arg);
	}
	if (!dry && unlink(manifest))
		return 0;
	fn(manifest, 0, NULL, arg);
	return 1;
}

int dataset_clean(const char *dir, bool dry, dataset_clean_fn fn, void *arg)
{
	struct dirent **names;
	int count, removed = 0;

	count = scandir(dir, &names, is_manifest_name, alphasort);
	if (count < 0)
		return -errno;
	for (int i = 0; i < count; i++) {
		removed += dataset_clean_one(dir, names[i]->d_name, dry, fn, arg);
		free(names[i]);
	}
	free(names);
	return removed;
}
