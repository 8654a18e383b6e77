// SPDX-License-Identifier: MIT
/*
 * ab_engine.c - bench ab from its options to its exit code: A and B
 * checked, the dataset and a private work directory, the cases, the first
 * worker of each side and its probes of the strategies, the rounds (a new
 * pair of workers for every pair: ab_rounds.c) and the verdicts
 * (ab_report.c).
 *
 * Exit codes, as bench check's (abstat.h's ab_exit_code): 0 no regression
 * (every case's interval below 1 + threshold), 1 a regression or a case B
 * failed, 2 bad usage or a case A failed, 3 inconclusive.
 */
#include "ab_internal.h"
#include "host/interrupt.h"
#include "lib/fsinfo.h"
#include "strategies/strategy.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int ab_add_case(struct ab_run *r, const char *name)
{
	struct ab_case *c;
	size_t max = ab_last_look(r->o->rounds);

	if (r->ncases == AB_MAX_CASES) {
		fprintf(stderr, "bench ab: more than %d strategies\n", AB_MAX_CASES);
		return -EINVAL;
	}
	c = &r->c[r->ncases++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->failed = -1;
	c->v = AB_INCONCLUSIVE;
	c->cp[0] = calloc(max, sizeof(struct ab_copy));
	c->cp[1] = calloc(max, sizeof(struct ab_copy));
	c->logr = calloc(max, sizeof(double));
	c->round = calloc(max, sizeof(long));
	return c->cp[0] && c->cp[1] && c->logr && c->round ? 0 : -ENOMEM;
}

/* The cases: the strategies named, or every one available here. */
static int ab_plan(struct ab_run *r)
{
	const struct str_list *l = &r->o->strategies;
	char why[200];

	for (size_t i = 0; i < l->n; i++)
		if (ab_add_case(r, l->v[i]))
			return -EINVAL;
	for (size_t i = 0; !l->n && i < strategy_count; i++) {
		const struct copy_strategy *st = strategy_table[i];

		if (!(st->flags & STRATEGY_TEST_ONLY) && !strategy_probe(st, r->workdir, why, sizeof(why)) &&
		    ab_add_case(r, st->name))
			return -EINVAL;
	}
	if (!r->ncases)
		fprintf(stderr, "bench ab: no strategy to compare\n");
	return r->ncases ? 0 : -EINVAL;
}

/*
 * A and B, before any data is made: each an executable file that answers
 * --version with exit 0 (a bench, or a script that runs one). 0, or -1
 * after one line.
 */
static int ab_check_exe(const char *which, const char *exe)
{
	char *const argv[] = { (char *)exe, "--version", NULL };
	struct stat st;
	int status = -1;
	pid_t pid;

	if (stat(exe, &st)) {
		fprintf(stderr, "bench ab: %s '%s': %s\n", which, exe, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !(st.st_mode & 0111) || access(exe, X_OK)) {
		fprintf(stderr, "bench ab: %s '%s': not an executable file (give a bench executable, or a script that runs one)\n",
			which, exe);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		interrupt_reset_child();
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execv(exe, argv);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	fprintf(stderr, "bench ab: %s '%s': '%s --version' failed: not a bench executable\n",
		which, exe, exe);
	return -1;
}

/* The dataset (shared with bench's) and a private work directory. */
static int ab_setup(struct ab_run *r)
{
	char made[PATH_MAX];
	int err = fs_make_dirs(r->o->dir, made, sizeof(made));

	if (err) {
		fprintf(stderr, "bench ab: cannot create %s: %s\n", r->o->dir, strerror(-err));
		return -1;
	}
	if (strpbrk(r->o->dir, "\t\n")) {
		fprintf(stderr, "bench ab: --dir %s: a tab or a newline in its name cannot be sent to a worker\n",
			r->o->dir);
		return -1;
	}
	snprintf(r->workdir, sizeof(r->workdir), "%s/work-%ld-XXXXXX", r->o->dir, (long)getpid());
	if (!mkdtemp(r->workdir)) {
		fprintf(stderr, "bench ab: cannot create a work directory in %s: %s\n", r->o->dir, strerror(errno));
		r->workdir[0] = '\0';
		return -1;
	}
	snprintf(r->dst, sizeof(r->dst), "%s/copy.out", r->workdir);
	r->ds = (struct dataset){ .kind = r->o->kind, .size = r->o->size, .seed = 1 };
	dataset_stop = &interrupt_signal;
	err = dataset_ensure(&r->ds, r->o->dir, NULL);
	if (err)
		fprintf(stderr, "bench ab: cannot make the %s dataset in %s: %s\n",
			dataset_kind_name(r->o->kind), r->o->dir, strerror(-err));
	return err ? -1 : 0;
}

/* The two workers, started once; a side that cannot start fails its cases
 * when they are probed. */
static void ab_start_workers(struct ab_run *r)
{
	for (int side = 0; side < 2; side++) {
		int err = ab_worker_start(r, side);

		if (err)
			fprintf(stderr, "bench ab: cannot start %c's worker: %s\n", ab_side_name[side],
				strerror(-err));
	}
	ab_probe_all(r);
}

static void ab_free(struct ab_run *r)
{
	ab_worker_stop(&r->w[0]);
	ab_worker_stop(&r->w[1]);
	for (size_t i = 0; i < r->ncases; i++) {
		free(r->c[i].cp[0]);
		free(r->c[i].cp[1]);
		free(r->c[i].logr);
		free(r->c[i].round);
	}
	if (r->csv)
		fclose(r->csv);
	if (r->workdir[0]) {
		unlink(r->dst);
		rmdir(r->workdir);
	}
}

/* Too few rounds for any interval: said before anything runs. */
static int ab_enough_rounds(const struct ab_run *r)
{
	size_t need = ab_min_rounds(r->case_alpha / AB_LOOKS);

	if (r->o->rounds >= need)
		return 0;
	fprintf(stderr, "bench ab: with %u rounds no case can be judged: %zu cases at alpha %g over %d looks need at least %zu rounds each (signed-rank test: all %zu pairs the same way)\n",
		r->o->rounds, r->ncases, r->o->alpha, AB_LOOKS, need, need);
	return -1;
}

int ab_main(const struct ab_opts *o)
{
	static struct ab_run r;
	int ret = 2;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.t0 = ab_seconds();
	/* a worker that ends is read as its reply's end, not as a signal */
	signal(SIGPIPE, SIG_IGN);
	if (ab_check_exe("A", o->exe[0]) || ab_check_exe("B", o->exe[1]) ||
	    ab_setup(&r) || ab_plan(&r))
		goto out_free;
	r.case_alpha = o->alpha / (double)r.ncases;
	if (ab_enough_rounds(&r) || ab_open_csv(&r))
		goto out_free;
	ab_start_workers(&r);
	ab_rounds(&r);
	if (interrupt_signal) {
		fprintf(stderr, "bench ab: interrupted; nothing judged\n");
		ab_write_csv(&r, false);
		ret = interrupt_exit_code();
		goto out_free;
	}
	ret = ab_judge_all(&r);
out_free:
	ab_free(&r);
	return ret;
}
