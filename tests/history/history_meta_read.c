// SPDX-License-Identifier: MIT
/*
 * history_meta_read.c - what `bench history` reads from a meta.json
 * (history_meta_parse, SQLite's JSON functions): the top level's
 * schema_version, the first build_type and git_describe at any depth (the
 * commit out of the describe), the start by the rank of its name; version 1
 * files as version 2 ones; anything that is not one JSON object refused.
 */
#include "history/history_internal.h"
#include "support/testutil.h"

#include <errno.h>
#include <string.h>

static struct history_meta m;

static int parse(const char *text)
{
	return history_meta_parse(text, strlen(text), &m);
}

static void versions(void)
{
	CHECK_EQ_U64(parse("{\"schema_version\": 1, \"bench\": {\"git_describe\": \"v0.1-3-gabc1234-dirty\","
			   " \"build_type\": \"Release\"}, \"start_utc\": \"2025-12-01T10:00:00.123Z\"}"), 0);
	CHECK_EQ_U64(m.version, 1);
	CHECK(strcmp(m.build_type, "Release") == 0);
	CHECK(strcmp(m.commit, "abc1234-dirty") == 0);
	CHECK(strcmp(m.started, "2025-12-01T10:00:00.123Z") == 0);
	CHECK_EQ_U64(parse("{\"schema_version\": 2, \"bench\": {\"git_describe\": \"unknown\"}}"), 0);
	CHECK_EQ_U64(m.version, 2);
	CHECK(strcmp(m.commit, "") == 0);
	/* not an integer, or not at the top: no version */
	CHECK_EQ_U64(parse("{\"schema_version\": \"2\", \"x\": {\"schema_version\": 5}}"), 0);
	CHECK_EQ_U64(m.version, 0);
}

static void which_value(void)
{
	CHECK_EQ_U64(parse("{\"started\": \"x\", \"a\": [[{\"build_type\": \"A\"}]],"
			   " \"build_type\": \"B\", \"b\": {\"start_utc\": \"y\"}}"), 0);
	CHECK(strcmp(m.build_type, "A") == 0);
	CHECK(strcmp(m.started, "y") == 0);
	CHECK_EQ_U64(parse("{\"build_type\": 7, \"start\": \"s\", \"started_utc\": \"t\"}"), 0);
	CHECK(strcmp(m.build_type, "") == 0);
	CHECK(strcmp(m.started, "t") == 0);
	CHECK_EQ_U64(parse("{\"build_type\": \"a\\\"b\\u00e9\"}"), 0);
	CHECK(strcmp(m.build_type, "a\"b\xc3\xa9") == 0);
}

static void refused(void)
{
	static const char *const bad[] = {
		"", "[]", "\"text\"", "{", "{\"build_type\": ", "{} x", "{\"a\":1}{\"b\":2}",
		"{\"a\": tru}", "{'a': 1}",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ_U64(parse(bad[i]), -EINVAL);
	CHECK_EQ_U64(history_meta_parse("{}\0{", 4, &m), -EINVAL);
	CHECK_EQ_U64(history_meta_parse("{}", 2, &m), 0);
}

int main(void)
{
	versions();
	which_value();
	refused();
	return test_report("history_meta_read");
}
