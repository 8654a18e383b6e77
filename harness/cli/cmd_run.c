// SPDX-License-Identifier: MIT
/*
 * cmd_run.c - `bench [options]`: parse the options, then take the steps of a
 * run (run_steps.c) here, or once per filesystem with --fs (run_fs.c).
 */
#include "commands.h"
#include "run.h"
#include "host/interrupt.h"
#include "options/cli.h"

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

/* An interrupted run says so in one line, whatever step it was in:
 * results is where the runs done were written, NULL if none were. */
static int say_interrupted(int ret, const char *results)
{
	const char *sig = interrupt_signal == SIGINT ? "SIGINT" : "SIGTERM";

	if (!interrupt_signal)
		return ret;
	if (results)
		fprintf(stderr, "bench: interrupted by %s: the runs done are in %s; the cases not run say 'not run'\n",
			sig, results);
	else
		fprintf(stderr, "bench: interrupted by %s before any run: no results written\n", sig);
	return interrupt_exit_code();
}

int cmd_run(int argc, char **argv)
{
	struct bench_opts o;
	struct runner r = { .o = &o };
	bool measured;
	int ret;

	clock_gettime(CLOCK_REALTIME, &r.times.start);
	costs_begin(&r.costs, runner_now_ns());
	ret = options_parse(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (o.completion) {
		cli_completion_bash(stdout);
		return 0;
	}
	if (o.help_markdown) {
		cli_help_markdown(stdout);
		return 0;
	}
	ret = run_check_outputs(&o);
	if (ret)
		return ret;
	if (o.fs.n && !o.dry_run)
		return say_interrupted(run_filesystems(&o), "the results folder");
	if (o.fs.n) {
		ret = run_fs_preflight(&o);
		if (ret)
			return ret;
	}
	progress_init(&r.progress, o.quiet);
	if (o.dry_run) {
		ret = run_dry_run(&r);
		run_free(&r);
		return ret;
	}
	ret = run_prepare(&r);
	measured = !ret;
	if (measured)
		ret = run_measure(&r);
	runner_remove_workdir(&r);
	run_free(&r);
	return say_interrupted(ret, measured ? r.results : NULL);
}
