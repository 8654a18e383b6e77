/* SPDX-License-Identifier: MIT */
/*
 * run.h - the steps of `bench [options]` (run_preflight.c, run_steps.c,
 * run_dry.c), which cmd_run.c takes once and `bench --fs` (run_fs.c) once
 * per filesystem before measuring them all together.
 */
#ifndef COPYBENCH_RUN_H
#define COPYBENCH_RUN_H

#include "run/runner.h"

/* --out and the --export-* files can be written. 0, or 2 after one line. */
int run_check_outputs(const struct bench_opts *o);
/* --dry-run: the run's own checks (run_preflight), then the cases and what
 * the run needs (disk space, an estimated duration); run and keep nothing.
 * 0 or the exit status the run would have. */
int run_dry_run(struct runner *r);
/* Bytes free for bench in dir; UINT64_MAX when it cannot tell. */
uint64_t run_dir_free(const char *dir);
/* mkdir -p --dir; what it made goes to made. 0, or 2 after one line. */
int run_make_dir(const struct bench_opts *o, char *made, size_t n);
/*
 * The checks before any work, shared by the run and the dry run: --dir
 * made (what was made goes to made) and usable, the plan and its checks,
 * no foreign file in the way, enough free space. 0, or the exit status
 * after one line (what was made removed again).
 */
int run_preflight(struct runner *r, char *made, size_t n);
/*
 * Everything before the first run, in r->o->dir: the plan and its checks,
 * the datasets, the work directory, the cases' preparation. 0, or the exit
 * status (the plan's usage errors: 2).
 */
int run_prepare(struct runner *r);
/* The runs of every case, interleaved, then the results written and shown.
 * The exit status. */
int run_measure(struct runner *r);
/* Frees the cases, their runs, the datasets and the counting session. */
void run_free(struct runner *r);

/* `bench --fs LIST`: the plan on each filesystem (run_fs.c). The exit status. */
int run_filesystems(struct bench_opts *o);
/* `bench --fs LIST`'s checks before anything is made (names, root, plan,
 * host space), for the dry run. 0, or the exit status after one line. */
int run_fs_preflight(struct bench_opts *o);

#endif
