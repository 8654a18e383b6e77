/* SPDX-License-Identifier: MIT */
/*
 * plot_internal.h - the pieces of `bench plot` shared by its files:
 *   plot_data.c       summary.csv loaded into rows, and slices of them
 *   plot_gnuplot.c    data files, gnuplot variables, finding and running gnuplot
 *   plot_charts.c     the charts, one function each, and their table
 *   plot_labels.c     labels of a scatter chart placed apart
 *   plot_hyperfine.c  the chart of hyperfine's exports
 *   plot_run.c        the charts of results folders: plot_results (plot.h)
 * Private to harness/plot/: another room uses plot.h.
 *
 * The slice: a chart about "the strategies" compares like with like, so it
 * takes one workload (the default workload when it was run), one cache state
 * (warm when it was run), the largest size and the dataset measured most at
 * that size. Where a strategy ran with several buffer sizes, it shows its
 * fastest one and says which in the label. Rows that do other work than a
 * page-cache copy say so in their label (device I/O); cloned rows have no
 * bar, their time being no copy speed, but a note saying "cloned" where the
 * bar would be.
 *
 * Several results folders (or one run of several filesystems, bench --fs)
 * hold rows of several environments: a host, kernel, filesystem and CPU,
 * within one folder. They are never pooled: the charts of one environment
 * show the environment with the most results (its rows come first, and
 * nrows counts only them), and the `compare` chart puts the environments
 * side by side, each labelled by what differs between them.
 */
#ifndef COPYBENCH_PLOT_INTERNAL_H
#define COPYBENCH_PLOT_INTERNAL_H

#ifndef COPYBENCH_ROOM_PLOT
#error "plot_internal.h is private to harness/plot/; include plot.h"
#endif

#include "plot.h"
#include "lib/csv.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One case of summary.csv, parsed. Strings point into the csv_table. */
struct plot_row {
	const char *workload;
	const char *strategy;
	const char *dataset;
	const char *cache;
	const char *status;
	const char *cls;	/* summary.csv's class; "" in older results */
	const char *limit_row;	/* the limit row pct_of_limit divides by, or "" */
	uint64_t size;
	uint64_t buffer;
	uint64_t batch_lines;	/* channels: lines per send, 0 a buffer's worth */
	double median_ns, min_ns, max_ns;
	double ci_lo_ns, ci_hi_ns;	/* the median's 95 % interval; 0: none (too few
				 * runs, or older results) */
	double spm;		/* syscalls per MiB, 0 when not counted */
	double user_ns, sys_ns;
	uint64_t files;		/* trees: files; 0 elsewhere or in older results */
	const char *file_size;	/* trees: bytes per file or "src"; "" or "0" elsewhere */
	double files_per_s;	/* trees */
	bool ok;		/* status ok and a median to show */
	size_t env;		/* index in plot_ctx.envs */
};

/* The environment columns an environment is told apart by. */
enum { PLOT_HOST, PLOT_KERNEL, PLOT_FS, PLOT_CPU, PLOT_NENV_FIELDS };

#define PLOT_MAX_ENVS 64

/* Where rows come from: one results folder and one machine, kernel,
 * filesystem and CPU in it. */
struct plot_env {
	size_t input;				/* index in plot_ctx.inputs */
	const char *field[PLOT_NENV_FIELDS];	/* "" when the column is absent */
	const char *origin;	/* how bench got the filesystem: plot_fs_origin() */
	char label[192];	/* what tells it from the others (compare) */
};

struct plot_ctx {
	char dir[PATH_MAX];	/* where the charts go */
	const char *inputs[PLOT_MAX_INPUTS];	/* results folders read */
	size_t ninputs;
	char plots_dir[PATH_MAX];
	char gnuplot[PATH_MAX];
	struct csv_table sums[PLOT_MAX_INPUTS];
	struct plot_row *rows;
	size_t nrows;		/* the rows of the main environment (first) */
	size_t nall;		/* every row */
	struct plot_env envs[PLOT_MAX_ENVS];
	size_t nenvs;
	size_t main_env;
	char env[512];		/* "host h, Linux k, fs ext4" */
	int errors;
	/* Work arrays for the charts, each of nrows (v: twice that). */
	const struct plot_row **v, **w;
};

/* The part of the results one chart looks at. NULL or 0: any. */
struct plot_slice {
	const char *workload;
	const char *dataset;
	const char *cache;
	uint64_t size;
	bool by_env;		/* only the rows of environment env */
	size_t env;
	/* trees of one shape: files of file_bytes each, named "500 x 4K" in
	 * titles in place of size (all the files' bytes); 0 otherwise */
	uint64_t files, file_bytes;
};

/* Writes one chart's data and variables: how many blocks or points it wrote;
 * 0 when there is nothing to draw (why says so); <0 on an error. */
typedef long (*chart_write_fn)(struct plot_ctx *ctx, struct chart_out *out);

/* plot_data.c: loading */
double plot_num(const char *s);
/* plot_palette.c: a strategy's colour, the same in every chart ("#4878a8"),
 * and as the integer gnuplot's "lc rgb variable" reads. */
