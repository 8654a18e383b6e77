// SPDX-License-Identifier: MIT
/*
 * history_check_verdicts.c - `bench history check` on synthetic histories
 * with known answers: no change is ok, a case 30% slower is the one
 * regression, 4% slower is slower (also when memcpy got 20% faster: a
 * regression is slower beyond the threshold in plain time too), a machine
 * 25% slower is ok, one more
 * read is syscalls-changed, new and missing cases are named, runs of
 * another host are not compared with, a case whose runs swing +-15% from run
 * to run is not a regression at +25% (beyond the 5% threshold, inside its
 * spread: inconclusive) while a quiet case is, the window
 * decides which runs count, and a run already in the history is not
 * compared with itself.
 */
#include "support/history_synth.h"
#include "support/testutil.h"

#include <stdio.h>
#include <string.h>

static char db1[600], db2[600], db3[600], db4[600];

/* Adds synthetic run s as commit name to db. */
static void add(const char *db, const char *name, const struct hsynth *s)
{
	const char *dir = hsynth_write(name, s);
	int rc = hrun("add", dir, "--commit", name, "--branch", "main", "--db", db, (char *)NULL);

	CHECK(rc == 0);
	if (rc)
		fprintf(stderr, "add %s: %s", name, herr);
}

static int check(const char *db, const char *dir, const char *extra)
{
	return hrun("check", "--current", dir, "--db", db, "--format", "csv",
		    extra ? extra : "--threshold=5%", (char *)NULL);
}

/* Ten quiet runs on host vm, then five 30% faster ones on another host. */
static void history_quiet(void)
{
	char name[32];

	for (int i = 1; i <= 10; i++) {
		struct hsynth s = hsynth_default((uint64_t)i);

		snprintf(name, sizeof(name), "q%d", i);
		add(db1, name, &s);
	}
	for (int i = 1; i <= 5; i++) {
		struct hsynth s = hsynth_default((uint64_t)(50 + i));

		s.host = "elsewhere";
		s.factor[0] = s.factor[1] = s.factor[2] = 0.7;
		snprintf(name, sizeof(name), "e%d", i);
		add(db1, name, &s);
	}
}

/* A current run checked against db1: the default synthetic run of seed,
 * copy_file_range's code cfr times slower, memcpy's ref times and the whole
 * machine machine times; its exit code and some cases' verdicts. */
struct quiet_case {
	const char *name;
	uint64_t seed;
	double cfr, ref, machine;
	int rc;
	const char *want[4][2];	/* strategy, verdict; up to a NULL strategy */
};

static const struct quiet_case quiet_cases[] = {
	{ "same", 101, 1, 1, 1, 0, { { "readwrite", "ok" }, { "sendfile", "ok" },
				      { "copy_file_range", "ok" }, { "memcpy", "ok" } } },
	{ "cfr30", 102, 1.3, 1, 1, 1, { { "copy_file_range", "regression" },
					{ "readwrite", "ok" }, { "sendfile", "ok" } } },
	{ "cfr4", 103, 1.04, 1, 1, 0, { { "copy_file_range", "slower" } } },
	/* 30 % slower than memcpy, 4 % in plain time: not cleared */
	{ "cfr4fastref", 107, 1.04, 0.8, 1, 3, { { "copy_file_range", "inconclusive" } } },
	{ "machine", 104, 1, 1, 1.25, 0, { { "copy_file_range", "ok" }, { "readwrite", "ok" } } },
};

static void verdicts_quiet(void)
{
	for (size_t i = 0; i < sizeof(quiet_cases) / sizeof(quiet_cases[0]); i++) {
		const struct quiet_case *q = &quiet_cases[i];
		struct hsynth s = hsynth_default(q->seed);

		s.factor[2] = q->cfr;
		s.factor[3] = q->ref;
		s.machine = q->machine;
		CHECK_EQ_U64(check(db1, hsynth_write(q->name, &s), NULL), q->rc);
		for (size_t k = 0; k < 4 && q->want[k][0]; k++) {
			const char *got = hverdict(q->want[k][0]);

			CHECK(strcmp(got, q->want[k][1]) == 0);
			if (strcmp(got, q->want[k][1]))
				fprintf(stderr, "%s: %s is %s, expected %s\n", q->name,
					q->want[k][0], got, q->want[k][1]);
		}
	}
}

static void verdicts_cases(void)
{
	struct hsynth s = hsynth_default(105);
	int rc;

	s.syscall_plus = 1;
	rc = check(db1, hsynth_write("syscall", &s), NULL);
	CHECK_EQ_U64(rc, 1);
	CHECK(strcmp(hverdict("sendfile"), "syscalls-changed") == 0);
	CHECK(strstr(hout, "read 10->11"));

	s = hsynth_default(106);
	s.with_extra = 1;
	s.drop = 2;
	rc = check(db1, hsynth_write("newmissing", &s), NULL);
	CHECK_EQ_U64(rc, 2);
	CHECK(strcmp(hverdict("splice"), "new") == 0);
	CHECK(strcmp(hverdict("copy_file_range"), "missing") == 0);
	CHECK(strstr(herr, "bench history check: error: case copy/copy_file_range random 1M warm is in the baseline but not in the current results"));
	rc = check(db1, hsynth_path("newmissing"), "--allow-missing");
	CHECK_EQ_U64(rc, 0);

	rc = hrun("check", "--current", hsynth_path("cfr30"), "--db", db1, "--format",
		  "markdown", (char *)NULL);
	CHECK_EQ_U64(rc, 1);
	CHECK(strncmp(hout, "| case ", 7) == 0);
	CHECK(strstr(hout, "\n**bench history check:** 4 cases: "));
	CHECK(strstr(hout, " 1 regression, each run's fastest rep against up to 10 earlier runs;"));
	CHECK(strstr(hout, "runs compared: host vm, Linux 6.1.0-test, ext4"));
	CHECK(!strstr(hout, "build unknown"));
	CHECK(strstr(hout, "- copy/copy_file_range random 1M warm: regression: fastest rep +"));
}

