/* SPDX-License-Identifier: MIT */
/*
 * dataset.h - generated input files: kind, size, seed -> a file and its hash.
 *
 * Generation is deterministic from (kind, size, seed). A manifest beside each
 * generated file (<file>.manifest) records kind, size, seed, the file's
 * XXH3-64 hash and its mtime, so a later run reuses a matching file instead of
 * writing it again.
 */
#ifndef COPYBENCH_DATASET_H
#define COPYBENCH_DATASET_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hash.h"
#include "stream.h"
#include "treegen.h"

enum dataset_kind {
	DATASET_RANDOM,	/* incompressible bytes */
	DATASET_TEXT,	/* printable ASCII lines of 10..64 bytes incl. '\n' */
	DATASET_ZERO,	/* all zero bytes, written (not a hole) */
	DATASET_SPARSE,	/* random data islands between holes */
	DATASET_KIND_COUNT,	/* the kinds bench generates */
	/* The user's own file (--source), named "file": never generated. */
	DATASET_FILE = DATASET_KIND_COUNT,
	/* A generated tree of files (datasets/treegen.c): `files` files, each of
	 * `size` bytes or drawn from a size distribution (DATASET_SIZE_SRC). */
	DATASET_TREE,
	/* The user's own tree (--source DIR), named "dir": never generated. */
	DATASET_DIR,
};

/*
 * Layout of a sparse dataset: the file is sized with ftruncate, then every
 * DATASET_SPARSE_STRIDE bytes starts with DATASET_SPARSE_ISLAND bytes of
 * random data (the last island clipped to the size); the rest are holes and
 * read as zeros.
 */
/* Lines of a text dataset are at most this long, '\n' included. */
#define DATASET_TEXT_MAX_LINE 64

#define DATASET_SPARSE_STRIDE (1u << 20)
#define DATASET_SPARSE_ISLAND (64u << 10)

/* What tells that a file changed without reading it again. */
struct dataset_stamp {
	uint64_t dev, ino, size;
	int64_t mtime_ns, ctime_ns;
};

struct dataset {
	enum dataset_kind kind;
	uint64_t size;
	uint64_t seed;
	uint64_t hash;		/* XXH3-64 of the whole content; trees: tree_hash */
	uint64_t files;		/* trees: regular files in it */
	uint64_t total;		/* trees: bytes of all its files */
	char path[PATH_MAX];
	struct dataset_stamp stamp;	/* DATASET_FILE: as it was hashed */
};

const char *dataset_kind_name(enum dataset_kind kind);
/* 0 and *out set, or -EINVAL for an unknown name. */
int dataset_kind_parse(const char *name, enum dataset_kind *out);

/*
 * Writes `path` (created or truncated) with the dataset's content and stores
 * its XXH3-64 hash in *hash. 0 or -errno. Does not write a manifest.
 */
int dataset_generate(enum dataset_kind kind, uint64_t size, uint64_t seed,
		     const char *path, uint64_t *hash);

/*
 * Makes sure d->kind/size/seed exist as a file in `dir`: reuses a file whose
 * manifest matches, else generates it and writes the manifest. Fills d->path
 * and d->hash. *reused (may be NULL) says which happened. 0 or -errno;
 * -EEXIST when the file name is taken by a file bench did not make.
 */
int dataset_ensure(struct dataset *d, const char *dir, int *reused);

/*
 * 1 when d's file name exists in dir without a manifest of bench's beside it:
 * someone else's file, which dataset_ensure refuses (-EEXIST) to replace.
 * The path goes to path[0..n). 0 otherwise.
 */
int dataset_foreign(const struct dataset *d, const char *dir, char *path, size_t n);

/*
 * What dataset_clean found: a file it removed (kept NULL), or one of bench's
 * it left, and why (kept: "changed since bench made it").
 */
typedef void (*dataset_clean_fn)(const char *path, uint64_t bytes, const char *kept,
				 void *arg);

/*
 * Removes from dir the datasets bench made there and nothing else: a file is
 * bench's when a manifest of bench's (<file>.manifest) names it (its kind,
 * size and seed make the file's name) and still describes it (its size and
 * mtime); both go. A manifest of bench's whose file is gone goes too. Each
 * file removed or kept is reported to fn. Returns how many manifests were
 * removed (each with its file, if any), or -errno when dir cannot be read.
 * dry: nothing is removed; fn and the count say what would be.
 */
int dataset_clean(const char *dir, bool dry, dataset_clean_fn fn, void *arg);

/* The file name dataset_ensure uses inside dir, e.g. "random-209715200-s1.dat";
 * a tree's folder: "tree-2000x4096-s1", "tree-2000xsrc-s1". */
void dataset_file_name(const struct dataset *d, char *out, size_t n);

/*
 * datasets/user_file.c: the user's file at path as a DATASET_FILE dataset:
 * a regular, non-empty file, hashed now, with the stamp it had while it was
 * read (a file that changed while being hashed is refused). 0, or -errno
 * with why filled (a short phrase: "is not a regular file").
 */
int dataset_from_file(struct dataset *d, const char *path, char *why, size_t n);
/*
 * Is d's file as it was when dataset_from_file hashed it? Compares the stamp
 * (device, inode, size, mtime, ctime), then the content's hash. 0 when it
 * is; 1 with what filled ("its ctime") when not; -errno when it cannot
 * tell (it is gone: what filled too).
 */
int dataset_file_changed(const struct dataset *d, char *what, size_t n);



/* Trees (datasets/treegen.c, treegen.h) as datasets. */
/* What a dataset is, for messages: "200M", a tree's "2000 x 4K" or "2000 x src". */
void dataset_size_name(const struct dataset *d, char *out, size_t n);
/*
 * datasets/user_file.c: the user's folder at path as a DATASET_DIR dataset: its
 * tree hash, files and bytes. 0, or -errno with why filled.
 */
int dataset_from_dir(struct dataset *d, const char *path, char *why, size_t n);
/* dataset_file_changed() of a DATASET_DIR: its tree hash again. */
int dataset_dir_changed(const struct dataset *d, char *what, size_t n);

#endif
