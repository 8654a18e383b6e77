// SPDX-License-Identifier: MIT
/*
 * plot_charts_from_results.c - `bench plot` on synthetic results folders:
 * a full one (several strategies, sizes, buffers, both cache states, a
 * hyperfine export) yields every chart as PNG and SVG; a one-size folder
 * skips size-scaling with a line saying why and leaves no file; bars carry
 * min-max whiskers, warm-vs-cold a line at each limit row its rows are
 * divided by, a cloned strategy's missing bar says "cloned"; without an
 * argument the latest folder under results/ is used.
 */
#include "options/command.h"
#include "plot/plot.h"
#include "plot/plot_internal.h"
#include "support/plot_synth.h"
#include "support/testutil.h"
#include "workloads/channels/channel.h"
#include "workloads/workload.h"

#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const charts[] = {
	"throughput", "buffer-sweep", "syscalls-vs-speed", "size-scaling",
	"cpu-split", "warm-vs-cold", "hyperfine",
};
#define NCHARTS (sizeof(charts) / sizeof(charts[0]))
#define PATH_LEN 512	/* a results folder's path, or its bench plot output's */

static const char summary_header[] =
	"workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,"
	"part_size,fsync,runs,median_ns,min_ns,max_ns,mean_ns,stddev_ns,cv,"
	"mb_per_s,ratio_to_fastest,syscalls,syscalls_per_mib,user_ns,sys_ns,"
	"pct_of_limit,status,host,kernel,fs_type,cpu_model\n";

/* One summary row; speed in MiB/s sets the times. */
static void put_row(FILE *f, const char *wl, const char *strategy, unsigned long long size,
		    unsigned long long buffer, const char *cache, double mibs, double spm)
{
	double ns = (double)size / 1048576.0 / mibs * 1e9;

	fprintf(f, "%s,%s,random,%llu,%llu,%s,0,0,0,3,%.0f,%.0f,%.0f,%.0f,%.0f,0.01,%.1f,1.00,"
		"%.0f,%.2f,%.0f,%.0f,,ok,testhost,6.1.0-test,ext4,\"Test CPU, 2 cores\"\n",
		wl, strategy, size, buffer, cache, ns, ns * 0.95, ns * 1.1, ns, ns * 0.03, mibs,
		spm * (double)size / 1048576.0, spm, ns * 0.1, ns * 0.6);
}

static void put_unavailable(FILE *f, const char *wl, const char *strategy,
			    unsigned long long size, const char *cache)
{
	fprintf(f, "%s,%s,random,%llu,0,%s,0,0,0,0,,,,,,,,,,,,,,"
		"\"unavailable: no io_uring here, kernel too old\",testhost,6.1.0-test,ext4,"
		"\"Test CPU, 2 cores\"\n", wl, strategy, size, cache);
}

static void write_summary(const char *dir, bool full)
{
	static const unsigned long long buffers[] = { 8192, 65536, 4194304 };
	unsigned long long sizes[] = { 1048576, 67108864 };
	const char *caches[] = { "warm", "cold" };
	FILE *f = synth_summary_header(dir, summary_header);

	if (!f)
		return;
	for (int s = 0; s < (full ? 2 : 1); s++) {
		for (int c = 0; c < (full ? 2 : 1); c++) {
			double k = c ? 0.3 : 1.0;

			for (int b = 0; b < 3; b++)
				put_row(f, "copy", "readwrite", sizes[s], buffers[b], caches[c],
					k * (900 + 300 * b), 2.0 * 1048576 / (double)buffers[b]);
			put_row(f, "copy", "mmap", sizes[s], 0, caches[c], k * 1500, 3);
			put_row(f, "copy", "copy_file_range", sizes[s], 0, caches[c], k * 2500, 0.02);
			put_unavailable(f, "copy", "io_uring", sizes[s], caches[c]);
			put_row(f, "split", "copy_file_range", sizes[s], 0, caches[c], k * 2000, 0.1);
			put_row(f, "split", "readwrite", sizes[s], 65536, caches[c], k * 700, 32);
		}
	}
	fclose(f);
}

