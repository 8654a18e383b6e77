// SPDX-License-Identifier: MIT
/* json.c - JSON string literals (RFC 8259 section 7) and the indented
 * writer of json.h. */
#include "json.h"

#include <inttypes.h>
#include <stdlib.h>

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

struct json_out json_out_begin(FILE *f)
{
	struct json_out j = { .f = f, .depth = 1, .closer = { '}' } };

	fputc('{', f);
	return j;
}

void json_out_end(struct json_out *j)
{
	json_end(j);
	fputc('\n', j->f);
}

/* The separator before a member, and its line and indentation. */
void json_key(struct json_out *j, const char *key)
{
	int level = j->depth - 1;

	if (j->has_member[level])
		fputc(',', j->f);
	if (j->inline_[level])
		fputs(j->has_member[level] ? " " : "", j->f);
	else
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	j->has_member[level] = true;
	if (key) {
		json_str(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct json_out *j, const char *key, char c, bool inline_)
{
	if (j->depth == JSON_MAX_DEPTH)
		abort();
	json_key(j, key);
	fputc(c, j->f);
	j->closer[j->depth] = c == '{' ? '}' : ']';
	j->inline_[j->depth] = inline_ || j->inline_[j->depth - 1];
	j->has_member[j->depth] = false;
	j->depth++;
}

void json_begin_object(struct json_out *j, const char *key) { json_open(j, key, '{', false); }
void json_begin_inline_object(struct json_out *j, const char *key) { json_open(j, key, '{', true); }
void json_begin_array(struct json_out *j, const char *key) { json_open(j, key, '[', false); }
void json_begin_inline_array(struct json_out *j, const char *key) { json_open(j, key, '[', true); }

/* Closes the innermost object or array. */
void json_end(struct json_out *j)
{
	int level = j->depth - 1;

	if (!j->inline_[level] && j->has_member[level])
		fprintf(j->f, "\n%*s", 2 * level, "");
	fputc(j->closer[level], j->f);
	j->depth--;
}

void json_kv_str(struct json_out *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j->f, s);
}

void json_kv_u64(struct json_out *j, const char *key, uint64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%" PRIu64, v);
}

void json_kv_i64(struct json_out *j, const char *key, int64_t v)
{
	json_key(j, key);
	fprintf(j->f, "%" PRId64, v);
}

void json_kv_dbl(struct json_out *j, const char *key, double v, int decimals)
{
	json_key(j, key);
	fprintf(j->f, "%.*f", decimals, v);
}

void json_kv_bool(struct json_out *j, const char *key, bool v)
{
	json_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_kv_null(struct json_out *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->f);
}
