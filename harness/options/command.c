// SPDX-License-Identifier: MIT
/*
 * command.c - the `--command` rows' templates: the named defaults, parsing
 * NAME=TEMPLATE, splitting a template into words (command.h has the rule)
 * and finding its program in PATH.
 */
#include "command.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * What a user can name without writing a template. The tar pipe makes the
 * output folder itself (tar x needs one), fails when either side does
 * (pipefail: bash, which Debian always has) and copies a tree only; dd copies
 * a file only. docs/commands.md says what each measures.
 */
const struct bench_command command_defaults[] = {
	{ "cp", "cp {src} {dst}", "cp -r {src} {dst}",
	  "coreutils cp (--reflink=auto: FICLONE, then copy_file_range)", NULL },
	{ "cp-reflink-never", "cp --reflink=never {src} {dst}",
	  "cp -r --reflink=never {src} {dst}",
	  "coreutils cp --reflink=never (a read/write loop)", NULL },
	{ "dd", "dd if={src} of={dst} bs=4M status=none", NULL,
	  "dd with 4 MiB blocks (files only)", NULL },
	{ "rsync", "rsync --inplace {src} {dst}", "rsync -a {src}/ {dst}",
	  "rsync --inplace for a file, rsync -a for a tree", NULL },
	{ "tar", NULL,
	  "bash -c 'set -o pipefail && mkdir -- \"$2\" && tar -C \"$1\" -cf - . | tar -C \"$2\" -xf -' tar {src} {dst}",
	  "a tar c | tar x pipe (trees only)", NULL },
};
const size_t command_default_count = sizeof(command_defaults) / sizeof(command_defaults[0]);

static bool name_ok(const char *s, size_t len)
{
	if (!len || len >= COMMAND_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", s[i]))
			return false;
	return true;
}

static const struct bench_command *find_default(const char *name)
{
	for (size_t i = 0; i < command_default_count; i++)
		if (!strcmp(command_defaults[i].name, name))
			return &command_defaults[i];
	return NULL;
}

/*
 * The template of bench-S: this executable (by /proc/self/exe) running
 * `copy --strategy S`. Kept in a pool of its own: the options live for the
 * whole invocation.
 */
static int twin_parse(struct bench_command *out, char *why, size_t n)
{
	static char pool[COMMAND_TWINS_MAX][PATH_MAX + 96];
	static unsigned used;
	const char *s = out->name + strlen(COMMAND_TWIN_PREFIX);
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len <= 0 || used == COMMAND_TWINS_MAX) {
		snprintf(why, n, len <= 0 ? "cannot find bench's own executable (/proc/self/exe)"
			 : "too many bench- commands");
		return -EINVAL;
	}
	exe[len] = '\0';
	if (strchr(exe, '\'') || !*s) {
		snprintf(why, n, "%s", *s ? "bench's own path holds a quote" : "bench- names no strategy");
		return -EINVAL;
	}
	snprintf(pool[used], sizeof(pool[used]), "'%s' copy --strategy %s {src} {dst}", exe, s);
	out->file_template = out->tree_template = pool[used++];
	out->description = "bench copy --strategy S as a whole process";
	out->twin = s;
	return 0;
}

int command_parse(char *spec, struct bench_command *out, char *why, size_t n)
{
	char *eq = strchr(spec, '='), *words[COMMAND_WORDS_MAX], buf[4096];
	size_t len = eq ? (size_t)(eq - spec) : strlen(spec);
	const struct bench_command *d;

	memset(out, 0, sizeof(*out));
	if (!name_ok(spec, len)) {
		snprintf(why, n, "the name before '=' must be 1 to %d letters, digits, '-', '_' or '.'",
			 COMMAND_NAME_MAX - 1);
		return -EINVAL;
	}
	snprintf(out->name, sizeof(out->name), "%.*s", (int)len, spec);
	if (!eq && !strncmp(out->name, COMMAND_TWIN_PREFIX, strlen(COMMAND_TWIN_PREFIX)))
		return twin_parse(out, why, n);
	if (!eq) {
		d = find_default(out->name);
		if (!d) {
			snprintf(why, n, "no default command '%s' (bench list shows them); write NAME='program {src} {dst}'",
				 out->name);
			return -EINVAL;
		}
		*out = *d;
		return 0;
	}
	if (!strstr(eq + 1, "{src}") || !strstr(eq + 1, "{dst}")) {
		snprintf(why, n, "the template must name {src} and {dst}");
		return -EINVAL;
	}
	if (command_split(eq + 1, NULL, NULL, words, COMMAND_WORDS_MAX, buf, sizeof(buf), why, n))
		return -EINVAL;
	out->file_template = out->tree_template = eq + 1;
	return 0;
}