static void write_hyperfine(const char *dir)
{
	static const char *const states[] = { "warm", "cold" };
	char path[1024];

	for (int i = 0; i < 2; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/hyperfine-%s.csv", dir, states[i]);
		f = fopen(path, "w");
		CHECK(f != NULL);
		if (!f)
			return;
		fputs("command,mean,stddev,median,user,system,min,max\n", f);
		fprintf(f, "bench:readwrite,%f,0.001,0.02,0.001,0.01,0.019,0.03\n", 0.02 + i * 0.05);
		fprintf(f, "cp,%f,0.001,0.02,0.001,0.01,0.019,0.03\n", 0.021 + i * 0.05);
		fprintf(f, "dd-128K,%f,0.002,0.02,0.001,0.01,0.019,0.03\n", 0.025 + i * 0.05);
		fclose(f);
	}
}

static bool file_starts_with(const char *path, const char *magic, size_t n)
{
	char buf[16] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return false;
	got = fread(buf, 1, n, f);
	fclose(f);
	return got == n && memcmp(buf, magic, n) == 0;
}

static bool file_contains(const char *path, const char *needle)
{
	char buf[8192];
	FILE *f = fopen(path, "r");
	size_t got;

	if (!f)
		return false;
	got = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[got] = '\0';
	return strstr(buf, needle) != NULL;
}

static bool chart_exists(const char *dir, const char *chart, const char *ext)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s.%s", dir, chart, ext);
	return access(path, F_OK) == 0;
}

static void check_chart(const char *dir, const char *chart)
{
	char png[512], svg[512];
	bool svg_ok;

	snprintf(png, sizeof(png), "%s/%s.png", dir, chart);
	snprintf(svg, sizeof(svg), "%s/%s.svg", dir, chart);
	CHECK(file_starts_with(png, "\x89PNG\r\n\x1a\n", 8));
	svg_ok = file_starts_with(svg, "<?xml", 5) || file_starts_with(svg, "<svg", 4);
	CHECK(svg_ok);
	if (!svg_ok || !file_starts_with(png, "\x89PNG", 4))
		fprintf(stderr, "chart %s: missing or malformed\n", chart);
}

/* The data file bench plot wrote for chart in dir, open for reading. */
static FILE *open_dat(const char *dir, const char *chart)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/plot-%s.dat", dir, chart);
	return fopen(path, "r");
}

/* The colour chart's data gives strategy: the throughput bar's last column
 * (0xRRGGBB as an integer), or a curve's "# colour NAME #rrggbb". -1: none. */
static long data_colour(const char *dir, const char *chart, const char *strategy)
{
	FILE *f = open_dat(dir, chart);
	char line[512], want[160];
	long colour = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "# colour %s #", strategy);
	while (colour < 0 && fgets(line, sizeof(line), f)) {
		char *last = strrchr(line, ' ');
		size_t n = strlen(strategy);

		if (!strncmp(line, want, strlen(want)))
			colour = strtol(line + strlen(want), NULL, 16);
		else if (line[0] == '"' && !strncmp(line + 1, strategy, n) &&
			 (line[n + 1] == '"' || line[n + 1] == ' ') && last)
			colour = strtol(last + 1, NULL, 10);
	}
	fclose(f);
	return colour;
}

/* One strategy, one colour: the same in the throughput bars and in the
 * buffer-sweep curves, and another strategy's is another. */
static void check_palette(const char *dir)
{
	long bar = data_colour(dir, "throughput", "readwrite");
	long curve = data_colour(dir, "buffer-sweep", "readwrite");
	long other = data_colour(dir, "throughput", "mmap");

	CHECK(bar >= 0);
	CHECK_EQ_U64((uint64_t)bar, (uint64_t)curve);
	CHECK(other >= 0 && other != bar);
}

/* Every name a chart may show (strategies but test-only ones, channels,
 * limit rows and tree methods, default commands) has a colour no other
 * name has. */
