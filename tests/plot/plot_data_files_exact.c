// SPDX-License-Identifier: MIT
/*
 * plot_data_files_exact.c - the data files bench plot writes, checked exactly.
 * cpu-split splits only the rows whose CPU time rusage can split: a row under
 * 5 clock ticks of CPU a run (sysconf(_SC_CLK_TCK); sampled all user or all
 * system) is drawn unsplit, its total in the last column, and named in the
 * chart's caveat. buffer-sweep draws
 * the first workload whose strategies ran with several buffers (transform's
 * pipe) when the main one (copy) has none: a curve for every strategy and
 * batch, a point for every buffer it ran with. compare names each panel's
 * blocks as gnuplot's `index` counts them (only blocks with data).
 */
#include "support/plot_synth.h"
#include "support/testutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char header[] =
	"workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,"
	"part_size,fsync,runs,median_ns,min_ns,max_ns,mean_ns,stddev_ns,cv,"
	"mb_per_s,ratio_to_fastest,syscalls,syscalls_per_mib,user_ns,sys_ns,"
	"pct_of_limit,status,host,kernel,fs_type,cpu_model\n";

/* A warm 64M copy row: its median, user and system CPU time in ms. */
static void put_row(FILE *f, const char *strategy, unsigned buffer, double med_ms,
		    double user_ms, double sys_ms)
{
	fprintf(f, "copy,%s,random,67108864,%u,warm,0,0,0,8,%.0f,%.0f,%.0f,%.0f,0,0.01,1,1,"
		"10,1,%.0f,%.0f,,ok,testhost,6.1.0-test,ext4,cpu\n", strategy, buffer,
		med_ms * 1e6, med_ms * 1e6, med_ms * 1e6, med_ms * 1e6, user_ms * 1e6,
		sys_ms * 1e6);
}

/* One clock tick of rusage in ms: sysconf(_SC_CLK_TCK), 10 ms at 100 Hz. */
static double tick_ms(void)
{
	return 1000.0 / (double)sysconf(_SC_CLK_TCK);
}

/* The rows' CPU times in ticks a run: splice's all system, mmap's all user,
 * both under 5 ticks; sendfile at 5 exactly; readwrite over. all_short:
 * sendfile and readwrite under 5 too. */
static char *folder(const char *name, bool all_short)
{
	static char dir[600];
	double t = tick_ms();
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/%s", test_tmpdir(), name);
	f = synth_summary_header(dir, header);
	if (!f)
		return dir;
	put_row(f, "splice", 65536, 10, 0, 1.6 * t);
	put_row(f, "sendfile", 0, 20, 0, (all_short ? 4.9 : 5) * t);
	put_row(f, "mmap", 0, 30, 4.9 * t, 0);
	put_row(f, "readwrite", 131072, 40, t, (all_short ? 1 : 6) * t);
	fclose(f);
	return dir;
}

/* bench plot DIR with stdout into DIR/../plot.out; its exit code. */
static int plot(char *dir)
{
	char *argv[] = { "plot", dir, NULL }, out[700];

	snprintf(out, sizeof(out), "%s/../plot.out", dir);
	return synth_plot(2, argv, out);
}

#define slurp synth_slurp

/* The text of the data file bench plot wrote in dir for chart. */
static char *dat_of(const char *dir, const char *chart)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/plot-%s.dat", dir, chart);
	return slurp(path);
}

static const char cpu_head[] =
	"# cpu-split: data for plots/cpu-split.gp, written by bench plot\n"
	"# label  user_ms  sys_ms  wall_ms  unsplit_ms (CPU too short to split)\n";
static const char cpu_title[] =
	"ttl=\"CPU time split: user and system\\nhost testhost, Linux 6.1.0-test, "
	"ext4; copy, 64M random data, warm cache\";\n";

/* The data line of a row: user, system, wall and unsplit ms, as bench
 * plot prints them. */
static void cpu_line(char *out, size_t n, const char *label, double user, double sys,
		     double wall, double unsplit)
{
	size_t len = strlen(out);

	snprintf(out + len, n - len, "\"%s\" %.4f %.4f %.4f %.4f\n", label, user, sys, wall,
		 unsplit);
}

/* The variables line: the caveat naming the nunsplit rows drawn unsplit,
 * their count and the title. */