/* A case whose runs swing +-15% is not a regression at +25%, nor can one be
 * ruled out (inconclusive); a quiet one is. */
static void verdicts_noisy(void)
{
	struct hsynth s;
	char name[32];
	int rc;

	for (int i = 1; i <= 10; i++) {
		s = hsynth_default((uint64_t)(200 + i));
		s.case_noise[0] = 0.15;
		snprintf(name, sizeof(name), "n%d", i);
		add(db2, name, &s);
	}
	s = hsynth_default(301);
	s.factor[0] = 1.25;
	s.factor[2] = 1.25;
	rc = check(db2, hsynth_write("noisy25", &s), NULL);
	CHECK_EQ_U64(rc, 1);
	CHECK(strcmp(hverdict("readwrite"), "inconclusive") == 0);
	CHECK(strcmp(hverdict("copy_file_range"), "regression") == 0);
}

/* Ten slow runs, then ten fast ones: the window says which are compared. */
static void verdicts_window(void)
{
	struct hsynth s;
	char name[32];
	int rc;

	for (int i = 1; i <= 20; i++) {
		s = hsynth_default((uint64_t)(400 + i));
		s.factor[2] = i <= 10 ? 1.3 : 1.0;
		snprintf(name, sizeof(name), "w%d", i);
		add(db3, name, &s);
	}
	s = hsynth_default(501);
	s.factor[2] = 1.3;
	rc = check(db3, hsynth_write("slow-again", &s), "--window=10");
	CHECK_EQ_U64(rc, 1);
	CHECK(strcmp(hverdict("copy_file_range"), "regression") == 0);
	rc = check(db3, hsynth_path("slow-again"), "--window=20");
	CHECK_EQ_U64(rc, 0);
	CHECK(strcmp(hverdict("copy_file_range"), "ok") == 0);
}

/*
 * Two earlier runs give no spread: the timing is not judged, and a gate that
 * cannot judge says inconclusive (exit 3), in the csv's verdict and the
 * json's, never no regression. With three the quiet case is judged: 0.
 */
static void verdicts_too_few(void)
{
	static char db5[600];
	struct hsynth s = hsynth_default(701);
	int rc;

	snprintf(db5, sizeof(db5), "%s", hsynth_path("h5.sqlite"));
	add(db5, "f1", &s);
	s = hsynth_default(702);
	add(db5, "f2", &s);
	s = hsynth_default(703);
	rc = check(db5, hsynth_write("f3", &s), NULL);
	CHECK_EQ_U64(rc, 3);
	CHECK(strcmp(hverdict("readwrite"), "inconclusive") == 0);
	CHECK(strstr(herr, "fewer than 3 earlier runs: their timing is not judged yet (inconclusive)") != NULL);
	rc = hrun("check", "--current", hsynth_path("f3"), "--db", db5, "--format", "json",
		  (char *)NULL);
	CHECK_EQ_U64(rc, 3);
	CHECK(strstr(hout, "\"verdict\": \"inconclusive\", \"exit\": 3") != NULL);
	rc = hrun("check", "--current", hsynth_path("f3"), "--db", db5, (char *)NULL);
	CHECK(strstr(hout, "; inconclusive; exit 3") != NULL);
	add(db5, "f3", &s);
	s = hsynth_default(704);
	rc = check(db5, hsynth_write("f4", &s), NULL);
	CHECK_EQ_U64(rc, 0);
	CHECK(strcmp(hverdict("readwrite"), "ok") == 0);
}

/* A run is not its own baseline. */
static void verdicts_self(void)
{
	struct hsynth s = hsynth_default(601);
	int rc;

	add(db4, "only", &s);
	rc = check(db4, hsynth_path("only"), NULL);
	CHECK_EQ_U64(rc, 0);
	CHECK(strcmp(hverdict("readwrite"), "new") == 0);
	CHECK(strstr(herr, "bench history check: note: no earlier run in the history on this host, kernel, filesystem and build: every case is new"));
	rc = hrun("check", "--current", hsynth_path("only"), "--db", hsynth_path("none.sqlite"), (char *)NULL);
	CHECK_EQ_U64(rc, 2);
}

int main(void)
{
	snprintf(db1, sizeof(db1), "%s", hsynth_path("h1.sqlite"));
	snprintf(db2, sizeof(db2), "%s", hsynth_path("h2.sqlite"));
	snprintf(db3, sizeof(db3), "%s", hsynth_path("h3.sqlite"));
	snprintf(db4, sizeof(db4), "%s", hsynth_path("h4.sqlite"));
	history_quiet();
	verdicts_quiet();
	verdicts_cases();
	verdicts_noisy();
	verdicts_window();
	verdicts_self();
	verdicts_too_few();
	test_cleanup_dir();
	return test_report("history_check_verdicts");
}