static void check_palette_distinct(void)
{
	const char *names[128], *colours[128];
	size_t n = 0;

	for (size_t i = 0; i < strategy_count && n < 128; i++)
		if (!(strategy_table[i]->flags & STRATEGY_TEST_ONLY))
			names[n++] = strategy_table[i]->name;
	for (size_t i = 0; i < channel_count && n < 128; i++)
		names[n++] = channel_table[i]->name;
	for (size_t i = 0; i < workload_count; i++)
		for (const struct workload_variant *v = workload_table[i]->own_variants;
		     v && v->name && n < 128; v++)
			names[n++] = v->name;
	for (size_t i = 0; i < command_default_count && n < 128; i++)
		names[n++] = command_defaults[i].name;
	for (size_t i = 0; i < n; i++) {
		colours[i] = plot_colour(names[i]);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(colours[i], colours[j])) {
				fprintf(stderr, "%s and %s share %s\n", names[i], names[j], colours[i]);
				CHECK(false);
			}
	}
	CHECK(n > 30);
}

/* ------------------------------------------- whiskers, limits, clones -- */

static const char class_header[] =
	"workload,strategy,dataset,size_bytes,buffer_bytes,cache,runs,median_ns,min_ns,max_ns,"
	"mb_per_s,class,syscalls_per_mib,user_ns,sys_ns,pct_of_limit,limit_row,status,host,kernel,"
	"fs_type,cpu_model\n";

/* A row with its class and limit row; min and max 5 % and 20 % off. */
static void put_class_row(FILE *f, const char *wl, const char *strategy, const char *cache,
			  double mibs, const char *cls, const char *limit)
{
	double ns = 64.0 / mibs * 1e9;

	fprintf(f, "%s,%s,random,67108864,0,%s,5,%.0f,%.0f,%.0f,%.1f,%s,1,%.0f,%.0f,,%s,ok,"
		"testhost,6.1.0-test,ext4,cpu\n", wl, strategy, cache, ns, ns * 0.95, ns * 1.2,
		mibs, cls, ns * 0.1, ns * 0.5, limit);
}

static void write_class_summary(const char *dir)
{
	static const char *const caches[] = { "warm", "cold" };
	FILE *f = synth_summary_header(dir, class_header);

	if (!f)
		return;
	for (int c = 0; c < 2; c++) {
		const char *limit = c ? "device-read" : "memcpy";
		double k = c ? 0.3 : 1.0;

		put_class_row(f, "copy", "readwrite", caches[c], k * 3000, "page-cache", limit);
		put_class_row(f, "copy", "splice", caches[c], k * 4000, "page-cache", limit);
		put_class_row(f, "copy", "reflink", caches[c], 90000, "clone", "");
		put_class_row(f, "copy", "direct", caches[c], k * 900, "device",
			      c ? "device-direct" : "");
	}
	/* reflink's class is clone where it cannot run, too: unavailable */
	fputs("split,reflink,random,67108864,0,warm,0,,,,,clone,,,,,,\"unavailable: no FICLONE\","
	      "testhost,6.1.0-test,ext4,cpu\n", f);
	put_class_row(f, "split", "readwrite", "warm", 2000, "page-cache", "memcpy");
	put_class_row(f, "limit", "memcpy", "warm", 11000, "limit", "");
	put_class_row(f, "limit", "memcpy-mt", "warm", 19000, "limit", "");
	put_class_row(f, "limit", "device-read", "cold", 1900, "limit", "");
	put_class_row(f, "limit", "device-direct", "cold", 1850, "limit", "");
	fclose(f);
}

/* A new results folder tmp/STAMP-name in dir; what bench plot says about
 * it goes to tmp/name.out, named in out. */
static void new_folder(const char *tmp, const char *stamp, const char *name,
		       char dir[PATH_LEN], char out[PATH_LEN])
{
	snprintf(dir, PATH_LEN, "%s/%s-%s", tmp, stamp, name);
	snprintf(out, PATH_LEN, "%s/%s.out", tmp, name);
	CHECK(mkdir(dir, 0755) == 0);
}

/* bench plot dir, what it says into out; its exit status. */
static int plot_folder(char *dir, const char *out)
{
	char *argv[] = { "plot", dir, NULL };

	return synth_plot(2, argv, out);
}

