// SPDX-License-Identifier: MIT
/*
 * history_meta.c - the values the history takes from a results folder's
 * meta.json: the build type (part of the class a run is compared within),
 * the commit and when the run started. The file is kept whole in the database; here a small
 * JSON reader walks it and picks the string values whose key, at any depth,
 * is one of the names below, so that the reader does not depend on where
 * the metadata nests them. Everything else is skipped, but checked to be
 * JSON. The commit is the one bench was built from, out of
 * `git describe --always --dirty --tags` (bench.git_describe).
 */
#include "history_internal.h"

#include <errno.h>
#include <string.h>

#define META_MAX_DEPTH 32

static const char *const build_keys[] = { "build_type", NULL };
static const char *const commit_keys[] = { "git_describe", NULL };
static const char *const start_keys[] = {
	"start_utc", "utc_start", "started_utc", "started", "start", NULL,
};

struct meta_reader {
	const char *p, *end;
	struct history_meta *m;
	int start_rank;		/* index in start_keys of the value taken */
};

/* Whether c is one of set (never the NUL that ends set). */
static bool in_set(char c, const char *set)
{
	return c && strchr(set, c);
}

static void skip_space(struct meta_reader *r)
{
	while (r->p < r->end && in_set(*r->p, " \t\r\n"))
		r->p++;
}

/* Four hex digits after a backslash-u. */
static bool hex4(const char *p, const char *end)
{
	if (end - p < 4)
		return false;
	for (int i = 0; i < 4; i++)
		if (!in_set(p[i], "0123456789abcdefABCDEF"))
			return false;
	return true;
}

/* A string at r->p, its content (escapes reduced) into out. 0 or -EINVAL. */
static int read_string(struct meta_reader *r, char *out, size_t n)
{
	size_t len = 0;

	if (r->p >= r->end || *r->p != '"')
		return -EINVAL;
	for (r->p++; r->p < r->end && *r->p != '"'; r->p++) {
		char c = *r->p;

		if ((unsigned char)c < ' ')
			return -EINVAL;
		if (c == '\\') {
			if (++r->p >= r->end || !in_set(*r->p, "\"\\/bfnrtu"))
				return -EINVAL;
			c = *r->p == 'u' ? '?' : *r->p;
			if (*r->p == 'u' && !hex4(r->p + 1, r->end))
				return -EINVAL;
			if (*r->p == 'u')
				r->p += 4;
		}
		if (len + 1 < n)
			out[len++] = c;
	}
	if (r->p >= r->end)
		return -EINVAL;
	r->p++;
	if (n)
		out[len] = '\0';
	return 0;
}

/* A number, true, false or null. 0 or -EINVAL. */
static int skip_literal(struct meta_reader *r)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *s = r->p;

	for (size_t i = 0; i < 3; i++) {
		size_t l = strlen(words[i]);

		if ((size_t)(r->end - r->p) >= l && memcmp(r->p, words[i], l) == 0) {
			r->p += l;
			return 0;
		}
	}
	while (r->p < r->end && in_set(*r->p, "+-0123456789.eE"))
		r->p++;
	return r->p > s ? 0 : -EINVAL;
}

static int key_rank(const char *const *keys, const char *key)
{
	for (int i = 0; keys[i]; i++)
		if (strcmp(keys[i], key) == 0)
			return i;
	return -1;
}

/* Copies s into out[n], cut short if need be. */
static void copy_cut(char *out, size_t n, const char *s)
{
	size_t len = strnlen(s, n - 1);

	memcpy(out, s, len);
	out[len] = '\0';
}

/*
 * The commit of a `git describe` value: the hash after "-g" of
 * "TAG-N-gHASH[-dirty]", else the value itself (a hash, or a tag that names
 * the commit), "-dirty" kept: a build of a changed tree is not the commit.
 * "unknown" (a build outside git) names none: "".
 */
static void describe_commit(char *out, size_t n, const char *describe)
{
	const char *g = strstr(describe, "-g"), *hash;

	while (g && strstr(g + 2, "-g"))
		g = strstr(g + 2, "-g");
	hash = g && strspn(g + 2, "0123456789abcdef") >= 4 ? g + 2 : describe;
	copy_cut(out, n, strcmp(describe, "unknown") ? hash : "");
}

/* Takes a string value of key when it is one of the names read. */
static void take(struct meta_reader *r, const char *key, const char *value)
{
	int rank = key_rank(start_keys, key);

	if (key_rank(build_keys, key) >= 0 && !r->m->build_type[0])
		copy_cut(r->m->build_type, sizeof(r->m->build_type), value);
	if (key_rank(commit_keys, key) >= 0 && !r->m->commit[0])
		describe_commit(r->m->commit, sizeof(r->m->commit), value);
	if (rank >= 0 && rank < r->start_rank) {
		copy_cut(r->m->started, sizeof(r->m->started), value);
		r->start_rank = rank;
	}
}

static int read_value(struct meta_reader *r, const char *key, int depth);

/* The members of an object or the elements of an array, after its '{' or '['. */
static int read_members(struct meta_reader *r, char close, int depth)
{
	char key[128];

	skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 0;
	}
	for (;;) {
		skip_space(r);
		key[0] = '\0';
		if (close == '}') {
			if (read_string(r, key, sizeof(key)))
				return -EINVAL;
			skip_space(r);
			if (r->p >= r->end || *r->p++ != ':')
				return -EINVAL;
		}
		if (read_value(r, key, depth + 1))
			return -EINVAL;
		skip_space(r);
		if (r->p >= r->end)
			return -EINVAL;
		if (*r->p == close) {
			r->p++;
			return 0;
		}
		if (*r->p++ != ',')
			return -EINVAL;
	}
}

static int read_value(struct meta_reader *r, const char *key, int depth)
{
	char value[256];

	skip_space(r);
	if (r->p >= r->end || depth > META_MAX_DEPTH)
		return -EINVAL;
	if (*r->p == '{' || *r->p == '[') {
		char close = *r->p == '{' ? '}' : ']';

		r->p++;
		return read_members(r, close, depth);
	}
	if (*r->p != '"')
		return skip_literal(r);
	if (read_string(r, value, sizeof(value)))
		return -EINVAL;
	take(r, key, value);
	return 0;
}

int history_meta_parse(const char *text, size_t len, struct history_meta *m)
{
	struct meta_reader r = { .p = text, .end = text + len, .m = m,
				 .start_rank = (int)(sizeof(start_keys) / sizeof(start_keys[0])) };

	memset(m, 0, sizeof(*m));
	skip_space(&r);
	if (r.p >= r.end || *r.p != '{' || read_value(&r, "", 0))
		return -EINVAL;
	skip_space(&r);
	return r.p == r.end ? 0 : -EINVAL;
}