const char *plot_colour(const char *name);
long plot_colour_int(const char *name);
/* How far apart two colours (0xRRGGBB) look; rows of a chart are at least
 * PLOT_COLOURS_APART apart. */
#define PLOT_COLOURS_APART 48.0
double plot_colour_distance(long a, long b);
/* The colours of a chart's n rows (names: each row's strategy, in draw
 * order): shades of each strategy's colour, every two at least
 * PLOT_COLOURS_APART apart where the shades allow; a strategy's first row
 * its own colour unless another's is too close. */
void plot_row_colours(const char *const *names, size_t n, long *out);
void plot_size_label(uint64_t b, char *out, size_t n);
/* What a label says of a row's class: " (device I/O)", " (command)", or "". */
const char *plot_class_note(const char *cls);
void plot_row_label(const struct plot_row *r, char *out, size_t n);
/* Why r has no bar: "unavailable", "failed", "cloned" or "not run". */
const char *plot_no_bar_note(const struct plot_row *r);
int plot_load_summary(struct plot_ctx *ctx);
void plot_free_summary(struct plot_ctx *ctx);
/* The environment fields that differ between envs, as a mask of 1 << PLOT_*. */
unsigned plot_env_differs(const struct plot_ctx *ctx);

/* plot_slice.c: slicing */
bool plot_in_slice(const struct plot_row *r, const struct plot_slice *s);
size_t plot_count(const struct plot_ctx *ctx, const struct plot_slice *s);
const char *plot_main_workload(const struct plot_ctx *ctx);
const char *plot_main_dataset(const struct plot_ctx *ctx, const struct plot_slice *s);
bool plot_pick_slice(const struct plot_ctx *ctx, const char *workload,
		     const char *cache, struct plot_slice *s);
size_t plot_select(const struct plot_ctx *ctx, const struct plot_slice *s,
		   const char *strategy, const struct plot_row **out);
int plot_cmp_buffer(const void *a, const void *b);
/* qsort: by median, fastest first. */
int plot_cmp_median(const void *a, const void *b);
int plot_cmp_size(const void *a, const void *b);
size_t plot_dedupe(const struct plot_row **v, size_t n,
		   int (*cmp)(const void *, const void *));
size_t plot_best_rows(const struct plot_ctx *ctx, const struct plot_slice *s,
		      const struct plot_row **out);
bool plot_first_strategy(const struct plot_ctx *ctx, size_t i);
bool plot_first_workload(const struct plot_ctx *ctx, size_t i);
void plot_slice_text(const struct plot_slice *s, char *out, size_t n);

/* plot_gnuplot.c */
void plot_var_title(struct plot_vars *v, const struct plot_ctx *ctx,
		    const char *what, const struct plot_slice *s);
/*
 * Draws one chart with write() (plot-<chart>.dat, then gnuplot); a chart with
 * nothing to draw is skipped with a line saying why and its old drawings
 * removed. 0 drawn or skipped, -1 on an error (counted in ctx->errors).
 */
int plot_chart(struct plot_ctx *ctx, const char *chart, chart_write_fn write);

/* plot_labels.c: the labelled points of a scatter chart, labels apart. */
struct plot_label {
	double vx, vy;		/* the point: x (log scale) and y in data */
	size_t len;		/* the label's length in characters */
	double x, y;		/* the point in the plot area, in cells */
	double ax, ay;		/* the label's anchor, in cells */
	int align;		/* -1 ends at the anchor, 0 centred, 1 starts there */
	double lx, ly;		/* the anchor in data */
};

struct plot_axes {
	double log_xmin, log_xmax;	/* log10 of the x range */
	double ymax;			/* the y range is [0, ymax] */
};

/* Fixes the axes for the points l[].vx/vy and places every label. */
void plot_layout_scatter(struct plot_label *l, size_t n, struct plot_axes *a);
/* A placed label's box in cells: left, bottom, right, top. */
void plot_label_box(const struct plot_label *l, double box[4]);
/* Does any label overlap another label or any point? */
bool plot_labels_overlap(const struct plot_label *l, size_t n);

/* plot_charts.c: every chart in order (the hyperfine one included). */
void plot_all_charts(struct plot_ctx *ctx);

/* plot_charts.c: what the charts share. The variables of a chart of several
 * curves or panels; "median slowest fastest" in MiB/s, a bar and its
 * min-max whisker; the slice most charts show (false, why filled, when
 * nothing succeeded). */
void chart_blocks_vars(struct plot_vars *vars, const char *list_name,
		       const char *list, long nblocks);
void chart_bar_spread(FILE *f, const struct plot_row *r);
bool chart_main_slice(const struct plot_ctx *ctx, struct plot_slice *s,
		      struct chart_out *out);

/* The charts in files of their own: plot_cpu_split.c, plot_warm_cold.c,
 * plot_compare.c. */
long chart_cpu_split(struct plot_ctx *ctx, struct chart_out *out);
long chart_warm_cold(struct plot_ctx *ctx, struct chart_out *out);
long chart_compare(struct plot_ctx *ctx, struct chart_out *out);

/* plot_hyperfine.c: hyperfine's whole-process timings, warm and cold. */
long chart_hyperfine(struct plot_ctx *ctx, struct chart_out *out);

#endif
