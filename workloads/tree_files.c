// SPDX-License-Identifier: MIT
/*
 * tree_files.c - the whole tree as a list of files (tree.h), for the tree
 * methods that decide themselves in which order or on which thread each
 * file is copied: the walker with its folders kept open, every file's
 * folders, inode number and name appended to one array, the names to one
 * block (no allocation per file).
 */
#include "tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t c = *cap ? *cap : first;
	void *q;

	while (c < need)
		c *= 2;
	if (c == *cap)
		return 0;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

static int list_add(void *arg, const struct tree_file *f)
{
	struct tree_files *l = arg;
	size_t len = strlen(f->name) + 1;

	if (grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v), 1024) ||
	    grow((void **)&l->names, &l->names_cap, l->names_len + len, 1, 16384))
		return -ENOMEM;
	memcpy(l->names + l->names_len, f->name, len);
	l->v[l->n++] = (struct tree_entry){ .src_dir = f->src_dir, .dst_dir = f->dst_dir,
					    .ino = f->ino, .name_at = l->names_len };
	l->names_len += len;
	return 0;
}

int tree_files_walk(struct tree_files *l, const struct tree_job *job)
{
	memset(l, 0, sizeof(*l));
	return tree_walk(&l->w, job, TREE_WALK_KEEP_DIRS, list_add, l);
}

void tree_files_end(struct tree_files *l)
{
	tree_walk_end(&l->w);
	free(l->v);
	free(l->names);
	l->v = NULL;
	l->names = NULL;
	l->n = l->cap = l->names_len = l->names_cap = 0;
}
