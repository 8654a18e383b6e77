// SPDX-License-Identifier: MIT
/*
 * plot_labels_apart.c - the labels of the syscalls-vs-speed chart overlap no
 * other label and no point (harness/plot/plot_labels.c). The points are those of
 * the README's chart, where labels put above every point collided
 * (copy_file_range and sendfile, full-buffer and mmap-memcpy, io_uring and
 * splice): the same points with every label above do overlap, so the data
 * can tell. Every label stays inside the axes.
 */
#include "plot/plot_internal.h"
#include "support/testutil.h"

#include <math.h>
#include <string.h>

static const struct {
	const char *label;
	double spm, mibs;
} readme[] = {
	{ "copy_file_range", 0.005, 3803 }, { "sendfile", 0.0099, 3831 },
	{ "parallel", 0.092, 3812 }, { "mmap", 0.085, 1718 },
	{ "full-buffer", 0.039, 541 }, { "mmap-memcpy", 0.113, 605 },
	{ "io_uring 1M", 1.04, 4538 }, { "splice 1M", 2.0, 4617 },
	{ "readwrite 128K", 16.0, 4150 }, { "stdio 128K", 16.0, 3831 },
	{ "direct 1M", 2.0, 668 }, { "lines", 512, 912 },
};
#define N (sizeof(readme) / sizeof(readme[0]))

static void points(struct plot_label *l)
{
	memset(l, 0, N * sizeof(*l));
	for (size_t i = 0; i < N; i++) {
		l[i].vx = readme[i].spm;
		l[i].vy = readme[i].mibs;
		l[i].len = strlen(readme[i].label);
	}
}

int main(void)
{
	struct plot_label l[N];
	struct plot_axes a;

	points(l);
	plot_layout_scatter(l, N, &a);
	CHECK(!plot_labels_overlap(l, N));
	for (size_t i = 0; i < N; i++) {
		CHECK(l[i].lx > pow(10, a.log_xmin) && l[i].lx < pow(10, a.log_xmax));
		CHECK(l[i].ly > 0 && l[i].ly < a.ymax);
		CHECK(l[i].align >= -1 && l[i].align <= 1);
	}
	CHECK(a.log_xmin < log10(0.005) && a.log_xmax > log10(512) && a.ymax >= 4617);

	/* every label centred above its point, as the chart used to draw them */
	for (size_t i = 0; i < N; i++) {
		l[i].ax = l[i].x;
		l[i].ay = l[i].y + 1.1;
		l[i].align = 0;
	}
	CHECK(plot_labels_overlap(l, N));
	return test_report("plot_labels_apart");
}
