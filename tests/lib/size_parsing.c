// SPDX-License-Identifier: MIT
/*
 * size_parsing.c - parse_size accepts exactly the sizes people write and
 * rejects the rest with the right error; format_size prints the shortest
 * exact form and parses back to the same number.
 */
#include "lib/units.h"
#include "support/testutil.h"

#include <errno.h>
#include <string.h>

struct parse_case {
	const char *text;
	int ret;
	uint64_t value;
};

static const struct parse_case parse_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "4096", 0, 4096 },
	{ "007", 0, 7 },
	{ "4097B", 0, 4097 },
	{ "4K", 0, 4096 },
	{ "4k", 0, 4096 },
	{ "4KB", 0, 4096 },
	{ "4KiB", 0, 4096 },
	{ "4kib", 0, 4096 },
	{ "200M", 0, 200ull << 20 },
	{ "200MiB", 0, 200ull << 20 },
	{ "1G", 0, 1ull << 30 },
	{ "1g", 0, 1ull << 30 },
	{ "2T", 0, 2ull << 40 },
	{ "1.5K", 0, 1536 },
	{ "1.5G", 0, 3ull << 29 },
	{ "1.50G", 0, 3ull << 29 },
	{ "0.5M", 0, 512ull << 10 },
	{ "0.25k", 0, 256 },
	{ "1.0009765625K", 0, 1025 },
	{ "0K", 0, 0 },
	{ "16383.999999999999999999999999999999999999999999T", -EINVAL, 0 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "15.9999999990686774253845214843750G", 0, (16ull << 30) - 1 },
	{ "16777215T", 0, 16777215ull << 40 },
	{ "", -EINVAL, 0 },
	{ "abc", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+5", -EINVAL, 0 },
	{ "10Q", -EINVAL, 0 },
	{ " 5", -EINVAL, 0 },
	{ "5 ", -EINVAL, 0 },
	{ "0.3K", -EINVAL, 0 },
	{ "1.5", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 },
	{ ".5K", -EINVAL, 0 },
	{ "K", -EINVAL, 0 },
	{ "5iB", -EINVAL, 0 },
	{ "5Ki", -EINVAL, 0 },
	{ "5KBB", -EINVAL, 0 },
	{ "5KiBs", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "5 K", -EINVAL, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "99999999999999999999999", -ERANGE, 0 },
	{ "16777216T", -ERANGE, 0 },
	{ "17179869184G", -ERANGE, 0 },
	{ "16383.9999999999999999T", -EINVAL, 0 },
};

static void test_parse_table(void)
{
	for (size_t i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		const struct parse_case *c = &parse_cases[i];
		uint64_t v = 12345;
		int ret = parse_size(c->text, &v);

		if (ret != c->ret)
			fprintf(stderr, "parse_size(\"%s\") = %d, expected %d\n",
				c->text, ret, c->ret);
		CHECK(ret == c->ret);
		if (c->ret == 0)
			CHECK_EQ_U64(v, c->value);
		else
			CHECK_EQ_U64(v, 12345);	/* untouched on error */
	}
}

struct format_case {
	uint64_t value;
	const char *text;
};

static const struct format_case format_cases[] = {
	{ 0, "0" },
	{ 1, "1" },
	{ 1023, "1023" },
	{ 1024, "1K" },
	{ 1536, "1536" },
	{ 3072, "3K" },
	{ 4096, "4K" },
	{ 4097, "4097" },
	{ 200ull << 20, "200M" },
	{ 3ull << 29, "1.5G" },
	{ 1ull << 30, "1G" },
	{ (1ull << 20) + 13, "1048589" },
	{ 1ull << 40, "1T" },
	{ 1024ull << 40, "1024T" },
	{ 5ull << 39, "2.5T" },
	{ UINT64_MAX, "18446744073709551615" },
};

static void test_format_table(void)
{
	char buf[64];

	for (size_t i = 0; i < sizeof(format_cases) / sizeof(format_cases[0]); i++) {
		format_size(format_cases[i].value, buf, sizeof(buf));
		if (strcmp(buf, format_cases[i].text))
			fprintf(stderr, "format_size(%llu) = \"%s\", expected \"%s\"\n",
				(unsigned long long)format_cases[i].value, buf,
				format_cases[i].text);
		CHECK(strcmp(buf, format_cases[i].text) == 0);
	}
	format_size(200ull << 20, buf, 3);	/* truncates, stays terminated */
	CHECK(strcmp(buf, "20") == 0);
}

/* format_size then parse_size gives back the number, over many shapes. */
static void test_round_trip(void)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char buf[64];

	for (int i = 0; i < 4000; i++) {
		uint64_t v, back = 0;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		switch (i % 4) {
		case 0: v = x >> (x & 63); break;		/* any size */
		case 1: v = (x & 0xffff) << (10 * (i % 5)); break; /* unit multiples */
		case 2: v = ((x & 0xff) << 30) + ((x >> 8 & 0xff) << 22); break;
		default: v = (uint64_t)i; break;
		}
		format_size(v, buf, sizeof(buf));
		CHECK(parse_size(buf, &back) == 0);
		CHECK_EQ_U64(back, v);
	}
}

int main(void)
{
	test_parse_table();
	test_format_table();
	test_round_trip();
	return test_report("size_parsing");
}
