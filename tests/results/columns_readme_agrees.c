// SPDX-License-Identifier: MIT
/*
 * columns_readme_agrees.c - the column list in results/README.md is the one
 * `bench columns --markdown` prints from the table in harness/results/columns.c:
 * names, types, units and descriptions, in order, to the byte. When a
 * column changes, tools/readme-columns.sh rewrites the README's block.
 */
#include "results/columns.h"
#include "support/testutil.h"

#include <stdlib.h>
#include <string.h>

#define BEGIN "<!-- columns: generated"
#define END "<!-- columns: end -->\n"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	for (int ch; m && (ch = fgetc(f)) != EOF;)
		fputc(ch, m);
	if (m)
		fclose(m);
	fclose(f);
	return buf;
}

/* Prints the first line where the two differ. */
static void say_first_difference(const char *readme, const char *table)
{
	size_t line = 1, i = 0, start = 0;

	for (; readme[i] && readme[i] == table[i]; i++) {
		if (readme[i] == '\n') {
			line++;
			start = i + 1;
		}
	}
	readme += start;
	table += start;
	fprintf(stderr, "results/README.md and `bench columns --markdown` differ at line %zu of the block:\n  README: %.*s\n  table:  %.*s\n",
		line, (int)strcspn(readme, "\n"), readme, (int)strcspn(table, "\n"), table);
	fprintf(stderr, "tools/readme-columns.sh rewrites the README's block from the table\n");
}

int main(void)
{
	const char *src = getenv("SOURCE_DIR");
	char path[4096], *readme, *table = NULL, *begin, *end;
	size_t len = 0;
	FILE *m = open_memstream(&table, &len);

	snprintf(path, sizeof(path), "%s/results/README.md", src ? src : ".");
	readme = slurp(path);
	CHECK(readme != NULL && m != NULL);
	if (!readme || !m)
		return test_report("columns_readme_agrees");
	columns_print_markdown(m);
	fclose(m);
	begin = strstr(readme, BEGIN);
	end = begin ? strstr(begin, END) : NULL;
	CHECK(begin != NULL && end != NULL);
	if (begin && end) {
		end[strlen(END)] = '\0';
		CHECK(strcmp(begin, table) == 0);
		if (strcmp(begin, table))
			say_first_difference(begin, table);
	}
	free(readme);
	free(table);
	return test_report("columns_readme_agrees");
}
