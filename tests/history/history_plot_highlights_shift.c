// SPDX-License-Identifier: MIT
/*
 * history_plot_highlights_shift.c - `bench history plot` on a history of
 * twenty synthetic commits where sendfile (case 1) got 25 % slower from the
 * thirteenth on (a 20 % drop in MiB/s): the chart's data names each commit on the x axis by its short
 * hash alone, marks sendfile's block (and no other) for the bold line and
 * band of a shifted case, labels the shift with the commit's short hash and
 * the change, and its title says what is known (the commits it spans), never
 * "build unknown". Read from plot-history.dat and the variables recorded at
 * its end. Skipped without gnuplot.
 */
#include "support/history_synth.h"
#include "support/testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NRUNS 20
#define SLOW_FROM 13

/* The value of variable `name` in the "# variables:" line, into out. */
static void variable(const char *dat, const char *name, char *out, size_t n)
{
	char key[64];
	const char *v = strstr(dat, "# variables: "), *end;

	out[0] = '\0';
	snprintf(key, sizeof(key), "%s=\"", name);
	v = v ? strstr(v, key) : NULL;
	if (v && (v == dat || v[-1] == ';' || v[-1] == ' ')) {
		v += strlen(key);
		end = strstr(v, "\";");
		snprintf(out, n, "%.*s", end ? (int)(end - v) : 0, v);
	}
}

/* The block number of the case whose title line is "# copy/<strategy> ...". */
static int block_of(const char *dat, const char *strategy)
{
	char want[64];
	int block = 0;

	snprintf(want, sizeof(want), "# copy/%s ", strategy);
	for (const char *l = dat; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (!strncmp(l, want, strlen(want)))
			return block;
		if (!strncmp(l, "# copy/", 7) || !strncmp(l, "# limit/", 8) ||
		    !strncmp(l, "# level shifts", 14))
			block++;
	}
	return -1;
}

int main(void)
{
	char db[600], out[600], name[32], sha[48], want[128], v[8192];
	const char *dat;
	size_t len = 0;
	int rc, b;

	if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
		printf("history_plot_highlights_shift: skipped: gnuplot is not installed\n");
		test_cleanup_dir();
		return 77;
	}
	snprintf(db, sizeof(db), "%s", hsynth_path("shift.sqlite"));
	snprintf(out, sizeof(out), "%s", hsynth_path("charts"));
	for (int i = 1; i <= NRUNS; i++) {
		struct hsynth s = hsynth_default((uint64_t)(900 + i));

		s.run_noise = 0.002;
		s.jitter = 0.002;
		s.factor[1] = i >= SLOW_FROM ? 1.25 : 1.0;
		snprintf(name, sizeof(name), "r%d", i);
		snprintf(sha, sizeof(sha), "%07x0000000000000000000000000000000%02d", 0xabc0000 + i, i);
		rc = hrun("add", hsynth_write(name, &s), "--commit", sha, "--branch", "main",
			  "--db", db, (char *)NULL);
		CHECK_EQ_U64(rc, 0);
	}
	rc = hrun("plot", "--db", db, "--out", out, (char *)NULL);
	CHECK_EQ_U64(rc, 0);
	if (rc)
		fprintf(stderr, "history plot: %s%s", hout, herr);
	snprintf(out + strlen(out), sizeof(out) - strlen(out), "/plot-history.dat");
	dat = hslurp(out, &len);
	CHECK(dat != NULL);
	if (!dat)
		return test_report("history_plot_highlights_shift");
	/* x: short hashes alone, the first and the thirteenth commit among them */
	variable(dat, "xt", v, sizeof(v));
	CHECK(strstr(v, "('abc0001' 0, 'abc0002' 1,") == v);
	CHECK(strstr(v, "'abc000d' 12") != NULL);
	/* sendfile's shift at the thirteenth commit: circled and labelled */
	snprintf(want, sizeof(want), " \"abc000d -20.0%%\"\n");
	CHECK(strstr(dat, want) != NULL);
	if (!strstr(dat, want))
		fprintf(stderr, "no shift label '%s' in:\n%s", want, dat);
	/* sendfile's block bold and banded, readwrite's not */
	variable(dat, "banded", v, sizeof(v));
	b = block_of(dat, "sendfile");
	CHECK(b >= 0);
	for (int k = 0, i = 0; b >= 0 && v[i]; k++, i += 2) {
		if (k == b)
			CHECK(v[i] == '1');
		else if (k == block_of(dat, "readwrite"))
			CHECK(v[i] == '0');
	}
	variable(dat, "ttl", v, sizeof(v));
	CHECK(strstr(v, "Throughput over 20 commits, abc0001 to abc0014") != NULL);
	CHECK(strstr(v, "unknown") == NULL);
	if (strstr(v, "unknown") || !strstr(v, "20 commits"))
		fprintf(stderr, "title: %s\n", v);
	test_cleanup_dir();
	return test_report("history_plot_highlights_shift");
}
