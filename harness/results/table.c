// SPDX-License-Identifier: MIT
/*
 * table.c - the terminal table: one group per workload, dataset, size,
 * cache state, part size and filesystem (bench --fs: the groups of one cell
 * follow each other, one per filesystem); the page-cache copies ranked fastest first,
 * then the rows that do other work (device I/O, clones) apart and not
 * ranked; then what could not run here, with the reason.
 */
#include "report.h"
#include "lib/stats.h"
#include "lib/units.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)



struct row_ref {
	const struct runner *r;
	const struct case_summary *sums;
	size_t i;
};

static bool ranked(const struct case_summary *s)
{
	return s->cls == CLASS_PAGE_CACHE || s->cls == CLASS_LIMIT;
}

/* Ranked rows first, then rows that do other work; failed last; fastest first. */
static int row_cmp(const void *a, const void *b)
{
	const struct row_ref *x = a, *y = b;
	const struct bench_case *cx = &x->r->cases[x->i], *cy = &y->r->cases[y->i];
	const struct case_summary *sx = &x->sums[x->i], *sy = &y->sums[y->i];
	int okx = cx->state == CASE_OK && sx->verified, oky = cy->state == CASE_OK && sy->verified;
	double mx = sx->st.median, my = sy->st.median;

	if (ranked(sx) != ranked(sy))
		return ranked(sy) - ranked(sx);
	/* commands after the copies, before the rows of other work */
	if ((sx->cls == CLASS_COMMAND) != (sy->cls == CLASS_COMMAND))
		return (sy->cls == CLASS_COMMAND) - (sx->cls == CLASS_COMMAND);
	if (okx != oky)
		return oky - okx;
	return (mx > my) - (mx < my);
}

/*
 * A size for a heading: exact when short ("64M", "4096"), else rounded with
 * the exact count beside it ("2.9M (3000000 bytes)"), never a bare count
 * of bytes a reader must divide.
 */
static void heading_size(uint64_t bytes, char *out, size_t n)
{
	static const char units[] = "KMGTP";
	double v = (double)bytes;
	int u = -1;

	format_size(bytes, out, n);
	if (strspn(out, "0123456789") != strlen(out) || bytes < 100000)
		return;
	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(out, n, "%.1f%c (%llu bytes)", v, units[u], (unsigned long long)bytes);
}

static void print_group_header(FILE *f, const struct bench_case *c, bool capped)
{
	char size[48], part[32], each[64];
	bool tree = c->spec.files;

	heading_size(c->spec.size, size, sizeof(size));
	if (tree) {
		/* "tree · 500 x 4K (2000K in all)": the kind would say tree again */
		dataset_size_name(c->spec.ds, each, sizeof(each));
		fprintf(f, "\n%s · %s (%s in all) · %s cache", c->spec.wl->name, each, size,
			cache_mode_name(c->cache));
	} else {
		fprintf(f, "\n%s · %s · %s · %s cache", c->spec.wl->name,
			dataset_kind_name(c->spec.ds->kind), size, cache_mode_name(c->cache));
	}
	if (c->spec.part_size) {
		format_size(c->spec.part_size, part, sizeof(part));
		fprintf(f, " · parts of %s", part);
	}
	if (c->env)
		fprintf(f, " · on %s", c->env->fs_type);
	if (capped)
		fprintf(f, " · per-line cases on %s whatever --size: their MiB/s does not depend on size",
			size);
	if (tree)
		fprintf(f, "\n  %-16s %7s %8s %10s %8s %3s %19s %6s %6s %8s %9s %8s %8s %s\n",
			"strategy", "buffer", "files/s", "MiB/s", "±95%", "tie", "min-max MiB/s", "CV",
			"rCV", "xfastest", "syscalls", "per file", "verified", "noise");
	else
		fprintf(f, "\n  %-16s %7s %6s %10s %8s %3s %19s %6s %6s %8s %9s %8s %7s %8s %s\n",
			"strategy", "buffer", "batch", "MiB/s", "±95%", "tie", "min-max MiB/s", "CV",
			"rCV", "xfastest", "syscalls", "per MiB", "%limit", "verified", "noise");
}

/* Counted runs whose output crossed the dirty-background threshold. */
static size_t runs_over_threshold(const struct bench_case *c)
{
	size_t k = 0;

	for (size_t i = 0; i < c->nruns; i++)
		k += c->runs[i].verified && !c->runs[i].retried && c->runs[i].over_threshold;
	return k;
}

