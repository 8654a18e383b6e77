// SPDX-License-Identifier: MIT
/*
 * plot_synth.c - synthetic results folders for the plot tests (plot_synth.h).
 */
#include "plot_synth.h"
#include "testutil.h"
#include "cli/commands.h"
#include "plot/plot.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char header[] =
	"workload,strategy,dataset,size_bytes,buffer_bytes,cache,batch_lines,"
	"part_size,fsync,runs,median_ns,min_ns,max_ns,mean_ns,stddev_ns,cv,"
	"mb_per_s,ratio_to_fastest,syscalls,syscalls_per_mib,user_ns,sys_ns,"
	"pct_of_limit,status,host,kernel,fs_type,cpu_model\n";

FILE *synth_summary_header(const char *dir, const char *columns)
{
	char path[1024];
	FILE *f;

	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f)
		fputs(columns, f);
	return f;
}

FILE *synth_summary(const char *dir)
{
	return synth_summary_header(dir, header);
}

void synth_put(FILE *f, const struct synth_row *r)
{
	double ns = r->median_ms * 1e6;

	fprintf(f, "%s,%s,%s,%llu,%llu,warm,%u,0,0,8,%.0f,%.0f,%.0f,%.0f,0,0.01,1,1,"
		"10,1,%.0f,%.0f,,%s,testhost,6.1.0-test,%s,cpu\n", r->workload, r->strategy,
		r->dataset ? r->dataset : "text", r->size ? r->size : 1048576ull, r->buffer,
		r->batch, ns, ns, ns, ns, r->user_ms * 1e6, r->sys_ms * 1e6,
		r->status ? r->status : "ok", r->fs ? r->fs : "ext4");
}

char *synth_dir(const char *name)
{
	static char dir[600];

	snprintf(dir, sizeof(dir), "%s/%s", test_tmpdir(), name);
	return dir;
}

int synth_plot_to(int fd, int argc, char **argv, const char *path)
{
	int saved, to, ret;

	fflush(fd == 2 ? stderr : stdout);
	saved = dup(fd);
	to = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(to, fd);
	close(to);
	ret = cmd_plot(argc, argv);
	fflush(fd == 2 ? stderr : stdout);
	dup2(saved, fd);
	close(saved);
	return ret;
}

int synth_plot(int argc, char **argv, const char *out_path)
{
	return synth_plot_to(1, argc, argv, out_path);
}

int synth_plot_rows(const char *name, const struct synth_row *rows, size_t n,
		    char *dir, size_t dir_len)
{
	char out[700];
	char *argv[] = { "plot", dir, NULL };
	FILE *f;

	snprintf(dir, dir_len, "%s", synth_dir(name));
	f = synth_summary(dir);
	if (!f)
		return -1;
	for (size_t i = 0; i < n; i++)
		synth_put(f, &rows[i]);
	fclose(f);
	snprintf(out, sizeof(out), "%s.out", dir);
	return synth_plot(2, argv, out);
}

char *synth_slurp(const char *path)
{
	static char buf[16384];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

void synth_block_labels(const char *dat, long block, char *out, size_t n)
{
	char cmd[2048], table[700], *line, *save = NULL;
	size_t len = 0;

	out[0] = '\0';
	snprintf(table, sizeof(table), "%s/labels.txt", test_tmpdir());
	snprintf(cmd, sizeof(cmd), "gnuplot -e \"set table '%s'; plot '%s' index %ld "
		 "using 0:(0):(strcol(1).' '.strcol(2)) with labels\" 2>/dev/null", table, dat, block);
	CHECK(system(cmd) == 0);
	for (line = strtok_r(synth_slurp(table), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, '"'), *q = p ? strchr(p + 1, '"') : NULL;

		if (line[0] != '#' && q && len < n)
			len += (size_t)snprintf(out + len, n - len, "%.*s|", (int)(q - p - 1), p + 1);
	}
}