static void cpu_variables(char *out, size_t n, const char *rows, int nunsplit)
{
	size_t len = strlen(out);

	snprintf(out + len, n - len, "# variables: caveat=\"grey: not split, under 5 ticks "
		 "(%.0f ms) of CPU a run, too few for rusage to tell user from system: %s\";"
		 "nunsplit=%d;%s", 5 * tick_ms(), rows, nunsplit, cpu_title);
}

/* bench plot of dir writes want as its cpu-split data, and draws it. */
static void check_cpu_split(char *dir, const char *want)
{
	char path[700];

	CHECK_EQ_U64(plot(dir), 0);
	snprintf(path, sizeof(path), "%s/plot-cpu-split.dat", dir);
	CHECK(strcmp(slurp(path), want) == 0);
	snprintf(path, sizeof(path), "%s/cpu-split.svg", dir);
	CHECK(access(path, F_OK) == 0);
}

/* splice and mmap unsplit (a grey bar of their total), sendfile and
 * readwrite split, and the caveat naming the two. */
static void some_resolved(void)
{
	char *dir = folder("some", false), want[2048];
	double t = tick_ms();

	snprintf(want, sizeof(want), "%s", cpu_head);
	cpu_line(want, sizeof(want), "splice 64K", 0, 0, 10, 1.6 * t);
	cpu_line(want, sizeof(want), "sendfile", 0, 5 * t, 20, 0);
	cpu_line(want, sizeof(want), "mmap", 0, 0, 30, 4.9 * t);
	cpu_line(want, sizeof(want), "readwrite 128K", t, 6 * t, 40, 0);
	cpu_variables(want, sizeof(want), "splice 64K, mmap", 2);
	check_cpu_split(dir, want);
}

/* Every row under 5 ticks: all drawn unsplit, all named. */
static void none_resolved(void)
{
	char *dir = folder("none", true), want[2048];
	double t = tick_ms();

	snprintf(want, sizeof(want), "%s", cpu_head);
	cpu_line(want, sizeof(want), "splice 64K", 0, 0, 10, 1.6 * t);
	cpu_line(want, sizeof(want), "sendfile", 0, 0, 20, 4.9 * t);
	cpu_line(want, sizeof(want), "mmap", 0, 0, 30, 4.9 * t);
	cpu_line(want, sizeof(want), "readwrite 128K", 0, 0, 40, 2 * t);
	cpu_variables(want, sizeof(want), "splice 64K, sendfile, mmap, readwrite 128K", 4);
	check_cpu_split(dir, want);
}

/* A warm 1M row of workload wl: its buffer, median in ms and batch. */
static void put_plain(FILE *f, const char *wl, const char *strategy, unsigned buffer,
		      double med_ms, unsigned batch)
{
	fprintf(f, "%s,%s,text,1048576,%u,warm,%u,0,0,8,%.0f,%.0f,%.0f,%.0f,0,0.01,1,1,"
		"10,1,0,0,,ok,testhost,6.1.0-test,ext4,cpu\n", wl, strategy, buffer, batch,
		med_ms * 1e6, med_ms * 1e6, med_ms * 1e6, med_ms * 1e6);
}