/* Every bar line of block 0 of plot-warm-vs-cold.dat: its warm and cold
 * columns are median, slowest, fastest with slowest <= median <= fastest,
 * the whisker around the bar. How many bars, or -1 for one that is not. */
static int warm_cold_whiskers(const char *dir)
{
	FILE *f = open_dat(dir, "warm-vs-cold");
	char line[512];
	int bars = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && line[0] != '\n') {
		double v[6];
		char *p = strrchr(line, '"');

		if (line[0] != '"' || !p)
			continue;
		if (sscanf(p + 1, "%lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4],
			   &v[5]) != 6 || !(v[1] <= v[0] && v[0] <= v[2] && v[1] < v[2]) ||
		    !(v[4] <= v[3] && v[3] <= v[5] && v[4] < v[5])) {
			fprintf(stderr, "warm-vs-cold: no whisker around the bar: %s", line);
			bars = -1;
			break;
		}
		bars++;
	}
	fclose(f);
	return bars;
}

/* Every two names of the limit lines of plot-warm-vs-cold.dat (block 1:
 * "cache" "row" MiB/s name_y) at least `gap` apart, each above its line. */
static bool limit_names_apart(const char *dat, double gap)
{
	char line[512];
	double y[16], v;
	size_t n = 0;
	bool ok = true, in = false;
	FILE *f = fopen(dat, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f) && n < 16) {
		char *p = strrchr(line, '"');

		in = in || !strncmp(line, "# limits", 8);
		if (!in || line[0] != '"' || !p || sscanf(p + 1, "%lf %lf", &v, &y[n]) != 2)
			continue;
		ok = ok && y[n] > v;
		n++;
	}
	fclose(f);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			ok = ok && fabs(y[i] - y[j]) >= gap;
	return ok && n == 3;
}

/* Bars with whiskers, a line at each limit the rows are divided by, and
 * the cloned strategy's missing bar labelled "cloned" (not "failed"). */
static void test_limits_and_clones(const char *tmp)
{
	char dir[PATH_LEN], out[PATH_LEN], dat[1024];

	new_folder(tmp, "20250103T000000Z", "classes", dir, out);
	write_class_summary(dir);
	CHECK_EQ_U64(plot_folder(dir, out), 0);
	check_chart(dir, "warm-vs-cold");
	/* readwrite, splice and direct; reflink cloned has no bar */
	CHECK_EQ_U64((uint64_t)warm_cold_whiskers(dir), 3);
	snprintf(dat, sizeof(dat), "%s/plot-warm-vs-cold.dat", dir);
	CHECK(file_contains(dat, "\n\"warm\" \"memcpy\" 11000.000 "));
	CHECK(file_contains(dat, "\n\"cold\" \"device-read\" 1900.000 "));
	CHECK(file_contains(dat, "\n\"cold\" \"device-direct\" 1850.000 "));
	/* the two device lines are 50 MiB/s apart: their names must not be */
	CHECK(limit_names_apart(dat, 0.045 * 11000));
	/* memcpy-mt divides no row shown: no line */
	CHECK(!file_contains(dat, "memcpy-mt"));
	CHECK(file_contains(dat, "\n\"direct (device I/O)\" "));
	snprintf(dat, sizeof(dat), "%s/plot-throughput.dat", dir);
	CHECK(file_contains(dat, "\n\"reflink\" 0 0 0 \"cloned\" "));
	CHECK(file_contains(dat, "\n\"reflink\" 0 0 0 \"unavailable\" "));
}

/* A folder of filesystem fs: readwrite copied, copy_file_range of class cls. */
static void write_fs_summary(const char *dir, const char *fs, const char *cls)
{
	FILE *f = synth_summary_header(dir, class_header);

	if (!f)
		return;
	fprintf(f, "copy,readwrite,random,67108864,0,warm,5,20000000,19000000,24000000,3200.0,"
		"page-cache,1,1,1,,memcpy,ok,testhost,6.1.0-test,%s,cpu\n", fs);
	fprintf(f, "copy,copy_file_range,random,67108864,0,warm,5,700000,600000,900000,91428.6,"
		"%s,1,1,1,,memcpy,ok,testhost,6.1.0-test,%s,cpu\n", cls, fs);
	fclose(f);
}