static void row_note_one(const struct bench_case *c, const struct case_summary *s,
			 char *out, size_t n);

/* Counted runs that wrote where bench had just removed an earlier output. */
static size_t runs_reused(const struct bench_case *c)
{
	size_t k = 0;

	for (size_t i = 0; i < c->nruns; i++)
		k += c->runs[i].verified && !c->runs[i].retried &&
		     c->runs[i].destination == DESTINATION_REUSED;
	return k;
}

/* A row some of whose runs wrote where many files were just freed says so
 * after its other note. */
static void note_reused(const struct bench_case *c, const struct case_summary *s,
			char *out, size_t n)
{
	size_t reused = runs_reused(c), len = strlen(out);

	if (reused && len < n)
		snprintf(out + len, n - len, "%s%zu/%zu runs into just-freed files (reused)",
			 len ? "; " : "  ", reused, s->counted);
}

/* What the row's figures are not, said at its end. */
static void row_note(const struct bench_case *c, const struct case_summary *s,
		     char *out, size_t n)
{
	out[0] = '\0';
	row_note_one(c, s, out, n);
	note_reused(c, s, out, n);
}

/* The first thing the row's figures are not. */
static void row_note_one(const struct bench_case *c, const struct case_summary *s,
			 char *out, size_t n)
{
	size_t over = runs_over_threshold(c);

	if (over && (s->cls == CLASS_PAGE_CACHE || s->cls == CLASS_COMMAND)) {
		snprintf(out, n, "  %zu/%zu runs' output over the dirty-background threshold: writeback inside the clock%s",
			 over, s->counted, s->cls == CLASS_COMMAND ? "; whole process" : "");
		return;
	}
	if (s->cls == CLASS_COMMAND)
		snprintf(out, n, "  whole process: start-up included%s",
			 c->shared_extents ? "; shared extents: it cloned" : "");
	else if (s->cls == CLASS_CLONE)
		snprintf(out, n, "  shared extents: cloned, not a copy speed");
	else if (s->cls == CLASS_DEVICE)
		snprintf(out, n, "  device I/O around the page cache: not ranked with copies");
	else if (c->metadata_cached)
		snprintf(out, n, "  files evicted; folders and inodes stay cached (--drop-caches as root drops them)");
	else if (c->direct_refused)
		snprintf(out, n, "  %.150s", c->why);
	else if (s->pct_of_limit > 100.5)
		snprintf(out, n, "  %.0f%% of %s: that row is no ceiling here%s", s->pct_of_limit,
			 s->limit_row, c->cache == CACHE_COLD ? " (the host may cache the disk)" : "");
	else if (s->pct_of_concurrent >= 0)
		snprintf(out, n, "  %.0f%% of %s (concurrent)", s->pct_of_concurrent,
			 s->concurrent_row);
}

/* Two modes: said at the row's end, before what row_note says. */
static void mark_modes(const struct case_summary *s, char *note, size_t n)
{
	char rest[200];
	const char *r = rest;

	if (s->modes.count != 2)
		return;
	snprintf(rest, sizeof(rest), "%s", note);
	while (*r == ' ')
		r++;
	snprintf(note, n, "  2 modes (below)%s%.200s", *r ? "; " : "", r);
}

/* The field width that right-aligns ci in 7 columns: "±" is two bytes. */
static int ci_width(const char *ci)
{
	return strncmp(ci, "±", strlen("±")) ? 7 : 8;
}

/* "±2.1%" and the tie mark "=" ("-" for a row not ranked). */
static void format_interval(const struct case_summary *s, char *ci, size_t nci, char *tie,
			    size_t ntie)
{
	snprintf(ci, nci, s->ci_pct < 0 ? "-" : s->ci_pct < 9.95 ? "±%.1f%%" : "±%.0f%%",
		 s->ci_pct);
	snprintf(tie, ntie, "%s", !s->rank ? "-" : s->tied ? "=" : "");
}

/* A command row's ratio to the fastest command with its interval: the
 * figure quoted as "N x cp -r" (summary.c: ratio_interval). */
static void note_ratio_interval(const struct case_summary *s, char *note, size_t n)
{
	size_t len = strlen(note);

	if (s->cls != CLASS_COMMAND || s->ratio_lo <= 0 || len >= n)
		return;
	snprintf(note + len, n - len, "; xfastest %.2f-%.2fx (the medians' intervals)",
		 s->ratio_lo, s->ratio_hi);
}

