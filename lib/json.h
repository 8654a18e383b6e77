/* SPDX-License-Identifier: MIT */
/*
 * json.h - the JSON the project writes by hand: string literals, and a small
 * writer of indented objects and arrays that puts the commas and the
 * indentation where they belong.
 *
 *	struct json_out j = json_out_begin(f);		{
 *	json_kv_u64(&j, "schema_version", 1);		  "schema_version": 1,
 *	json_begin_array(&j, "argv");			  "argv": [
 *	json_kv_str(&j, NULL, "bench");			    "bench"
 *	json_end(&j);					  ]
 *	json_out_end(&j);				}
 *
 * A NULL key writes a value inside an array. json_key() writes the key (or
 * the separator, inside an array) and leaves the value to the caller.
 */
#ifndef COPYBENCH_JSON_H
#define COPYBENCH_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* s as a JSON string literal, quotes and escapes included. */
void json_str(FILE *f, const char *s);

#define JSON_MAX_DEPTH 16

struct json_out {
	FILE *f;
	int depth;			/* open objects and arrays */
	/* Per level: '}' or ']', whether its members share one line, and
	 * whether it has one yet (a comma goes before the next). */
	char closer[JSON_MAX_DEPTH];
	bool inline_[JSON_MAX_DEPTH];
	bool has_member[JSON_MAX_DEPTH];
};

/* Opens the top-level object on f. Nesting deeper than JSON_MAX_DEPTH is a
 * bug of the caller (abort). */
struct json_out json_out_begin(FILE *f);
/* Closes it and ends the line. */
void json_out_end(struct json_out *j);

void json_key(struct json_out *j, const char *key);
void json_begin_object(struct json_out *j, const char *key);
/* An object whose members stay on one line (rows of a table). */
void json_begin_inline_object(struct json_out *j, const char *key);
void json_begin_array(struct json_out *j, const char *key);
/* An array whose values stay on one line (numbers). */
void json_begin_inline_array(struct json_out *j, const char *key);
void json_end(struct json_out *j);

void json_kv_str(struct json_out *j, const char *key, const char *s);
void json_kv_u64(struct json_out *j, const char *key, uint64_t v);
void json_kv_i64(struct json_out *j, const char *key, int64_t v);
void json_kv_dbl(struct json_out *j, const char *key, double v, int decimals);
void json_kv_bool(struct json_out *j, const char *key, bool v);
void json_kv_null(struct json_out *j, const char *key);

#endif