/* Two filesystems, copy_file_range cloned on one: the compare chart's bars
 * have min-max whiskers, and a note "cloned" is where the missing bar would
 * be (line 0: btrfs, column 0); the charts of one environment name the
 * folder they were drawn from. */
static void test_compare_clone_note(const char *tmp)
{
	char a[512], b[512], out[512], cmp[512], dat[1024], want[700];
	char *argv[] = { "plot", "--out", cmp, a, b, NULL };

	snprintf(a, sizeof(a), "%s/20250104T000000Z-btrfs", tmp);
	snprintf(b, sizeof(b), "%s/20250104T000000Z-ext4", tmp);
	snprintf(cmp, sizeof(cmp), "%s/cmp", tmp);
	snprintf(out, sizeof(out), "%s/cmp.out", tmp);
	CHECK(mkdir(a, 0755) == 0 && mkdir(b, 0755) == 0);
	write_fs_summary(a, "btrfs", "clone");
	write_fs_summary(b, "ext4", "page-cache");
	CHECK_EQ_U64(synth_plot(5, argv, out), 0);
	check_chart(cmp, "compare");
	snprintf(dat, sizeof(dat), "%s/plot-compare.dat", cmp);
	/* ext4 has more results: its fastest (copy_file_range) is column 0 */
	/* each bar: median slowest fastest, the whisker around it */
	CHECK(file_contains(dat, "\n\"btrfs\" NaN NaN NaN 3200.000 2666.667 3368.421\n"
			    "\"ext4\" 91428.571 71111.111 106666.667 3200.000 2666.667 3368.421\n"));
	CHECK(file_contains(dat, "# no bar: environment line, strategy column, why\n0 0 \"cloned\"\n"));
	/* a chart of one environment says which folder: ext4's, with the most rows */
	CHECK(!file_contains(dat, "; from "));
	snprintf(dat, sizeof(dat), "%s/plot-throughput.dat", cmp);
	snprintf(want, sizeof(want), "Linux 6.1.0-test, ext4; from %s\";", b);
	CHECK(file_contains(dat, want));
}

/* bench --fs ext4,DIR with DIR on the machine's own ext4: two filesystems of
 * one type in one folder. They are two environments, not one pooled: the
 * compare chart has a group for each, labelled by how bench got it (the
 * title names what they share). */
static void test_compare_loop_and_named(const char *tmp)
{
	static const char *const opts[] = {
		"\"mkfs.ext4 -b 4096; 1164M sparse file on a loop device, direct I/O\"",
		"\"not made by bench; a mounted filesystem named by its path\"",
	};
	char dir[PATH_LEN], out[PATH_LEN], dat[1024];
	FILE *f;

	new_folder(tmp, "20250105T000000Z", "fs", dir, out);
	f = synth_summary_header(dir, "workload,strategy,dataset,size_bytes,buffer_bytes,cache,runs,median_ns,"
			      "min_ns,max_ns,mb_per_s,class,status,host,kernel,fs_type,cpu_model,"
			      "fs_options\n");
	if (!f)
		return;
	for (int k = 0; k < 2; k++)
		fprintf(f, "copy,readwrite,random,67108864,0,warm,5,%d,%d,%d,%.1f,page-cache,ok,"
			"testhost,6.1.0-test,ext4,cpu,%s\n", k ? 20000000 : 40000000,
			k ? 19000000 : 38000000, k ? 24000000 : 48000000, k ? 3200.0 : 1600.0,
			opts[k]);
	fclose(f);
	CHECK_EQ_U64(plot_folder(dir, out), 0);
	check_chart(dir, "compare");
	snprintf(dat, sizeof(dat), "%s/plot-compare.dat", dir);
	/* ext4 is shared: the title says it; the groups say how bench got each */
	CHECK(file_contains(dat, "\n\"loop device\" 1600.000 "));
	CHECK(file_contains(dat, "\n\"named path\" 3200.000 "));
	CHECK(file_contains(dat, "Linux 6.1.0-test, ext4, cpu"));
	if (!file_contains(dat, "\n\"named path\" 3200.000 ")) {
		char cmd[2200];

		snprintf(cmd, sizeof(cmd), "cat '%s' '%s' >&2", dat, out);
		if (system(cmd) != 0)
			fprintf(stderr, "%s: cannot show it\n", dat);
	}
}

