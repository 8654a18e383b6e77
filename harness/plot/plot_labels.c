// SPDX-License-Identifier: MIT
/*
 * plot_labels.c - where the labels of a scatter chart go, so that none
 * overlaps another label or covers a point (syscalls-vs-speed: strategies
 * with close counts and speeds, copy_file_range and sendfile, full-buffer
 * and mmap-memcpy, sit side by side).
 *
 * The chart's axes are fixed here, not left to gnuplot's autoscale, and the
 * script fixes the plot area's margins, so positions in the plot area are
 * known in character cells (one cell: a character's width by a line's
 * height). Each label, in turn, takes the first of a few places around its
 * point (above, below, right, left, the diagonals, further up or down) that
 * overlaps least with the labels already placed, with every point, and with
 * the outside of the plot area. Its position goes back to data coordinates
 * for gnuplot, with its alignment.
 */
#include "plot_internal.h"

#include <math.h>
#include <string.h>

/*
 * The plot area of syscalls-vs-speed.gp in cells: its margins (screen 0.08
 * to 0.97 across, 0.12 to 0.88 up) of common.gp's 1000 x 620 picture, with
 * a cell of 7.5 x 15 pixels, a little more than the fonts' (Sans 10 in PNG,
 * Sans 11 in SVG), so that labels keep a margin.
 */
#define AREA_WIDTH ((0.97 - 0.08) * 1000 / 7.5)
#define AREA_HEIGHT ((0.88 - 0.12) * 620 / 15.0)
/* Half the size of a point's marker (pt 7, ps 1.6), in cells. */
#define MARK_HALF_W 0.9
#define MARK_HALF_H 0.45

static const struct {
	double dx, dy;	/* from the point to the label's anchor, cells */
	int align;	/* -1: text ends at the anchor, 0: centred, 1: starts */
} places[] = {
	{ 0, 1.1, 0 }, { 0, -1.2, 0 }, { 1.2, 0, 1 }, { -1.2, 0, -1 },
	{ 0.7, 1.0, 1 }, { -0.7, 1.0, -1 }, { 0.7, -1.1, 1 }, { -0.7, -1.1, -1 },
	{ 0, 2.2, 0 }, { 0, -2.3, 0 },
};

void plot_label_box(const struct plot_label *l, double box[4])
{
	double w = (double)l->len;

	box[0] = l->align < 0 ? l->ax - w : l->align > 0 ? l->ax : l->ax - w / 2;
	box[1] = l->ay - 0.5;
	box[2] = box[0] + w;
	box[3] = l->ay + 0.5;
}

static double overlap(const double a[4], const double b[4])
{
	double w = fmin(a[2], b[2]) - fmax(a[0], b[0]);
	double h = fmin(a[3], b[3]) - fmax(a[1], b[1]);

	return w > 0 && h > 0 ? w * h : 0;
}

/* How much a label at box collides: with labels 0..placed-1, every point,
 * and the outside of the area. */
static double place_cost(const struct plot_label *l, size_t n, size_t placed,
			 const double box[4])
{
	const double area[4] = { 0, 0, AREA_WIDTH, AREA_HEIGHT };
	double w = box[2] - box[0], h = box[3] - box[1];
	double cost = (w * h - overlap(box, area)) * 2;

	for (size_t j = 0; j < n; j++) {
		const double mark[4] = { l[j].x - MARK_HALF_W, l[j].y - MARK_HALF_H,
					 l[j].x + MARK_HALF_W, l[j].y + MARK_HALF_H };
		double other[4];

		cost += overlap(box, mark) * 4;
		if (j < placed) {
			plot_label_box(&l[j], other);
			cost += overlap(box, other) * 4;
		}
	}
	return cost;
}

static void plot_place_labels(struct plot_label *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double best = INFINITY;
		size_t pick = 0;

		for (size_t k = 0; k < sizeof(places) / sizeof(places[0]); k++) {
			double box[4], cost;

			l[i].ax = l[i].x + places[k].dx;
			l[i].ay = l[i].y + places[k].dy;
			l[i].align = places[k].align;
			plot_label_box(&l[i], box);
			cost = place_cost(l, n, i, box);
			if (cost < best - 1e-9) {
				best = cost;
				pick = k;
			}
		}
		l[i].ax = l[i].x + places[pick].dx;
		l[i].ay = l[i].y + places[pick].dy;
		l[i].align = places[pick].align;
	}
}

/* A round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of
 * ten), the first at least v: the top of the y axis. */
static double nice_ceiling(double v)
{
	static const double steps[] = { 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10 };
	double p = pow(10, floor(log10(v)));

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= v)
			return steps[i] * p;
	return 10 * p;
}

static void plot_scatter_axes(const struct plot_label *l, size_t n, struct plot_axes *a)
{
	double lo = INFINITY, hi = -INFINITY, top = 0;

	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, log10(l[i].vx));
		hi = fmax(hi, log10(l[i].vx));
		top = fmax(top, l[i].vy);
	}
	if (!n || hi - lo < 1e-9) {
		lo = n ? lo - 0.5 : 0;
		hi = n ? hi + 0.5 : 1;
	}
	/* room for the labels beyond the outer points, as gnuplot's offsets */
	a->log_xmin = lo - 0.08 * (hi - lo);
	a->log_xmax = hi + 0.08 * (hi - lo);
	a->ymax = nice_ceiling(top > 0 ? top * 1.12 : 1);
}

void plot_layout_scatter(struct plot_label *l, size_t n, struct plot_axes *a)
{
	double span;

	plot_scatter_axes(l, n, a);
	span = a->log_xmax - a->log_xmin;
	for (size_t i = 0; i < n; i++) {
		l[i].x = (log10(l[i].vx) - a->log_xmin) / span * AREA_WIDTH;
		l[i].y = l[i].vy / a->ymax * AREA_HEIGHT;
	}
	plot_place_labels(l, n);
	for (size_t i = 0; i < n; i++) {
		l[i].lx = pow(10, a->log_xmin + l[i].ax / AREA_WIDTH * span);
		l[i].ly = l[i].ay / AREA_HEIGHT * a->ymax;
	}
}

bool plot_labels_overlap(const struct plot_label *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double a[4];

		plot_label_box(&l[i], a);
		for (size_t j = 0; j < n; j++) {
			const double mark[4] = { l[j].x - MARK_HALF_W, l[j].y - MARK_HALF_H,
						 l[j].x + MARK_HALF_W, l[j].y + MARK_HALF_H };
			double b[4];

			plot_label_box(&l[j], b);
			if (overlap(a, mark) > 0 || (j != i && overlap(a, b) > 0))
				return true;
		}
	}
	return false;
}