static void print_row(FILE *f, const struct bench_case *c, const struct case_summary *s)
{
	char ci[16], tie[4];
	char buf[32] = "-", sc[32] = "n/a", per[32] = "n/a", lim[16] = "-", batch[16] = "-";
	double lo = s->st.max > 0 ? (double)c->spec.size / MIB / (s->st.max / 1e9) : 0;
	double hi = s->st.min > 0 ? (double)c->spec.size / MIB / (s->st.min / 1e9) : 0;
	char range[40], ratio[16] = "-", note[256] = "", noise[32] = "-", runs[32];

	if (c->spec.buffer)
		format_size(c->spec.buffer, buf, sizeof(buf));
	if (c->spec.channel)
		snprintf(batch, sizeof(batch), c->spec.batch_lines ? "%u" : "buf", c->spec.batch_lines);
	if (c->spec.wl->flags & WORKLOAD_UNCOUNTED) {
		snprintf(sc, sizeof(sc), "-");
		snprintf(per, sizeof(per), "-");
	} else if (c->counts.valid) {
		snprintf(sc, sizeof(sc), "%llu", (unsigned long long)c->counts.total);
		if (c->spec.files)
			snprintf(per, sizeof(per), "%.2f", (double)c->counts.total / (double)c->spec.files);
		else if (c->spec.size)
			snprintf(per, sizeof(per), "%.2f", (double)c->counts.total / ((double)c->spec.size / MIB));
	}
	if (s->pct_of_limit > 100.5)
		snprintf(lim, sizeof(lim), ">100%%");
	else if (s->pct_of_limit >= 0)
		snprintf(lim, sizeof(lim), "%.0f%%", s->pct_of_limit);
	if (s->ratio > 0)
		snprintf(ratio, sizeof(ratio), "%.2fx", s->ratio);
	format_interval(s, ci, sizeof(ci), tie, sizeof(tie));
	row_note(c, s, note, sizeof(note));
	mark_modes(s, note, sizeof(note));
	note_ratio_interval(s, note, sizeof(note));
	snprintf(range, sizeof(range), "%.0f-%.0f", lo, hi);
	snprintf(runs, sizeof(runs), "%zu/%zu", s->verified, c->nruns);
	if (s->retried || s->outliers)
		snprintf(noise, sizeof(noise), "%zur %zuo", s->retried, s->outliers);
	if (c->state == CASE_FAILED && !c->nruns) {
		fprintf(f, "  %-16s %7s %6s FAILED: %s\n", c->spec.variant, buf, batch, c->why);
		return;
	}
	if (c->state == CASE_FAILED) {
		fprintf(f, "  %-16s %7s %6s FAILED (%zu of %zu runs verified): %s\n", c->spec.variant,
			buf, batch, s->verified, c->nruns, c->why);
		return;
	}
	if (!c->nruns) {	/* interrupted before its first measured run */
		fprintf(f, "  %-16s %7s %6s not run\n", c->spec.variant, buf, batch);
		return;
	}
	if (c->spec.files) {
		fprintf(f, "  %-16s %7s %8.0f %10.1f %*s %3s %19s %5.1f%% %5.1f%% %8s %9s %8s %8s %5s%s\n",
			c->spec.variant, buf, s->files_per_s, s->mib_per_s, ci_width(ci), ci, tie,
			range, 100.0 * s->st.cv,
			100.0 * s->st.rcv, ratio, sc, per, runs, noise, note);
		return;
	}
	fprintf(f, "  %-16s %7s %6s %10.0f %*s %3s %19s %5.1f%% %5.1f%% %8s %9s %8s %7s %8s %5s%s\n",
		c->spec.variant, buf, batch, s->mib_per_s, ci_width(ci), ci, tie, range,
		100.0 * s->st.cv,
		100.0 * s->st.rcv, ratio, sc, per, lim, runs, noise, note);
}

static void print_unavailable(FILE *f, const struct runner *r)
{
	bool any = false;

	for (size_t i = 0; i < r->ncases; i++) {
		const struct bench_case *c = &r->cases[i];
		bool seen = false;

		if (c->state != CASE_UNAVAILABLE)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = r->cases[j].state == CASE_UNAVAILABLE && r->cases[j].spec.wl == c->spec.wl &&
			       strcmp(r->cases[j].spec.variant, c->spec.variant) == 0 &&
			       strcmp(r->cases[j].why, c->why) == 0 && r->cases[j].env == c->env;
		if (seen)
			continue;
		if (!any)
			fprintf(f, "\nunavailable here:\n");
		any = true;
		fprintf(f, "  %-10s %-16s %s%s%sunavailable: %s\n", c->spec.wl->name, c->spec.variant,
			c->env ? "on " : "", c->env ? c->env->fs_type : "", c->env ? ": " : "", c->why);
	}
	if (r->unavailable_note && r->unavailable_note[0])
		fprintf(f, "%s%s", any ? "" : "\nunavailable here:\n", r->unavailable_note);
}

