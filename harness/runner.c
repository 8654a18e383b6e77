// SPDX-License-Identifier: MIT
/*
 * runner.c - the measurement loop.
 *
 * For every run the parent sets the page-cache state of the source and checks
 * it with mincore, then forks a fresh child. The child opens its files
 * (untimed), reads the clock, calls the workload's run(), reads the clock
 * again, and reports the time through a pipe. The parent collects the child's
 * rusage with wait4 (the child's own children included), verifies the output
 * against the expected XXH3 hash and removes it. Nothing but the workload's
 * run() is inside the clock.
 */
#include "runner.h"
#include "interrupt.h"
#include "stats.h"
#include "units.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a child tells its parent. */
struct child_report {
	int err;
	uint64_t wall_ns;
	char msg[256];
	struct syscount counts;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

static void write_report(int fd, const struct child_report *rep)
{
	const char *p = (const char *)rep;
	size_t left = sizeof(*rep);

	while (left) {
		ssize_t n = write(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		left -= (size_t)n;
	}
}

/* The child: untimed setup, the timed run, untimed teardown, report, exit. */
static void __attribute__((noreturn))
child_main(struct runner *r, struct bench_case *c, const char *dst, int wfd,
	   bool counting)
{
	struct run_ctx ctx = {
		.c = c, .src = c->ds->path, .dst = dst, .src_fd = -1, .dst_fd = -1,
	};
	struct child_report rep;
	uint64_t t0, t1;

	interrupt_reset_child();
	memset(&rep, 0, sizeof(rep));
	rep.err = c->wl->setup ? c->wl->setup(&ctx) : 0;
	if (!rep.err) {
		if (counting)
			syscount_begin(r->sc);
		t0 = now_ns();
		rep.err = c->wl->run(&ctx);
		t1 = now_ns();
		if (counting)
			syscount_end(r->sc, &rep.counts);
		rep.wall_ns = t1 - t0;
		if (c->wl->teardown)
			c->wl->teardown(&ctx);
	}
	snprintf(rep.msg, sizeof(rep.msg), "%s", ctx.msg);
	write_report(wfd, &rep);
	_exit(0);
}

/* Reads the child's report; false when it sent none (it died). */
static bool read_report(int fd, struct child_report *rep)
{
	char *p = (char *)rep;
	size_t got = 0;

	while (got < sizeof(*rep)) {
		ssize_t n = read(fd, p + got, sizeof(*rep) - got);

		if (n < 0 && errno == EINTR) {
			if (interrupt_signal)
				return false;
			continue;
		}
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

/* Waits for the child; on an interruption, kills it first. */
static int reap_child(struct runner *r, pid_t pid, bool counting, int *status,
		      struct rusage *ru, struct syscount *counts)
{
	for (;;) {
		pid_t got;

		if (interrupt_signal)
			kill(pid, SIGKILL);
		if (counting && r->sc)
			return syscount_wait(r->sc, pid, status, ru, counts) < 0 ? -ECHILD : 0;
		got = wait4(pid, status, 0, ru);
		if (got == pid)
			return 0;
		if (got < 0 && errno != EINTR)
			return -errno;
	}
}

static void describe_failure(struct runner *r, struct bench_case *c, int status,
			     const struct child_report *rep, bool reported)
{
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);

		snprintf(c->why, sizeof(c->why), "the run was killed by %s%s%s",
			 sigabbrev_np(sig) ? "SIG" : "", sigabbrev_np(sig) ? sigabbrev_np(sig) : "a signal",
			 sig == SIGBUS ? " (the source shrank during the copy, or the filesystem is full)" : "");
	} else if (!reported) {
		snprintf(c->why, sizeof(c->why), "the run exited with status %d without a report",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else if (rep->err == -EFAULT) {
		snprintf(c->why, sizeof(c->why),
			 "the source shrank during the copy (EFAULT: a write from its mapping went past its end)");
	} else if (rep->err == -ENOSPC || rep->err == -EDQUOT) {
		snprintf(c->why, sizeof(c->why), "%.40s writing the copy of %.80s into %.80s (output removed)",
			 strerror(-rep->err), c->ds->path, r->workdir);
	} else {
		snprintf(c->why, sizeof(c->why), "%s%s%.200s", strerror(-rep->err),
			 rep->msg[0] ? ": " : "", rep->msg);
	}
}

static void fill_result(struct run_result *res, const struct child_report *rep,
			const struct rusage *ru)
{
	res->wall_ns = rep->wall_ns;
	res->user_ns = tv_ns(ru->ru_utime);
	res->sys_ns = tv_ns(ru->ru_stime);
	res->max_rss_kb = ru->ru_maxrss;
	res->minflt = ru->ru_minflt;
	res->majflt = ru->ru_majflt;
	res->nvcsw = ru->ru_nvcsw;
	res->nivcsw = ru->ru_nivcsw;
}

/* Sets the cache state; a cold state that cannot be reached is unavailable. */
static int prepare_cache(struct runner *r, struct bench_case *c, double *pct)
{
	int err = cache_set(c->ds->path, c->cache, r->o->drop_caches, pct);

	if (err) {
		snprintf(c->why, sizeof(c->why), "cannot set the %s cache state: %s",
			 cache_mode_name(c->cache), strerror(-err));
		return err;
	}
	if (!cache_state_ok(c->cache, *pct) && c->cache == CACHE_COLD) {
		snprintf(c->why, sizeof(c->why),
			 "cannot evict the source from the page cache (%.0f%% resident after POSIX_FADV_DONTNEED, as on tmpfs)",
			 *pct);
		c->state = CASE_UNAVAILABLE;
		return -EAGAIN;
	}
	return 0;
}

int runner_run_once(struct runner *r, struct bench_case *c, bool counting,
		    struct run_result *res)
{
	struct child_report rep;
	struct syscount traced = { 0 };
	struct rusage ru;
	char dst[PATH_MAX + 32];
	int fds[2], status = 0, err;
	bool reported;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	memset(&rep, 0, sizeof(rep));
	err = prepare_cache(r, c, &res->resident_pct);
	if (err)
		return err;
	snprintf(dst, sizeof(dst), "%s/out-%u", r->workdir, ++r->seq);
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	counting = counting && r->sc;
	pid = counting ? syscount_fork(r->sc) : fork();
	if (pid < 0) {
		err = -errno;
		goto out_close_pipe;
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(r, c, dst, fds[1], counting);
	}
	close(fds[1]);
	fds[1] = -1;
	/* Reap first: a traced child is stopped at every syscall until the
	 * tracer's wait loop lets it go; its small report waits in the pipe. */
	err = reap_child(r, pid, counting, &status, &ru, &traced);
	if (err)
		goto out_remove_output;
	reported = read_report(fds[0], &rep);
	if (counting && strcmp(syscount_session_method(r->sc), "ptrace") == 0)
		rep.counts = traced;
	if (interrupt_signal) {
		err = -EINTR;
		goto out_remove_output;
	}
	if (!reported || rep.err || !WIFEXITED(status) || WEXITSTATUS(status)) {
		describe_failure(r, c, status, &rep, reported);
		err = rep.err ? rep.err : -ECHILD;
		goto out_remove_output;
	}
	fill_result(res, &rep, &ru);
	err = c->wl->verify(c, dst, c->why, sizeof(c->why));
	if (err) {
		char why[sizeof(c->why)];

		snprintf(why, sizeof(why), "%s", c->why);
		snprintf(c->why, sizeof(c->why), "verification failed: %.220s", why);
		goto out_remove_output;
	}
	res->verified = true;
	if (c->wl->inspect)
		c->wl->inspect(c, dst);
	if (counting)
		c->counts = rep.counts;

out_remove_output:
	c->wl->remove_output(c, dst);
out_close_pipe:
	if (fds[1] >= 0)
		close(fds[1]);
	close(fds[0]);
	return err;
}

/* ------------------------------------------------------ rounds -------- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void shuffle(size_t *order, size_t n, uint64_t seed, unsigned round)
{
	uint64_t state = seed ^ (0x5851f42d4c957f2dull * (round + 1));

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(splitmix64(&state) % i);
		size_t t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

static void progress(struct runner *r, unsigned round, unsigned rounds,
		     size_t done, const struct bench_case *c)
{
	char size[32];

	if (!r->progress)
		return;
	format_size(c->size, size, sizeof(size));
	fprintf(stderr, "\r\033[K[round %u/%u, case %zu/%zu] %s %s %s %s %s",
		round + 1, rounds, done + 1, r->ncases, c->wl->name, c->variant,
		dataset_kind_name(c->ds->kind), size, cache_mode_name(c->cache));
	fflush(stderr);
}

/* How many measured runs c gets: --repeat, or 5 (3 when a run is slow). */
static unsigned case_target(const struct runner *r, const struct bench_case *c,
			    uint64_t first_wall_ns)
{
	if (r->o->repeat)
		return r->o->repeat;
	(void)c;
	return first_wall_ns > 2000000000ull ? 3 : 5;
}

static void record(struct bench_case *c, const struct run_result *res, unsigned rep)
{
	c->runs[c->nruns] = *res;
	c->runs[c->nruns].rep = rep;
	c->nruns++;
}

/* One run of one case in a round: warmup/counting or measured. */
static void run_case_round(struct runner *r, struct bench_case *c, unsigned round,
			   unsigned warm_rounds, unsigned *target)
{
	struct run_result res;
	bool measured = round >= warm_rounds;
	int err;

	if (c->state == CASE_FAILED || c->state == CASE_UNAVAILABLE)
		return;
	if (measured && c->nruns >= *target)
		return;
	err = runner_run_once(r, c, round == 0 && r->sc && !c->wl->uncounted, &res);
	if (err == -EINTR && interrupt_signal)
		return;
	if (err) {
		if (c->state != CASE_UNAVAILABLE)
			c->state = CASE_FAILED;
		if (err == -EFBIG && (c->strategy && (c->strategy->flags & STRATEGY_WHOLE_FILE))) {
			c->state = CASE_UNAVAILABLE;
			snprintf(c->why, sizeof(c->why),
				 "the whole file does not fit the RAM budget (half of available memory)");
		}
		return;
	}
	if (round == 0)
		*target = case_target(r, c, res.wall_ns);
	if (measured)
		record(c, &res, c->nruns + 1);
}

int runner_run_all(struct runner *r)
{
	unsigned warm_rounds = r->o->warmup, max_target = r->o->repeat ? r->o->repeat : 5;
	unsigned rounds, *target;
	size_t *order;
	int err = 0;

	if (r->sc && warm_rounds == 0)
		warm_rounds = 1;	/* the counting run is never measured */
	rounds = warm_rounds + max_target;
	order = calloc(r->ncases, sizeof(*order));
	target = calloc(r->ncases, sizeof(*target));
	if (!order || !target) {
		err = -ENOMEM;
		goto out_free;
	}
	for (size_t i = 0; i < r->ncases; i++) {
		target[i] = max_target;
		r->cases[i].runs = calloc(max_target, sizeof(struct run_result));
		if (!r->cases[i].runs) {
			err = -ENOMEM;	/* runner_free() frees those made */
			goto out_free;
		}
		if (r->cases[i].state == CASE_PENDING)
			r->cases[i].state = CASE_OK;
	}
	for (unsigned round = 0; round < rounds && !interrupt_signal; round++) {
		shuffle(order, r->ncases, r->o->seed, round);
		for (size_t k = 0; k < r->ncases && !interrupt_signal; k++) {
			struct bench_case *c = &r->cases[order[k]];

			progress(r, round, rounds, k, c);
			run_case_round(r, c, round, warm_rounds, &target[order[k]]);
		}
	}
	if (r->progress)
		fprintf(stderr, "\r\033[K");
	if (interrupt_signal)
		err = -EINTR;
out_free:
	free(order);
	free(target);
	return err;
}

/* ------------------------------------------------------ work dir ------ */

/* The work directory carries its owner's pid: work-<pid>-XXXXXX. */
int runner_make_workdir(struct runner *r, const char *dir)
{
	snprintf(r->workdir, sizeof(r->workdir), "%s/work-%ld-XXXXXX", dir, (long)getpid());
	if (!mkdtemp(r->workdir)) {
		int err = -errno;

		r->workdir[0] = '\0';
		return err;
	}
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw);

/*
 * A run killed with SIGKILL cannot remove its work directory. The next run
 * in the same --dir removes those whose owner no longer exists: only
 * directories named as bench names them (work-<pid>-XXXXXX), never anything
 * else. Returns how many it removed.
 */
int runner_remove_stale_workdirs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int removed = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[PATH_MAX], tail[8];
		long pid;

		if (sscanf(e->d_name, "work-%ld-%6[A-Za-z0-9]", &pid, tail) != 2 ||
		    strlen(tail) != 6 || pid <= 0 || pid == (long)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void runner_remove_workdir(struct runner *r)
{
	if (!r->workdir[0])
		return;
	nftw(r->workdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	r->workdir[0] = '\0';
}
