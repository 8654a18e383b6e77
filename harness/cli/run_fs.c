// SPDX-License-Identifier: MIT
/*
 * run_fs.c - `bench --fs LIST`: the same plan on several filesystems in one
 * invocation. Each filesystem gets a runner of its own, planned and
 * prepared in its folder (strategies probed there, so reflink is available
 * where the filesystem clones; datasets generated there from the same seed,
 * so every filesystem reads the same bytes from its own storage; a work
 * directory there). Their cases are then measured together by one runner,
 * in the same shuffled rounds, so that the machine's drift favours no
 * filesystem. Each case keeps its filesystem's work directory and
 * environment: rows of different filesystems are grouped apart and never
 * ranked together (summary.c, table.c), and every row records its fs_type.
 *
 * The filesystems bench made (testfs.c) are removed on every way out:
 * the end, an error, SIGINT or SIGTERM (the runner stops at the next safe
 * point and the path below runs; the removal itself holds both signals).
 */
#include "run.h"
#include "fs/testfs.h"
#include "host/interrupt.h"
#include "lib/fsinfo.h"
#include "lib/units.h"
#include "run/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1ull << 20)
#define FS_MIN_SIZE (512 * MIB)	/* mkfs.xfs refuses less than 300M */
#define FS_MARGIN_MIN (64 * MIB)	/* what the runs' checks want free, and more */
#define FS_DIRTY_ROOM 3			/* largest outputs free beyond the plan's data */

struct fs_run {
	struct testfs_set set;
	struct bench_opts opts[OPT_LIST_MAX];
	struct runner sub[OPT_LIST_MAX];	/* one per filesystem that runs */
	size_t nsub;
	struct runner all;			/* every case, measured together */
	struct timespec start;			/* the invocation's (CLOCK_REALTIME) */
	uint64_t start_ns;			/* and CLOCK_MONOTONIC, for the costs */
	char note[OPT_LIST_MAX * 320];		/* filesystems unavailable here */
};

static int check_root(const struct testfs_set *set)
{
	for (size_t i = 0; i < set->n && geteuid() != 0; i++) {
		if (!set->fs[i].maker)
			continue;
		fprintf(stderr, "bench: --fs %s: making and mounting a filesystem needs root; run as root, or name a mounted filesystem by its path\n",
			set->fs[i].name);
		return 2;
	}
	return 0;
}

/*
 * What the plan writes on each filesystem (its datasets and the largest
 * output) and the size of a filesystem made for it: that, room for
 * FS_DIRTY_ROOM more outputs, a quarter more for what a filesystem keeps
 * for itself (ext4: 5% reserved, the journal, inode tables; btrfs: metadata
 * twice) and a margin, and no less than FS_MIN_SIZE. The images are
 * sparse: the room costs no disk. Without it a warm copy on a loop ext4 ran
 * at two thirds of the machine's own ext4: once the output's delayed
 * allocations pass half of the free space, ext4 (ext4_nonda_switch) makes
 * the writer start writeback of the whole filesystem and wait for it, one
 * sleep of about 150 ms in the clock (docs/fleet.md); a full-size
 * filesystem never gets there. Planning also checks the options (exit 2).
 */
static int plan_size(struct bench_opts *o, uint64_t *data, uint64_t *size)
{
	struct runner r = { .o = o };
	uint64_t total = 0, biggest = 0, margin;
	char made[PATH_MAX];
	int ret;

	ret = run_make_dir(o, made, sizeof(made));
	if (ret)
		return ret;
	ret = plan_build(&r);
	for (size_t i = 0; i < r.ndatasets; i++) {
		/* a tree: its bytes, and a block of slack per file (small files
		 * fill whole blocks; inodes count too) */
		uint64_t bytes = r.datasets[i].files ?
			r.datasets[i].total + r.datasets[i].files * 4096 : r.datasets[i].size;

		total += bytes;
		if (bytes > biggest)
			biggest = bytes;
	}
	run_free(&r);
	if (ret) {
		fs_unmake_dirs(o->dir, made);
		return ret;
	}
	margin = biggest / 4 > FS_MARGIN_MIN ? biggest / 4 : FS_MARGIN_MIN;
	*data = total + biggest;
	*size = (*data + FS_DIRTY_ROOM * biggest + *data / 4 + margin + MIB - 1) / MIB * MIB;
	if (*size < FS_MIN_SIZE)
		*size = FS_MIN_SIZE;
	return 0;
}

/* The backing files are sparse, but what the runs write lands in --dir. */
static int check_host_space(const struct bench_opts *o, const struct testfs_set *set,
			    uint64_t data)
{
	size_t n = testfs_count_images(set);
	uint64_t need = n * (data + FS_MARGIN_MIN), have = run_dir_free(o->dir);
	char a[32], b[32];

	if (have >= need)
		return 0;
	format_size(need, a, sizeof(a));
	format_size(have, b, sizeof(b));
	fprintf(stderr, "bench: not enough free space in %s for %zu filesystems: they hold about %s, %s is free\n",
		o->dir, n, a, b);
	return 2;
}

/* One filesystem's runner: planned and prepared in its folder. */
static int prepare_one(struct fs_run *fr, const struct bench_opts *o, const struct testfs *fs)
{
	struct runner *r = &fr->sub[fr->nsub];
	struct bench_opts *so = &fr->opts[fr->nsub];

	*so = *o;
	so->dir = fs->dir;
	so->fs.n = 0;
	r->o = so;
	r->times.start = fr->start;	/* one invocation: one start, one results folder */
	costs_begin(&r->costs, fr->start_ns);
	progress_init(&r->progress, o->quiet);
	fr->nsub++;
	if (run_prepare(r))
		return 1;
	snprintf(r->env.fs_options, sizeof(r->env.fs_options), "%s", fs->options);
	return 0;
}