static void test_full_folder(const char *tmp)
{
	char dir[PATH_LEN], out[PATH_LEN];

	new_folder(tmp, "20250101T000000Z", "full", dir, out);
	write_summary(dir, true);
	write_hyperfine(dir);
	CHECK_EQ_U64(plot_folder(dir, out), 0);
	for (size_t i = 0; i < NCHARTS; i++)
		check_chart(dir, charts[i]);
	check_palette(dir);
	check_palette_distinct();
	/* one machine, kernel and filesystem: only the comparison skipped */
	CHECK(file_contains(out, "compare: skipped: the results come from one machine, kernel and filesystem"));
	for (size_t i = 0; i < NCHARTS; i++) {
		char skipped[64];

		snprintf(skipped, sizeof(skipped), "%s: skipped", charts[i]);
		CHECK(!file_contains(out, skipped));
	}
}

static void test_one_size(const char *tmp)
{
	char dir[PATH_LEN], out[PATH_LEN];

	new_folder(tmp, "20250102T000000Z", "one", dir, out);
	write_summary(dir, false);
	CHECK_EQ_U64(plot_folder(dir, out), 0);
	check_chart(dir, "throughput");
	check_chart(dir, "buffer-sweep");
	CHECK(!chart_exists(dir, "size-scaling", "png"));
	CHECK(!chart_exists(dir, "size-scaling", "svg"));
	CHECK(!chart_exists(dir, "warm-vs-cold", "png"));
	CHECK(file_contains(out, "size-scaling: skipped: only one size was run (1M)"));
	CHECK(file_contains(out, "warm-vs-cold: skipped:"));
	CHECK(file_contains(out, "hyperfine: skipped:"));
}

/* No argument: the last folder in name order under ./results. */
static void test_latest_folder(const char *tmp)
{
	char results[512], older[600], newer[600], out[512], cwd[512];
	char *argv[] = { "plot", NULL };

	snprintf(results, sizeof(results), "%s/proj/results", tmp);
	snprintf(older, sizeof(older), "%s/20250101T000000Z-a", results);
	snprintf(newer, sizeof(newer), "%s/20250301T000000Z-b", results);
	snprintf(out, sizeof(out), "%s/latest.out", tmp);
	CHECK(mkdir(results, 0755) == 0);
	CHECK(mkdir(older, 0755) == 0 && mkdir(newer, 0755) == 0);
	write_summary(older, false);
	write_summary(newer, false);
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK(chdir(results) == 0 && chdir("..") == 0);
	CHECK_EQ_U64(synth_plot(1, argv, out), 0);
	CHECK(chdir(cwd) == 0);
	CHECK(chart_exists(newer, "throughput", "png"));
	CHECK(!chart_exists(older, "throughput", "png"));
}

int main(void)
{
	const char *src = getenv("SOURCE_DIR");
	const char *tmp = test_tmpdir();
	char plots[512], proj[512];

	if (src) {
		snprintf(plots, sizeof(plots), "%s/plots", src);
		setenv("COPYBENCH_PLOTS_DIR", plots, 1);
	}
	if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
		printf("plot_charts_from_results: skipped: gnuplot is not installed\n");
		test_cleanup_dir();
		return 77;
	}
	snprintf(proj, sizeof(proj), "%s/proj", tmp);
	mkdir(proj, 0755);
	test_full_folder(tmp);
	test_one_size(tmp);
	test_limits_and_clones(tmp);
	test_compare_clone_note(tmp);
	test_compare_loop_and_named(tmp);
	test_latest_folder(tmp);
	test_cleanup_dir();
	return test_report("plot_charts_from_results");
}