/* Does the group hold a case planned on less input than asked? */
static bool group_capped(const struct runner *r, const struct row_ref *rows, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (r->cases[rows[k].i].size_capped)
			return true;
	return false;
}

/* Takes the rows of case g's group not yet done into rows, in the table's
 * order; how many. */
static size_t collect_group(const struct runner *r, const struct case_summary *sums, size_t g,
			    struct row_ref *rows, bool *done)
{
	size_t n = 0;

	for (size_t j = g; j < r->ncases; j++) {
		if (done[j] || r->cases[j].state == CASE_UNAVAILABLE ||
		    !case_same_group(&r->cases[g], &r->cases[j]))
			continue;
		done[j] = true;
		rows[n++] = (struct row_ref){ r, sums, j };
	}
	qsort(rows, n, sizeof(*rows), row_cmp);
	return n;
}

/* Prints the group of case g: its rows ranked, then those not ranked. */
static void print_group(FILE *f, const struct runner *r, const struct case_summary *sums,
			size_t g, struct row_ref *rows, bool *done)
{
	size_t n = collect_group(r, sums, g, rows, done);

	print_group_header(f, &r->cases[g], group_capped(r, rows, n));
	for (size_t k = 0; k < n; k++) {
		const struct case_summary *sk = &sums[rows[k].i];

		if (sk->cls == CLASS_COMMAND &&
		    (k == 0 || sums[rows[k - 1].i].cls != CLASS_COMMAND))
			fprintf(f, "  commands: whole processes (fork, exec, start-up, exit inside the clock), set beside the copies, xfastest against the fastest command\n");
		else if (!ranked(sk) && sk->cls != CLASS_COMMAND &&
			 (k == 0 || ranked(&sums[rows[k - 1].i]) ||
			  sums[rows[k - 1].i].cls == CLASS_COMMAND))
			fprintf(f, "  not ranked: other work than a page-cache copy\n");
		print_row(f, &r->cases[rows[k].i], sk);
	}
}

/* What fresh memory costs here: strategies that allocate inside the clock pay it. */
static void print_first_touch(FILE *f, const struct first_touch *ft)
{
	char huge[64] = "no huge pages here";

	if (ft->us_4k < 0)
		return;
	if (ft->us_huge >= 0)
		snprintf(huge, sizeof(huge), "%.2f µs per 4 KiB on huge pages", ft->us_huge);
	fprintf(f, "fresh memory: first touch %.2f µs per 4 KiB page, %s (paid inside the clock by strategies that allocate)\n",
		ft->us_4k, huge);
}

/* A time for people: "25.9 ms". */
static void format_ns(double ns, char *out, size_t n)
{
	if (ns < 1e6)
		snprintf(out, n, "%.1f µs", ns / 1e3);
	else if (ns < 1e10)
		snprintf(out, n, "%.1f ms", ns / 1e6);
	else
		snprintf(out, n, "%.2f s", ns / 1e9);
}

/* "copy/lines text 16M buf 4K on xfs": which row, in one line. */
static void case_label(const struct bench_case *c, char *out, size_t n)
{
	char size[64], buf[32];
	size_t len;

	if (c->spec.files) {	/* a tree: "500 x 4K", its kind said by the workload */
		dataset_size_name(c->spec.ds, size, sizeof(size));
		len = (size_t)snprintf(out, n, "%s/%s %s", c->spec.wl->name, c->spec.variant, size);
	} else {
		format_size(c->spec.size, size, sizeof(size));
		len = (size_t)snprintf(out, n, "%s/%s %s %s", c->spec.wl->name, c->spec.variant,
				       dataset_kind_name(c->spec.ds->kind), size);
	}
	if (c->spec.buffer && len < n) {
		format_size(c->spec.buffer, buf, sizeof(buf));
		len += (size_t)snprintf(out + len, n - len, " buf %s", buf);
	}
	if (c->cache == CACHE_COLD && len < n)
		len += (size_t)snprintf(out + len, n - len, " cold");
	if (c->env && len < n)
		snprintf(out + len, n - len, " on %s", c->env->fs_type);
}