/* copy's readwrite at one buffer; transform's pipe at three. */
static void sweep_of_another_workload(void)
{
	char dir[600];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/sweep", test_tmpdir());
	f = synth_summary_header(dir, header);
	if (!f)
		return;
	put_plain(f, "copy", "readwrite", 131072, 1, 0);
	put_plain(f, "copy", "sendfile", 0, 2, 0);
	put_plain(f, "transform", "pipe", 8192, 8, 0);
	put_plain(f, "transform", "pipe", 65536, 4, 0);
	put_plain(f, "transform", "pipe", 4194304, 2, 0);
	put_plain(f, "transform", "pipe", 65536, 3, 5000);
	put_plain(f, "transform", "pipe", 65536, 16, 1);
	put_plain(f, "transform", "tcp", 65536, 5, 0);
	fclose(f);
	CHECK_EQ_U64(plot(dir), 0);
	CHECK(strcmp(dat_of(dir, "buffer-sweep"), "# buffer-sweep: data for plots/buffer-sweep.gp, written by bench plot\n"
		     "# pipe batch buf\n# colour pipe #ff9896\n"
		     "8192 125.000 \"8K\"\n65536 250.000 \"64K\"\n4194304 500.000 \"4M\"\n\n\n"
		     "# pipe batch 5000\n# colour pipe #b36a69\n65536 333.333 \"64K\"\n\n\n"
		     "# tcp batch buf\n# colour tcp #b15928\n65536 200.000 \"64K\"\n\n\n"
		     "# pipe batch 1\n# colour pipe #ffbcbb\n65536 62.500 \"64K\"\n\n\n"
		     "# variables: colours=\"#ff9896 #b36a69 #b15928 #ffbcbb \";ttl=\"Buffer-size "
		     "sweep\\nhost testhost, Linux 6.1.0-test, ext4; transform, 1M text data, warm "
		     "cache\";names=\"'pipe batch buf' 'pipe batch 5000' 'tcp batch buf' "
		     "'pipe batch 1' \";nblocks=4;\n") == 0);
	CHECK(strcmp(dat_of(dir, "throughput"), "# throughput: data for plots/throughput.gp, written by bench plot\n"
		     "# copy\n"
		     "\"readwrite 128K\" 1000.000 1000.000 1000.000 \"\" 13416820\n"
		     "\"sendfile\" 500.000 500.000 500.000 \"\" 1784412\n\n\n"
		     "# transform\n"
		     "\"pipe 4M batch buf\" 500.000 500.000 500.000 \"\" 16750742\n"
		     "\"pipe 64K batch 5000\" 333.333 333.333 333.333 \"\" 11758185\n"
		     "\"pipe 64K batch buf\" 250.000 250.000 250.000 \"\" 16759995\n"
		     "\"tcp 64K batch buf\" 200.000 200.000 200.000 \"\" 11622696\n"
		     "\"pipe 8K batch buf\" 125.000 125.000 125.000 \"\" 8408139\n"
		     "\"pipe 64K batch 1\" 62.500 62.500 62.500 \"\" 16765392\n\n\n"
		     "# variables: bars0=2;bars1=6;ttl=\"Throughput per strategy (fastest first)\\nhost testhost, "
		     "Linux 6.1.0-test, ext4\";panels=\"'copy, 1M text data, warm cache' "
		     "'transform, 1M text data, warm cache' \";nblocks=2;\n") == 0);
}

/* rows as the results folder test_tmpdir()/name, plotted (exit 0): the
 * path of the data file bench plot wrote for chart, a static buffer. */
static const char *plotted_dat(const char *name, const struct synth_row *rows, size_t n,
			       const char *chart)
{
	static char dat[700];
	char dir[600];

	CHECK_EQ_U64(synth_plot_rows(name, rows, n, dir, sizeof(dir)), 0);
	snprintf(dat, sizeof(dat), "%s/plot-%s.dat", dir, chart);
	return dat;
}

#define PLOTTED_DAT(name, rows, chart) \
	plotted_dat(name, rows, sizeof(rows) / sizeof((rows)[0]), chart)

/* The fastest pipe is batch 5000, run at 64K only; batch buf ran at 8K,
 * 64K and 4M: every (strategy, batch) is drawn, one point per buffer. */
static const struct synth_row sweep_rows[] = {
	{ "copy", "readwrite", .buffer = 131072, .median_ms = 1 },
	{ "transform", "pipe", .buffer = 8192, .median_ms = 8 },
	{ "transform", "pipe", .buffer = 65536, .median_ms = 4 },
	{ "transform", "pipe", .buffer = 4194304, .median_ms = 2 },
	{ "transform", "pipe", .buffer = 65536, .batch = 5000, .median_ms = 1 },
	{ "transform", "tcp", .buffer = 65536, .median_ms = 5 },
};

static void sweep_fastest_at_one_buffer(void)
{
	char out[700];
	const char *dat = PLOTTED_DAT("sweep1", sweep_rows, "buffer-sweep");

	snprintf(out, sizeof(out), "%s.out", synth_dir("sweep1"));	/* bench plot's stdout */
	CHECK(strcmp(slurp(dat), "# buffer-sweep: data for plots/buffer-sweep.gp, written by bench plot\n"
		     "# pipe batch 5000\n# colour pipe #ff9896\n65536 1000.000 \"64K\"\n\n\n"
		     "# pipe batch buf\n# colour pipe #b36a69\n"
		     "8192 125.000 \"8K\"\n65536 250.000 \"64K\"\n4194304 500.000 \"4M\"\n\n\n"
		     "# tcp batch buf\n# colour tcp #b15928\n65536 200.000 \"64K\"\n\n\n"
		     "# variables: colours=\"#ff9896 #b36a69 #b15928 \";ttl=\"Buffer-size sweep\\n"
		     "host testhost, Linux 6.1.0-test, ext4; transform, 1M text data, warm cache\";"
		     "names=\"'pipe batch 5000' 'pipe batch buf' 'tcp batch buf' \";nblocks=3;\n") == 0);
	CHECK(strstr(synth_slurp(out), "buffer-sweep: wrote ") != NULL);
}

