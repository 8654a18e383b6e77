/* SPDX-License-Identifier: MIT */
/*
 * history_synth.h - for the history tests: synthetic results folders with
 * known times and system-call counts, and `bench history` run in-process
 * with its output captured.
 */
#ifndef COPYBENCH_HISTORY_SYNTH_H
#define COPYBENCH_HISTORY_SYNTH_H

#include <stddef.h>
#include <stdint.h>

/* Cases 0-2 copy strategies, 3 the memcpy reference, 4 an extra strategy. */
#define HSYNTH_CASES 5

struct hsynth {
	const char *host;	/* "vm" when NULL */
	unsigned reps;
	uint64_t seed;
	double factor[HSYNTH_CASES];	/* the code got slower */
	double case_noise[HSYNTH_CASES];	/* per run, per case: +-, shared by its reps */
	double machine;		/* the whole machine got slower, memcpy too */
	double run_noise;	/* per run, all cases: +- */
	double jitter;		/* per measurement: +- */
	int syscall_plus;	/* case whose read count grows by 1, or -1 */
	int drop;		/* case left out, or -1 */
	int with_extra;		/* write case 4 */
	const char *meta;	/* meta.json's content, or NULL for none */
};

/* Defaults: 5 reps, no change, +-1% per run, +-0.5% jitter. */
struct hsynth hsynth_default(uint64_t seed);
/* Writes the folder name under the test's temporary directory; its path. */
const char *hsynth_write(const char *name, const struct hsynth *s);
/* A path under the test's temporary directory. */
const char *hsynth_path(const char *name);

/* bench history ARGS... (NULL-terminated): exit code; output in hout/herr. */
extern char hout[65536], herr[8192];
int hrun(const char *first, ...);
/* The verdict of strategy's case in a --format csv report in hout. */
const char *hverdict(const char *strategy);
/* The whole content of a file (static buffer), or NULL. */
const char *hslurp(const char *path, size_t *len);

#endif