/* Under the table, each case whose runs fell into two modes, with both. */
static void print_modes(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	char label[256], fast[32], slow[32];

	for (size_t i = 0; i < r->ncases; i++) {
		const struct modes *m = &sums[i].modes;

		if (m->count != 2 || r->cases[i].state != CASE_OK)
			continue;
		case_label(&r->cases[i], label, sizeof(label));
		format_ns(m->fast_median, fast, sizeof(fast));
		format_ns(m->slow_median, slow, sizeof(slow));
		fprintf(f, "bench: %s: two modes: %s (%zu runs) and %s (%zu runs); the median depends on which mode has more runs (docs/noise.md)\n",
			label, fast, m->fast_runs, slow, m->slow_runs);
	}
}

/* Appends group g's rows to order, as print_group takes and sorts them. */
static size_t order_group(const struct runner *r, const struct case_summary *sums, size_t g,
			  struct row_ref *rows, bool *done, size_t *order, size_t n)
{
	size_t k = collect_group(r, sums, g, rows, done);

	for (size_t i = 0; i < k; i++)
		order[n++] = rows[i].i;
	return n;
}

int report_table_order(const struct runner *r, const struct case_summary *sums, size_t *order)
{
	struct row_ref *rows = calloc(r->ncases, sizeof(*rows));
	bool *done = calloc(r->ncases, sizeof(*done));
	size_t n = 0;
	int err = rows && done ? 0 : -ENOMEM;

	for (size_t i = 0; i < r->ncases && !err; i++) {
		if (done[i] || r->cases[i].state == CASE_UNAVAILABLE)
			continue;
		for (size_t g = i; g < r->ncases; g++)
			if (!done[g] && r->cases[g].state != CASE_UNAVAILABLE &&
			    case_same_cell(&r->cases[i], &r->cases[g]))
				n = order_group(r, sums, g, rows, done, order, n);
	}
	for (size_t i = 0; i < r->ncases && !err; i++)
		if (r->cases[i].state == CASE_UNAVAILABLE)
			order[n++] = i;
	free(rows);
	free(done);
	return err;
}

/*
 * The facts of the filesystem under test that make a figure depend on what
 * happened on it before (docs/tree.md "The destination").
 */
static void print_fs_history(FILE *f, const struct runner *r)
{
	const struct fs_mount *m = &r->env.fs;

	if (m->journal == 0)
		fprintf(f, "history: %s has no journal: creating files where many were freed in the last minutes is slow; %s\n",
			m->type, r->o->destination_reused ?
			"each tree run writes where the previous one was freed (--destination reused)" :
			"tree outputs are kept until the end (--destination fresh)");
	if (m->discard)
		fprintf(f, "history: mounted with discard: the blocks of removed outputs are trimmed in the background, perhaps inside a later run\n");
}

void report_print_table(FILE *f, const struct runner *r, const struct case_summary *sums)
{
	struct row_ref *rows = calloc(r->ncases, sizeof(*rows));
	bool *done = calloc(r->ncases, sizeof(*done));

	if (!rows || !done)
		goto out_free;
	fprintf(f, "copybench on %s · %s · %s under test · %s\n", r->env.host,
		r->env.kernel, r->env.fs_type, r->env.cpu_model);
	print_fs_history(f, r);
	print_first_touch(f, &r->env.machine.first_touch);
	for (size_t i = 0; i < r->ncases; i++) {
		if (done[i] || r->cases[i].state == CASE_UNAVAILABLE)
			continue;
		/* the same cell on every filesystem, one group each */
		for (size_t g = i; g < r->ncases; g++)
			if (!done[g] && r->cases[g].state != CASE_UNAVAILABLE &&
			    case_same_cell(&r->cases[i], &r->cases[g]))
				print_group(f, r, sums, g, rows, done);
	}
	fprintf(f, "\n±95%%: half the median's 95 %% interval (order statistics, distribution-free) over the median; tie =: it overlaps the interval of the row ranked just above or below: their order is not settled.\n");
	fprintf(f, "rCV: robust CV (" STATS_TEXT(STATS_MAD_TO_SD) " MAD / median). noise: runs disturbed from outside inside their clock and run again in a later round (r: free-page reporting, steal), and outliers (o) kept in the median.\n");
	print_modes(f, r, sums);
	print_unavailable(f, r);
out_free:
	free(rows);
	free(done);
}