/* The rows of two filesystems: copy with every bar in both, split with
 * copy_file_range not run on xfs, transform with every bar. */
static const struct synth_row envs_rows[] = {
	{ "copy", "readwrite", .median_ms = 1 }, { "copy", "sendfile", .median_ms = 2 },
	{ "split", "readwrite", .median_ms = 8 }, { "split", "copy_file_range", .median_ms = 5 },
	{ "transform", "pipe", .buffer = 65536, .median_ms = 16 },
	{ "transform", "tcp", .buffer = 65536, .median_ms = 20 },
	{ "copy", "readwrite", .fs = "xfs", .median_ms = 4 },
	{ "copy", "sendfile", .fs = "xfs", .median_ms = 4 },
	{ "split", "readwrite", .fs = "xfs", .median_ms = 10 },
	{ "transform", "pipe", .fs = "xfs", .buffer = 65536, .median_ms = 25 },
	{ "transform", "tcp", .fs = "xfs", .buffer = 65536, .median_ms = 32 },
};

/* Every row of split failed: the throughput chart still has its panel, each
 * strategy's note in place of a bar, as the table lists them. */
static void throughput_failed_workload_drawn(void)
{
	static const struct synth_row rows[] = {
		{ "copy", "readwrite", .median_ms = 1 },
		{ "split", "readwrite", .median_ms = 1, .status = "failed: verification" },
		{ "split", "copy_file_range", .median_ms = 1, .status = "unavailable: test" },
	};
	const char *dat = PLOTTED_DAT("failed", rows, "throughput");

	CHECK(strstr(slurp(dat), "# split\n\"readwrite\" 0 0 0 \"failed\" ") != NULL);
	CHECK(strstr(slurp(dat), "\n\"copy_file_range\" 0 0 0 \"unavailable\" ") != NULL);
	CHECK(strstr(slurp(dat), "bars0=1;bars1=0;") != NULL);
	CHECK(strstr(slurp(dat), "'split, no case ran' \";") != NULL);
	CHECK(strstr(slurp(dat), ";nblocks=2;") != NULL);
}

/* btrfs ran copy at 2M only: the copy panel (1M, the size most environments
 * ran) has no btrfs line, and the chart's caveat says why. */
static void compare_left_out_said(void)
{
	static const struct synth_row rows[] = {
		{ "copy", "readwrite", .median_ms = 1 },
		{ "copy", "readwrite", .fs = "xfs", .median_ms = 2 },
		{ "copy", "readwrite", .fs = "btrfs", .size = 2097152, .median_ms = 2 },
	};
	const char *dat = PLOTTED_DAT("left", rows, "compare");

	CHECK(strstr(slurp(dat), "\"ext4\" 1000.000 1000.000 1000.000\n"
		     "\"xfs\" 500.000 500.000 500.000\n\n\n") != NULL);
	CHECK(strstr(slurp(dat), ";caveat=\"left out: btrfs (no copy, 1M text data, warm "
		     "cache)\";") != NULL);
}

/* gnuplot's `index` counts only blocks with data: copy's panel has no notes
 * block, so split's bars are block 1, its notes 2, transform's bars 3, and
 * each panel reads its own bars. */