/* Every filesystem that could be made, prepared; the others noted. */
static int prepare_all(struct fs_run *fr, const struct bench_opts *o)
{
	struct progress p;
	size_t len = 0;

	progress_init(&p, o->quiet);
	for (size_t i = 0; i < fr->set.n && !interrupt_signal; i++) {
		const struct testfs *fs = &fr->set.fs[i];
		int ret;

		if (fs->why[0]) {
			progress_line(&p, "bench: --fs %s: unavailable: %s", fs->name, fs->why);
			len += (size_t)snprintf(fr->note + len, sizeof(fr->note) - len,
						"  filesystem %-16s unavailable: %s\n", fs->name, fs->why);
			continue;
		}
		if (fs->options[0])
			progress_line(&p, "bench: made %s in %s: %s", fs->name, fs->dir, fs->options);
		ret = prepare_one(fr, o, fs);
		if (ret)
			return interrupt_signal ? interrupt_exit_code() : ret;
	}
	if (interrupt_signal)
		return interrupt_exit_code();
	if (!fr->nsub) {
		fprintf(stderr, "bench: no filesystem of --fs can be used here (each is unavailable)\n");
		return 1;
	}
	return 0;
}

/* "ext4, xfs, tmpfs": the filesystems of the run, for the table's title. */
static void join_fs_types(struct fs_run *fr, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t k = 0; k < fr->nsub && len < n; k++)
		len += (size_t)snprintf(out + len, n - len, "%s%s", k ? ", " : "",
					fr->sub[k].env.fs_type);
}

/* The cases of every filesystem, each keeping its own, measured together. */
static int measure_all(struct fs_run *fr, const struct bench_opts *o)
{
	struct runner *all = &fr->all;
	size_t n = 0;

	for (size_t k = 0; k < fr->nsub; k++)
		n += fr->sub[k].ncases;
	all->cases = calloc(n, sizeof(*all->cases));
	if (!all->cases) {
		fprintf(stderr, "bench: out of memory for %zu cases\n", n);
		return 1;
	}
	for (size_t k = 0; k < fr->nsub; k++) {
		for (size_t i = 0; i < fr->sub[k].ncases; i++) {
			struct bench_case *c = &all->cases[all->ncases++];

			*c = fr->sub[k].cases[i];
			c->workdir = fr->sub[k].workdir;
			c->env = &fr->sub[k].env;
		}
	}
	all->o = o;
	all->costs = fr->sub[0].costs;
	for (size_t k = 1; k < fr->nsub; k++) {
		all->costs.generate_ns += fr->sub[k].costs.generate_ns;
		all->costs.generated_bytes += fr->sub[k].costs.generated_bytes;
		all->costs.prepare_ns += fr->sub[k].costs.prepare_ns;
	}
	all->times = fr->sub[0].times;
	all->est = fr->sub[0].est;	/* the rates one filesystem's plan learned */
	snprintf(all->results, sizeof(all->results), "%s", fr->sub[0].results);
	all->env = fr->sub[0].env;
	all->env.fs_options[0] = '\0';
	join_fs_types(fr, all->env.fs_type, sizeof(all->env.fs_type));
	all->unavailable_note = fr->note;
	progress_init(&all->progress, o->quiet);
	return run_measure(all);
}

/* The leftovers of a killed bench --fs in dir: said, with how to remove them. */
static void warn_stale(const char *dir)
{
	char first[PATH_MAX];
	size_t n = testfs_find_stale(dir, first, sizeof(first));

	if (n)
		fprintf(stderr, "bench: note: %zu test filesystem folder%s of a killed bench --fs left in %s (%s); bench clean --dir %s unmounts and removes them\n",
			n, n == 1 ? "" : "s", dir, first, dir);
}

/* The names, root, the plan and the host's space: nothing made yet. */
static int fs_preflight(struct bench_opts *o, struct testfs_set *set, uint64_t *data,
			uint64_t *size)
{
	int ret = testfs_parse(&o->fs, set);

	if (!ret)
		ret = check_root(set);
	if (!ret)
		ret = plan_size(o, data, size);
	if (!ret && testfs_any_to_make(set))
		ret = check_host_space(o, set, *data);
	return ret;
}

int run_fs_preflight(struct bench_opts *o)
{
	struct testfs_set *set = calloc(1, sizeof(*set));
	uint64_t data, size;
	int ret;

	if (!set)
		return 1;
	ret = fs_preflight(o, set, &data, &size);
	free(set);
	return ret;
}

int run_filesystems(struct bench_opts *o)
{
	struct fs_run *fr = calloc(1, sizeof(*fr));
	uint64_t data = 0, size = 0;
	int ret, err;

	if (!fr)
		return 1;
	clock_gettime(CLOCK_REALTIME, &fr->start);
	fr->start_ns = runner_now_ns();
	warn_stale(o->dir);
	ret = fs_preflight(o, &fr->set, &data, &size);
	if (ret)
		goto out_free;
	err = testfs_make_all(&fr->set, o->dir, o->fs_size ? o->fs_size : size);
	if (err) {
		fprintf(stderr, "bench: cannot make a folder for the filesystems in %s: %s\n", o->dir,
			strerror(-err));
		ret = 1;
		goto out_remove;
	}
	ret = prepare_all(fr, o);
	if (!ret)
		ret = measure_all(fr, o);
out_remove:
	run_free(&fr->all);
	for (size_t k = 0; k < fr->nsub; k++) {
		runner_remove_workdir(&fr->sub[k]);
		run_free(&fr->sub[k]);
	}
	testfs_remove_all(&fr->set);
out_free:
	free(fr);
	return ret;
}
