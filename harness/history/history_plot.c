// SPDX-License-Identifier: MIT
/*
 * history_plot.c - `bench history plot [--case GLOB] [--out DIR]`: per
 * workload, each case's median MiB/s over the commits (history_series.c),
 * with the band from the slowest to the fastest run of each commit and the
 * level shifts of `bench history changes` circled.
 *
 * It goes through `bench plot`'s machinery (plot_own_chart): the data file
 * plot-history.dat and the variables are written here, plots/history.gp
 * draws one picture per workload (history-<workload>.png and .svg) and all
 * of them stacked (history.png and .svg), in DIR (default: a folder
 * `history` beside the database).
 */
#include "history_internal.h"
#include "lib/fsinfo.h"
#include "plot/plot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Commits labelled on the x axis at most; the others get a tic mark only. */
#define PLOT_MAX_LABELS 40

struct hplot {
	struct plot_place at;
	char env[512];		/* the class: "host vm, Linux 6.1, ext4, build Release" */
	const struct history_set *set;
	double alpha, min_shift;
	char workloads[16][64];
	size_t nworkloads;
};

/* ------------------------------------------------------------- data -- */

static double mib_s(uint64_t size, double ns)
{
	return plot_mbs(size, ns);
}

/* One case's block: commit, median, slowest, fastest (MiB/s). */
static void write_series(FILE *f, const struct history_series *se, size_t ncommits)
{
	fprintf(f, "# %s\n", se->label);
	for (size_t k = 0; k < ncommits; k++)
		if (!isnan(se->median_ns[k]))
			fprintf(f, "%zu %.2f %.2f %.2f\n", k, mib_s(se->size, se->median_ns[k]),
				mib_s(se->size, se->max_ns[k]), mib_s(se->size, se->min_ns[k]));
	fputs("\n\n", f);
}

/* The level shifts of the series, as points (commit, MiB/s, line type,
 * "sha7 +x%"), into text. Their number, or -ENOMEM. */
static long shift_points(const struct history_set *s, const struct history_series *se,
			 const struct hplot *hp, int lt, char *text, size_t n)
{
	struct history_change c[64];
	long k = history_change_points(se, s->ncommits, hp->alpha, hp->min_shift, c, 64);
	size_t len = strlen(text);

	for (long i = 0; i < k && len < n; i++) {
		char sha[16];

		plot_clean(s->commits[c[i].at].sha, sha, 8);
		/* throughput moves the other way from time */
		len += (size_t)snprintf(text + len, n - len, "%zu %.2f %d \"%s %+.1f%%\"\n", c[i].at,
					mib_s(se->size, se->median_ns[c[i].at]), lt, sha,
					(c[i].before / c[i].after - 1) * 100);
	}
	return k;
}

/* Appends "v " to a list of numbers for gnuplot's word(). */
static void list_add(char *list, size_t n, long v)
{
	size_t len = strlen(list);

	snprintf(list + len, n - len, "%ld ", v);
}

/*
 * The cases of one workload from series *i on, then the block of its level
 * shifts when it has any (an empty block would shift gnuplot's index).
 */
static long write_workload(struct hplot *hp, struct chart_out *out, size_t *i,
			   long *block, char *names, size_t names_n, char *lists[4])
{
	const struct history_set *s = hp->set;
	const char *wl = s->series[*i].workload;
	long first = *block, nshift = 0, k;
	static char shifts[16384];

	shifts[0] = '\0';
	for (; *i < s->nseries && strcmp(s->series[*i].workload, wl) == 0; (*i)++) {
		const char *slash = strchr(s->series[*i].label, '/');
		char title[192];
		size_t len = strlen(names);

		write_series(out->f, &s->series[*i], s->ncommits);
		plot_clean(slash ? slash + 1 : s->series[*i].label, title, sizeof(title));
		snprintf(names + len, names_n - len, "'%s' ", title);
		k = shift_points(s, &s->series[*i], hp, (int)(*block - first + 1),
				 shifts, sizeof(shifts));
		if (k < 0)
			return k;
		list_add(lists[3], 8192, k > 0);
		nshift += k;
		(*block)++;
	}
	list_add(lists[0], 1024, first);
	list_add(lists[1], 1024, *block - first);
	list_add(lists[2], 1024, nshift ? *block : -1L);
	if (nshift) {
		fprintf(out->f, "# level shifts of %s: commit MiB/s case label\n%s\n\n", wl, shifts);
		list_add(lists[3], 8192, 0);
		(*block)++;
	}
	plot_clean(wl, hp->workloads[hp->nworkloads], sizeof(hp->workloads[0]));
	hp->nworkloads++;
	return 0;
}

/* The x tics: the short hash of every step-th commit. */
static void xtics(const struct history_set *s, char *out, size_t n)
{
	size_t step = (s->ncommits + PLOT_MAX_LABELS - 1) / PLOT_MAX_LABELS, len = 1;

	snprintf(out, n, "(");
	for (size_t k = 0; k < s->ncommits && len < n; k += step ? step : 1) {
		char sha[16];

		plot_clean(s->commits[k].sha, sha, 8);
		len += (size_t)snprintf(out + len, n - len, "%s'%s' %zu", k ? ", " : "", sha, k);
	}
	if (len < n)
		snprintf(out + len, n - len, ")");
}