static void compare_blocks_counted(void)
{
	const char *dat = PLOTTED_DAT("envs", envs_rows, "compare");
	char labels[512];

	CHECK(strcmp(slurp(dat), "# compare: data for plots/compare.gp, written by bench plot\n"
		     "# copy\n# colours #ccb974 #1b3a5c \n"
		     "\"ext4\" 1000.000 1000.000 1000.000 500.000 500.000 500.000\n"
		     "\"xfs\" 250.000 250.000 250.000 250.000 250.000 250.000\n\n\n"
		     "# split\n# colours #4878a8 #ccb974 \n"
		     "\"ext4\" 200.000 200.000 200.000 125.000 125.000 125.000\n"
		     "\"xfs\" NaN NaN NaN 100.000 100.000 100.000\n\n\n"
		     "# no bar: environment line, strategy column, why\n1 0 \"not run\"\n\n\n"
		     "# transform\n# colours #ff9896 #b15928 \n"
		     "\"ext4\" 62.500 62.500 62.500 50.000 50.000 50.000\n"
		     "\"xfs\" 40.000 40.000 40.000 31.250 31.250 31.250\n\n\n"
		     "# variables: names0=\"'readwrite' 'sendfile' \";nnames0=2;colours0=\"#ccb974 "
		     "#1b3a5c \";nnotes0=0;block0=0;noteblock0=-1;names1=\"'copy_file_range' "
		     "'readwrite' \";nnames1=2;colours1=\"#4878a8 #ccb974 \";nnotes1=1;block1=1;"
		     "noteblock1=2;names2=\"'pipe' 'tcp' \";nnames2=2;colours2=\"#ff9896 #b15928 \";"
		     "nnotes2=0;block2=3;noteblock2=-1;ttl=\"Strategies across filesystems (median "
		     "MiB/s)\\nhost testhost, Linux 6.1.0-test, cpu\";caveat=\"\";panels=\"'copy, 1M "
		     "text data, "
		     "warm cache' 'split, 1M text data, warm cache' 'transform, 1M text data, warm "
		     "cache' \";nblocks=3;\n") == 0);
	synth_block_labels(dat, 0, labels, sizeof(labels));
	CHECK(strcmp(labels, "ext4 1000.000|xfs 250.000|") == 0);
	synth_block_labels(dat, 1, labels, sizeof(labels));
	CHECK(strcmp(labels, "ext4 200.000|xfs NaN|") == 0);
	synth_block_labels(dat, 2, labels, sizeof(labels));
	CHECK(strcmp(labels, "1 0|") == 0);
	synth_block_labels(dat, 3, labels, sizeof(labels));
	CHECK(strcmp(labels, "ext4 62.500|xfs 40.000|") == 0);
}

/* A tree of 500 files of 4K: its panel is titled "500 x 4K", as the table
 * heads it, not by all its bytes (2000K). */
static void tree_title_names_shape(void)
{
	char *dir = synth_dir("tree"), out[700];
	char *argv[] = { "plot", dir, NULL };
	FILE *f;

	f = synth_summary_header(dir, "workload,strategy,dataset,size_bytes,buffer_bytes,cache,"
				 "runs,median_ns,min_ns,max_ns,files,file_size,files_per_s,status,"
				 "host,kernel,fs_type,cpu_model\n");
	if (!f)
		return;
	fputs("tree,inode-order,tree,2048000,0,warm,5,10000000,9000000,11000000,500,4096,50000,"
	      "ok,testhost,6.1.0-test,ext4,cpu\n", f);
	fputs("tree,pool,tree,2048000,0,warm,5,20000000,19000000,21000000,500,4096,25000,"
	      "ok,testhost,6.1.0-test,ext4,cpu\n", f);
	fclose(f);
	snprintf(out, sizeof(out), "%s/../tree.out", dir);
	CHECK_EQ_U64(synth_plot(2, argv, out), 0);
	CHECK(strstr(dat_of(dir, "throughput"), "panels=\"'tree, 500 x 4K tree data, warm cache' \";") != NULL);
}

int main(void)
{
	const char *src = getenv("SOURCE_DIR");
	char plots[512];

	if (src) {
		snprintf(plots, sizeof(plots), "%s/plots", src);
		setenv("COPYBENCH_PLOTS_DIR", plots, 1);
	}
	if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
		printf("plot_data_files_exact: skipped: gnuplot is not installed\n");
		test_cleanup_dir();
		return 77;
	}
	some_resolved();
	none_resolved();
	sweep_of_another_workload();
	sweep_fastest_at_one_buffer();
	compare_blocks_counted();
	compare_left_out_said();
	throughput_failed_workload_drawn();
	tree_title_names_shape();
	test_cleanup_dir();
	return test_report("plot_data_files_exact");
}