/* ------------------------------------------------------- splitting -- */

struct word_out {
	char *buf, *end, *at;	/* the words written so far, '\0' after each */
	bool overflow;
};

static void put(struct word_out *w, const char *s, size_t len)
{
	if ((size_t)(w->end - w->at) <= len) {
		w->overflow = true;
		return;
	}
	memcpy(w->at, s, len);
	w->at += len;
}

/* One character of a word, or a path where {src} or {dst} begins at *p. */
static const char *put_char(struct word_out *w, const char *p, const char *src, const char *dst)
{
	if (src && !strncmp(p, "{src}", 5)) {
		put(w, src, strlen(src));
		return p + 5;
	}
	if (dst && !strncmp(p, "{dst}", 5)) {
		put(w, dst, strlen(dst));
		return p + 5;
	}
	put(w, p, 1);
	return p + 1;
}

/* A quoted part starting after its opening quote q; NULL: not closed. */
static const char *put_quoted(struct word_out *w, const char *p, char q,
			      const char *src, const char *dst)
{
	while (*p && *p != q) {
		if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\'))
			p++;
		p = put_char(w, p, src, dst);
	}
	return *p ? p + 1 : NULL;
}

/* One word starting at p (not a blank); returns where it ends, NULL on an
 * open quote. */
static const char *put_word(struct word_out *w, const char *p, const char *src, const char *dst)
{
	while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
		if (*p == '\'' || *p == '"') {
			p = put_quoted(w, p + 1, *p, src, dst);
			if (!p)
				return NULL;
		} else if (*p == '\\' && p[1]) {
			put(w, p + 1, 1);
			p += 2;
		} else {
			p = put_char(w, p, src, dst);
		}
	}
	put(w, "", 1);
	return p;
}

int command_split(const char *template, const char *src, const char *dst,
		  char **argv, size_t max_words, char *buf, size_t bufn,
		  char *why, size_t n)
{
	struct word_out w = { buf, buf + bufn, buf, false };
	const char *p = template;
	size_t k = 0;

	for (;;) {
		p += strspn(p, " \t\n");
		if (!*p)
			break;
		if (k + 1 >= max_words) {
			snprintf(why, n, "more than %zu words", max_words - 1);
			return -E2BIG;
		}
		argv[k++] = w.at;
		p = put_word(&w, p, src, dst);
		if (!p) {
			snprintf(why, n, "a quote is not closed");
			return -EINVAL;
		}
	}
	argv[k] = NULL;
	if (w.overflow) {
		snprintf(why, n, "the command line is too long");
		return -E2BIG;
	}
	if (!k) {
		snprintf(why, n, "the template is empty");
		return -EINVAL;
	}
	return 0;
}

const char *command_template(const struct bench_command *c, bool tree)
{
	return tree ? c->tree_template : c->file_template;
}

/* ---------------------------------------------------------- probing -- */

static bool runnable(const char *path)
{
	return access(path, X_OK) == 0;
}

int command_probe(const char *template, char *why, size_t n)
{
	char *argv[COMMAND_WORDS_MAX], buf[4096], path[4096];
	const char *dirs = getenv("PATH");

	if (command_split(template, NULL, NULL, argv, COMMAND_WORDS_MAX, buf, sizeof(buf), why, n))
		return -EINVAL;
	if (strchr(argv[0], '/')) {
		if (runnable(argv[0]))
			return 0;
		snprintf(why, n, "%.100s cannot be run (%s)", argv[0], strerror(errno));
		return -ENOENT;
	}
	if (!dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	while (*dirs) {
		size_t len = strcspn(dirs, ":");

		snprintf(path, sizeof(path), "%.*s/%s", (int)len, len ? dirs : ".", argv[0]);
		if (runnable(path))
			return 0;
		dirs += len + (dirs[len] == ':');
	}
	snprintf(why, n, "%.100s is not installed (not found in PATH)", argv[0]);
	return -ENOENT;
}