/* "30 commits, 1a2b3c4 to 5d6e7f8": what the x axis spans. */
static void commit_span(const struct history_set *s, char *out, size_t n)
{
	char a[16] = "", b[16] = "";

	if (s->ncommits) {
		plot_clean(s->commits[0].sha, a, 8);
		plot_clean(s->commits[s->ncommits - 1].sha, b, 8);
	}
	snprintf(out, n, "Throughput over %zu commit%s%s%s%s%s (median per commit; bold: a level shift, its band slowest to fastest rep)",
		 s->ncommits, s->ncommits == 1 ? "" : "s", s->ncommits ? ", " : "", a,
		 s->ncommits > 1 ? " to " : "", s->ncommits > 1 ? b : "");
}

static long history_chart(void *arg, struct chart_out *out)
{
	struct hplot *hp = arg;
	static char names[8192], first[1024], count[1024], shifts[1024], wls[1100], xt[2048];
	static char banded[8192];
	char *lists[4] = { first, count, shifts, banded }, base[PATH_MAX + 16], title[512];
	long block = 0;

	names[0] = first[0] = count[0] = shifts[0] = wls[0] = banded[0] = '\0';
	hp->nworkloads = 0;
	for (size_t i = 0; i < hp->set->nseries && hp->nworkloads < 16;)
		if (write_workload(hp, out, &i, &block, names, sizeof(names), lists))
			return -1;
	for (size_t w = 0; w < hp->nworkloads; w++)
		snprintf(wls + strlen(wls), sizeof(wls) - strlen(wls), "%s ", hp->workloads[w]);
	if (!block)
		snprintf(out->why, sizeof(out->why), "no case has runs in the history");
	xtics(hp->set, xt, sizeof(xt));
	snprintf(base, sizeof(base), "%s/history", hp->at.dir);
	commit_span(hp->set, title, sizeof(title));
	plot_var_heading(&out->vars, title, hp->env);
	plot_var_str(&out->vars, "outbase", base);
	plot_var_str(&out->vars, "names", names);
	plot_var_str(&out->vars, "wls", wls);
	plot_var_str(&out->vars, "wlfirst", first);
	plot_var_str(&out->vars, "wlcount", count);
	plot_var_str(&out->vars, "wlshift", shifts);
	plot_var_str(&out->vars, "banded", banded);
	plot_var_str(&out->vars, "xt", xt);
	plot_var_int(&out->vars, "nwl", (long)hp->nworkloads);
	plot_var_int(&out->vars, "ncommits", (long)hp->set->ncommits);
	return block;
}

/* ------------------------------------------------------------ setup -- */

/* The output folder (made when missing), gnuplot and the scripts. 0 or the exit code. */
static int hplot_setup(struct hplot *hp, const struct history_plot_opts *o, const struct history_io *io)
{
	const char *slash = strrchr(o->db, '/');
	char made[PATH_MAX];
	int err;

	if (o->out)
		snprintf(hp->at.dir, sizeof(hp->at.dir), "%s", o->out);
	else
		snprintf(hp->at.dir, sizeof(hp->at.dir), "%.*shistory",
			 slash ? (int)(slash - o->db + 1) : 0, o->db);
	if (strpbrk(hp->at.dir, "\"'\\")) {
		fprintf(io->err, "%s: %s: quotes or backslashes in the folder name are not supported\n", io->who, hp->at.dir);
		return 2;
	}
	if (!plot_find_gnuplot(hp->at.gnuplot, sizeof(hp->at.gnuplot))) {
		fprintf(io->err, "%s: gnuplot not found in PATH; install it (Debian: apt install gnuplot-nox) and run it again\n", io->who);
		return 2;
	}
	if (plot_find_scripts(hp->at.plots_dir, sizeof(hp->at.plots_dir))) {
		fprintf(io->err, "%s: the gnuplot scripts (plots/*.gp) were not found; set COPYBENCH_PLOTS_DIR to their folder\n", io->who);
		return 1;
	}
	err = fs_make_dirs(hp->at.dir, made, sizeof(made));
	if (err) {
		fprintf(io->err, "%s: %s: %s\n", io->who, hp->at.dir, strerror(-err));
		return 1;
	}
	return 0;
}

/* --------------------------------------------------------------- run -- */

int history_plot(const struct history_plot_opts *o, const struct history_io *io)
{
	struct history_set s;
	struct history_db h;
	struct hplot *hp;
	int ret;

	hp = calloc(1, sizeof(*hp));
	if (!hp)
		return 1;
	hp->alpha = o->alpha;
	hp->min_shift = o->min_shift;
	ret = hplot_setup(hp, o, io);
	if (ret)
		goto out_free;
	ret = 2;
	if (history_db_open(&h, o->db, false, io))
		goto out_free;
	if (history_set_load(&h, &o->f, &s, io))
		goto out_close;
	hp->set = &s;
	history_env_text(&s.env, hp->env, sizeof(hp->env));
	fflush(io->out);
	ret = plot_own_chart(&hp->at, "history", history_chart, hp) ? 1 : 0;
	for (size_t w = 0; !ret && w < hp->nworkloads; w++)
		fprintf(io->out, "history-%s: wrote %s/history-%s.png and .svg\n",
			hp->workloads[w], hp->at.dir, hp->workloads[w]);
	history_set_free(&s);
out_close:
	history_db_close(&h);
out_free:
	free(hp);
	return ret;
}
