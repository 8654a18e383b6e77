/* SPDX-License-Identifier: MIT */
/*
 * column.h - what a result column is: its name, type, unit, description
 * and where its value comes from. The table of every file's columns is
 * results/columns.c; the columns of runs.csv, one per thing a run
 * measures, are in this room (run_columns.c) beside the code that measures
 * them, so a new per-run measurement is a member of struct run_result
 * (case.h), the code that fills it (child.c or runner.c) and one line in
 * run_columns.c: all in run/.
 */
#ifndef COPYBENCH_COLUMN_H
#define COPYBENCH_COLUMN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "case.h"

struct case_summary;

enum col_type {
	COL_STR,
	COL_U64,
	COL_I64,
	COL_DBL,	/* written with the column's decimals */
	COL_BOOL,	/* 0 or 1 in CSV, false or true in JSON */
};

enum col_role { ROLE_ID, ROLE_MEASURE, ROLE_ENV };

/* Everything one row of one file is written from; unused members NULL. */
struct col_row {
	const struct bench_case *c;
	const struct run_result *run;	/* runs.csv */
	const struct case_summary *sum;	/* summary.csv */
	const char *syscall;		/* syscalls.csv */
	uint64_t count;			/* syscalls.csv */
	const struct sysinfo_env *env;
};

/* One cell. Which member holds it follows the column's type. */
struct col_value {
	bool empty;		/* no value: an empty cell, null in JSON */
	const char *s;
	uint64_t u;
	int64_t i;
	double d;
	/* A string made for this cell: a status with a case's whole reason. */
	char buf[sizeof(((struct bench_case *)0)->why) + 32];
};

enum col_source { SRC_NONE, SRC_CASE, SRC_SPEC, SRC_RUN, SRC_SUM, SRC_ENV };

struct column {
	const char *name;
	enum col_type type;
	int decimals;		/* COL_DBL */
	bool optional;		/* may be empty */
	enum col_role role;
	const char *unit;	/* "" when none */
	const char *description;	/* one line, Markdown */
	/* The value: a member of one of the row's structs (source, offset,
	 * read by its C type), or computed by get. */
	enum col_source source;
	size_t offset;
	void (*read)(const void *member, struct col_value *v);
	void (*get)(const struct col_row *x, struct col_value *v);
};

/* A column whose value is a plain member of one of the row's structs names
 * it with CASE(), SPEC(), RUN() or ENV() (SUM() in results/columns.c): the
 * member's C type picks how it is read, so such a column is one line. */
void col_set_int(struct col_value *v, int64_t x);
void col_set_uint(struct col_value *v, uint64_t x);
void col_read_bool(const void *p, struct col_value *v);
void col_read_int(const void *p, struct col_value *v);
void col_read_long(const void *p, struct col_value *v);
void col_read_uint(const void *p, struct col_value *v);
void col_read_ulong(const void *p, struct col_value *v);
void col_read_ullong(const void *p, struct col_value *v);
void col_read_dbl(const void *p, struct col_value *v);
void col_read_chars(const void *p, struct col_value *v);
void col_read_str(const void *p, struct col_value *v);

/* The read function for a member, chosen by its type (never evaluated). */
#define COL_READER(member) _Generic((member), \
	bool: col_read_bool, int: col_read_int, long: col_read_long, \
	unsigned: col_read_uint, unsigned long: col_read_ulong, \
	unsigned long long: col_read_ullong, double: col_read_dbl, \
	char *: col_read_chars, const char *: col_read_str)
#define COL_MEMBER(src, type, m) \
	.source = src, .offset = offsetof(type, m), .read = COL_READER(((type *)0)->m)
#define CASE(m) COL_MEMBER(SRC_CASE, struct bench_case, m)
#define SPEC(m) COL_MEMBER(SRC_SPEC, struct case_spec, m)
#define RUN(m) COL_MEMBER(SRC_RUN, struct run_result, m)
#define ENV(m) COL_MEMBER(SRC_ENV, struct sysinfo_env, m)

/* run_columns.c: the columns of runs.csv after the identifying ones. */
extern const struct column run_columns[];
extern const size_t run_columns_count;

/* The case's counting-run total; empty when counting was unavailable
 * (runs.csv and summary.csv both show it). */
void col_get_syscalls(const struct col_row *x, struct col_value *v);

#endif
