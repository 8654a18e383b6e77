/* SPDX-License-Identifier: MIT */
/*
 * command.h - any program as a row: `--command NAME='cp {src} {dst}'`.
 *
 * A command is a name (the row's, in the strategy column) and a template: a
 * command line in which {src} stands for the source path and {dst} for the
 * output path, which does not exist yet. The harness runs it as a whole
 * process in the per-run child of a workload that says it can be done by a
 * program (WORKLOAD_COMMANDS), with the same datasets, cache states,
 * verification, syscall counts and statistics as the built-in rows.
 *
 * The template is split into words here, never by a shell: words are
 * separated by blanks; '...' keeps everything up to the next ' as it is;
 * "..." does too, except that \" and \\ stand for " and \; outside quotes
 * \x stands for x. Nothing is expanded ($, *, ~, |, > are plain characters).
 * Then {src} and {dst} are replaced inside each word by the paths, which
 * therefore stay one word whatever they contain. A pipe or a redirection
 * is written as a shell's own argument with the paths as its positional
 * parameters: sh -c 'tar -C "$1" -cf - . | tar -C "$2" -xf -' sh {src} {dst}.
 *
 * The named defaults (command_defaults[]: cp, cp-reflink-never, rsync, tar,
 * dd) have one template for a file source and one for a directory source
 * (a tree); a default without the form a workload needs is listed as
 * unavailable for it. A user's template serves both.
 */
#ifndef COPYBENCH_COMMAND_H
#define COPYBENCH_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#define COMMAND_WORDS_MAX 64
#define COMMAND_NAME_MAX 32

struct bench_command {
	char name[COMMAND_NAME_MAX];
	const char *file_template;	/* {src} a file; NULL: does not apply */
	const char *tree_template;	/* {src} a directory; NULL: does not apply */
	const char *description;	/* defaults: one line; NULL for the user's */
	const char *twin;		/* bench-S: the strategy or tree method S */
};

extern const struct bench_command command_defaults[];
extern const size_t command_default_count;

/*
 * bench-S names the whole-process twin of a built-in row: this bench run as
 * `bench copy --strategy S {src} {dst}` (a file, or a folder for a tree),
 * so that a command row such as `cp -r` is compared with a whole process
 * too. Whether S exists for the workload is decided when the row is
 * planned (its twin member).
 */
#define COMMAND_TWIN_PREFIX "bench-"
#define COMMAND_TWINS_MAX 16

/*
 * "NAME" (a default, or bench-S) or "NAME=TEMPLATE" into *out (its templates point into
 * spec). 0, or -EINVAL with why filled: an unknown default, a bad name (it
 * must be letters, digits, '-', '_' or '.'), a template that does not split
 * or lacks {src} or {dst}.
 */
int command_parse(char *spec, struct bench_command *out, char *why, size_t n);

/*
 * Splits template into words by the rule above, {src} and {dst} replaced
 * (src, dst NULL: left as they are). The words are written into buf (of
 * size bufn), argv[] points into it and ends with NULL. 0, -EINVAL (why:
 * an open quote, no words), or -E2BIG (too many words or too long).
 */
int command_split(const char *template, const char *src, const char *dst,
		  char **argv, size_t max_words, char *buf, size_t bufn,
		  char *why, size_t n);

/* The template of c for a source that is a directory (tree) or a file;
 * NULL when c has none. */
const char *command_template(const struct bench_command *c, bool tree);

/*
 * Can the program of template run here? Looks argv[0] up in PATH (or the
 * path itself when it holds a '/'): 0, or -ENOENT with why filled
 * ("rsync is not installed (not found in PATH)").
 */
int command_probe(const char *template, char *why, size_t n);

#endif
