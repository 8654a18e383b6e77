// SPDX-License-Identifier: MIT
/*
 * plot_requires_gnuplot.c - with no gnuplot in PATH, `bench plot` prints one
 * line saying so and exits 2, before touching the results.
 */
#include "plot/plot.h"
#include "support/plot_synth.h"
#include "support/testutil.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	const char *tmp = test_tmpdir();
	char empty[512], dir[512], err[512], text[1024] = "";
	char *argv[] = { "plot", dir, NULL };
	size_t got = 0, lines = 0;
	FILE *f;

	snprintf(empty, sizeof(empty), "%s/empty-bin", tmp);
	snprintf(dir, sizeof(dir), "%s/20250101T000000Z-host", tmp);
	snprintf(err, sizeof(err), "%s/stderr", tmp);
	CHECK(mkdir(empty, 0755) == 0);
	CHECK(mkdir(dir, 0755) == 0);
	setenv("PATH", empty, 1);

	CHECK_EQ_U64(synth_plot_to(2, 2, argv, err), 2);
	f = fopen(err, "r");
	CHECK(f != NULL);
	if (f) {
		got = fread(text, 1, sizeof(text) - 1, f);
		fclose(f);
	}
	text[got] = '\0';
	for (size_t i = 0; i < got; i++)
		lines += text[i] == '\n';
	CHECK_EQ_U64(lines, 1);
	CHECK(strstr(text, "gnuplot not found") != NULL);
	test_cleanup_dir();
	return test_report("plot_requires_gnuplot");
}
