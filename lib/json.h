/* SPDX-License-Identifier: MIT */
/* json.h - the few pieces of JSON output the project writes by hand. */
#ifndef COPYBENCH_JSON_H
#define COPYBENCH_JSON_H

#include <stdio.h>

/* s as a JSON string literal, quotes and escapes included. */
void json_str(FILE *f, const char *s);

#endif
