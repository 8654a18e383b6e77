// SPDX-License-Identifier: MIT
/*
 * runner.c - the measurement loop: one run of one case (the rounds that
 * take every case in turn are runner_rounds.c).
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
#include "child/child.h"
#include "child/command_exec.h"
#include "child/disturb.h"
#include "host/memstate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

uint64_t runner_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* What the child of one run works on: the workload's run, or a command's. */
struct run_work {
	const struct bench_case *c;
	struct run_ctx ctx;
	struct command_exec cmd;	/* spec.command */
};

static int work_setup(void *arg)
{
	struct run_work *w = arg;
	const struct case_spec *c = &w->c->spec;

	if (c->command)
		return command_exec_setup(&w->cmd, c->command_line, w->ctx.src, w->ctx.dst);
	return c->wl->setup ? c->wl->setup(&w->ctx) : 0;
}

static int work_run(void *arg)
{
	struct run_work *w = arg;

	if (w->c->spec.command)
		return command_exec_run(&w->cmd);
	return w->c->spec.wl->run(&w->ctx);
}

static void work_teardown(void *arg)
{
	struct run_work *w = arg;

	if (w->c->spec.command)
		command_exec_teardown(&w->cmd);
	else if (w->c->spec.wl->teardown)
		w->c->spec.wl->teardown(&w->ctx);
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

/* A failure's detail reaches the table whole: the workload's, through the
 * child's report, into the case's reason. */
_Static_assert(sizeof(((struct child_result *)0)->msg) >= sizeof(((struct run_ctx *)0)->msg),
	       "the child's report cuts the workload's message");
_Static_assert(sizeof(((struct bench_case *)0)->why) > sizeof(((struct child_result *)0)->msg),
	       "a case's reason cuts the child's message");

static void describe_failure(struct runner *r, struct bench_case *c,
			     const struct child_result *res)
{
	char why[200];

	if (c->spec.command && res->reported && res->err && res->msg[0]) {
		snprintf(c->why, sizeof(c->why), "%s", res->msg);
	} else if (child_describe(res, "the run", why, sizeof(why))) {
		snprintf(c->why, sizeof(c->why), "%s", why);
	} else if (res->err == -ENOSPC || res->err == -EDQUOT) {
		snprintf(c->why, sizeof(c->why), "%.40s writing the copy of %.580s into %.580s (output removed)",
			 strerror(-res->err), c->spec.ds->path, c->workdir ? c->workdir : r->workdir);
	} else {
		snprintf(c->why, sizeof(c->why), "%s%s%s", strerror(-res->err),
			 res->msg[0] ? ": " : "", res->msg);
	}
}

static void fill_result(struct run_result *res, const struct child_result *ch)
{
	res->wall_ns = ch->wall_ns;
	res->cpu_wait_ns = ch->cpu_wait_ns;
	res->cpu_run_ns = ch->cpu_run_ns;
	res->user_ns = tv_ns(ch->ru_timed.ru_utime);
	res->sys_ns = tv_ns(ch->ru_timed.ru_stime);
	res->max_rss_kb = ch->ru.ru_maxrss;
	res->minflt = ch->ru_timed.ru_minflt;
	res->majflt = ch->ru_timed.ru_majflt;
	res->child_minflt = ch->ru.ru_minflt;
	res->nvcsw = ch->ru_timed.ru_nvcsw;
	res->nivcsw = ch->ru_timed.ru_nivcsw;
	res->facts = ch->facts;
}

#define WARM_ATTEMPTS 3
#define WRITEBACK_WAIT_MS 10000u

/* Marks c unavailable: the cache state it asks for cannot be reached here. */
static int cache_unreachable(struct bench_case *c, double pct)
{
	if (c->cache == CACHE_COLD)
		snprintf(c->why, sizeof(c->why),
			 "cannot evict the source from the page cache (%.0f%% resident after POSIX_FADV_DONTNEED, as on tmpfs)",
			 pct);
	else
		snprintf(c->why, sizeof(c->why),
			 "cannot keep the source in the page cache (%.0f%% resident after reading it %d times: memory pressure?)",
			 pct, WARM_ATTEMPTS);
	c->state = CASE_UNAVAILABLE;
	return -EAGAIN;
}

/*
 * Sets the cache state and checks it, reading the source again when warm
 * pages were lost; a state that cannot be reached makes the case
 * unavailable, never a run recorded in the wrong state.
 */
static int prepare_cache(struct runner *r, struct bench_case *c, struct run_result *res)
{
	int attempts = c->cache == CACHE_WARM ? WARM_ATTEMPTS : 1, err = 0;
	double *pct = &res->resident_pct;
	struct cache_report rep;

	for (int i = 0; i < attempts; i++) {
		err = cache_set_report(c->spec.ds->path, c->cache, r->o->drop_caches, &rep);
		*pct = rep.resident_pct;
		if (err || cache_state_ok(c->cache, *pct))
			break;
	}
	res->metadata = rep.metadata;
	res->file_resident_max_pct = c->spec.files ? rep.file_resident_max_pct : -1;
	if (c->cache == CACHE_COLD && rep.metadata == METADATA_CACHED)
		c->metadata_cached = true;
	if (err) {
		snprintf(c->why, sizeof(c->why), "cannot set the %s cache state: %s",
			 cache_mode_name(c->cache), strerror(-err));
		return err;
	}
	return cache_state_ok(c->cache, *pct) ? 0 : cache_unreachable(c, *pct);
}

/*
 * Writes back the dirty data and inodes of the output's filesystem
 * (syncfs, which waits for it): what earlier runs left there, the removal
 * of their outputs included. Returns how long it took.
 */
static uint64_t sync_output_fs(const char *dir)
{
	uint64_t t0 = runner_now_ns();
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
	return runner_now_ns() - t0;
}

/*
 * Makes the output's filesystem clean (syncfs) and lets the flusher finish
 * writing back what anything else left, so that no run pays for another's
 * writeback (many small files leave dirty inodes and journal work behind,
 * not only pages); records how long the syncfs took, what was pending when
 * this run starts, and whether its output will cross the dirty-background
 * threshold (writeback inside the clock).
 */
static void settle_writeback(const struct runner *r, const struct bench_case *c,
			     struct run_result *res)
{
	uint64_t limit = memstate_background_threshold();
	struct memstate m;

	res->syncfs_ns = sync_output_fs(c->workdir ? c->workdir : r->workdir);
	memstate_wait_writeback(WRITEBACK_WAIT_MS, &m);
	res->dirty_kb = m.dirty_kb;
	res->writeback_kb = m.writeback_kb;
	res->over_threshold = limit && !(c->spec.wl->flags & WORKLOAD_LIMITS) &&
			      c->spec.expect_size + m.dirty_kb * 1024 > limit;
}

/*
 * Records what outside the run may have slowed it (disturb.h): judged on
 * the child's snapshots around its clock; reported_kib also covers the gap
 * since the previous run ended (the parent's snapshots), for the record.
 */
static void note_disturbance(struct runner *r, const struct disturb_probe *start,
			     const struct disturb_probe *end, const struct child_result *ch,
			     struct run_result *res)
{
	const struct disturb_probe *before = r->seq > 1 ? &r->last_probe : start;

	res->reported_kib = end->reported_kib < 0 ? -1 : end->reported_kib - before->reported_kib;
	if (ch->reported) {
		res->disturbed = disturb_judge(&ch->d0, &ch->d1);
		if (ch->d1.written_pages > ch->d0.written_pages)
			res->written_kb = (ch->d1.written_pages - ch->d0.written_pages) *
					  (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
	}
	res->disturbed |= disturb_test_mark(r->o->seed, res->seq);
	r->last_probe = *end;
}

/* Verifies the output of a run that exited well. */
static int check_output(struct bench_case *c, const char *dst)
{
	char why[sizeof(c->why)];
	struct stat st;
	int err;

	if (c->spec.command && lstat(dst, &st) && errno == ENOENT) {
		snprintf(c->why, sizeof(c->why), "verification failed: the command exited 0 but wrote nothing at {dst}");
		return -ENOENT;
	}
	err = c->spec.wl->verify(&c->spec, dst, why, sizeof(why));

	if (err) {
		snprintf(c->why, sizeof(c->why), "verification failed: %.1200s", why);
		return err;
	}
	return 0;
}

/*
 * What an output whose bytes are right is made of: any clone marks the case.
 * Holes fail it, unless it is a clone (which keeps the source's holes): a
 * copy must write every byte, and one that skips zeros is not measuring
 * the same work.
 */
static int inspect_output(struct bench_case *c, const char *dst, struct run_result *res)
{
	struct output_info info = { 0 };
	unsigned sflags = c->spec.strategy ? c->spec.strategy->flags : 0;

	if (c->spec.wl->inspect)
		c->spec.wl->inspect(&c->spec, dst, &info);
	res->output_blocks = info.blocks;
	if (info.hole_bytes && !info.shared_extents && !(sflags & STRATEGY_SHARES_EXTENTS)) {
		snprintf(c->why, sizeof(c->why),
			 "verification failed: the output has %llu bytes in holes (a copy must write every byte)",
			 (unsigned long long)info.hole_bytes);
		return -EBADMSG;
	}
	if (info.shared_extents)
		c->shared_extents = true;
	return 0;
}

/*
 * A command row's template for its source: the tree form when the source
 * is a directory, else the file form; a default without that form cannot
 * run for this workload. 0, or -EAGAIN with c marked unavailable.
 */
static int command_resolve(struct bench_case *c)
{
	const struct bench_command *cmd = c->spec.command;
	struct stat st;
	bool tree;
	char why[200];

	if (!cmd || c->spec.command_line)
		return 0;
	tree = stat(c->spec.ds->path, &st) == 0 && S_ISDIR(st.st_mode);
	c->spec.command_line = command_template(cmd, tree);
	if (cmd->twin && !strategy_find(cmd->twin) &&
	    !(tree && workload_variant_find(c->spec.wl, cmd->twin))) {
		c->spec.command_line = NULL;
		snprintf(c->why, sizeof(c->why), "bench copy has no strategy%s named %s",
			 tree ? " or tree method" : "", cmd->twin);
	} else if (!c->spec.command_line) {
		snprintf(c->why, sizeof(c->why), "the default command %s copies %s only",
			 cmd->name, tree ? "a file" : "a folder (a tree)");
	} else if (command_probe(c->spec.command_line, why, sizeof(why))) {
		c->spec.command_line = NULL;
		snprintf(c->why, sizeof(c->why), "%s", why);
	} else {
		return 0;
	}
	c->state = CASE_UNAVAILABLE;
	return -EAGAIN;
}

/* A page shared with the child, where a command row's child writes the
 * process group it starts; NULL for the other rows. */
/*
 * After a run: a verified output bench keeps (--destination fresh) stays
 * until the work directory goes; any other is removed now, and when it was
 * many files, the next run in outdir writes where they were freed.
 */
static void remove_or_keep_output(struct runner *r, const struct bench_case *c,
				  const struct run_result *res, const char *outdir,
				  const char *dst)
{
	if (res->verified && runner_keeps_output(r, c)) {
		r->kept_files += c->spec.files;
		r->kept_outputs++;
		return;
	}
	c->spec.wl->remove_output(&c->spec, dst);
	if (c->spec.wl->flags & WORKLOAD_KEEP_OUTPUTS)
		runner_note_freed(r, outdir);
}

static volatile int *command_group_page(const struct bench_case *c)
{
	void *p;

	if (!c->spec.command)
		return NULL;
	p = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int runner_run_once(struct runner *r, struct bench_case *c, bool counting,
		    struct run_result *res)
{
	struct run_work w = { .c = c };
	struct child_work work = {
		.setup = work_setup, .run = work_run, .teardown = work_teardown,
		.arg = &w, .msg = w.ctx.msg, .facts = &w.ctx.facts,
	};
	struct disturb_probe start, end;
	struct cost_stamps cs = { .start = runner_now_ns() };
	struct child_result ch;
	const char *outdir = c->workdir ? c->workdir : r->workdir;
	char dst[PATH_MAX + 32];
	int err;

	memset(res, 0, sizeof(*res));
	err = command_resolve(c);
	if (!err)
		runner_make_room(r, c, outdir);
	if (!err)
		err = prepare_cache(r, c, res);
	if (err)
		return err;
	cs.cached = runner_now_ns();
	settle_writeback(r, c, res);
	cs.settled = runner_now_ns();
	res->seq = ++r->seq;
	res->start_ns = runner_now_ns() - r->start_ns;
	res->destination = runner_destination(r, c, outdir);
	err = runner_output_path(r, c, outdir, res->seq, dst, sizeof(dst), &res->destination);
	if (err) {
		snprintf(c->why, sizeof(c->why), "cannot make a folder for the output in %.*s: %s",
			 512, outdir, strerror(-err));
		return err;
	}
	w.ctx = (struct run_ctx){
		.c = &c->spec, .src = c->spec.ds->path, .dst = dst, .src_fd = -1, .dst_fd = -1,
		.facts = { .fixed_buffers = -1 },
	};
	w.cmd = (struct command_exec){
		.timeout_s = r->o->command_timeout, .msg = w.ctx.msg, .msg_size = sizeof(w.ctx.msg),
		.group = command_group_page(c),
	};
	if (c->spec.command && !w.cmd.group) {
		snprintf(c->why, sizeof(c->why), "cannot map a page for the command's process group: %s",
			 strerror(errno));
		return -errno;
	}
	work.group = w.cmd.group;
	disturb_snapshot(&start);
	err = child_run(&work, counting ? r->sc : NULL, &ch);
	cs.reaped = cs.verified = runner_now_ns();
	cs.timed_ns = ch.wall_ns;
	runner_test_event("run %u", res->seq);
	disturb_snapshot(&end);
	note_disturbance(r, &start, &end, &ch, res);
	if (err)
		goto out_remove_output;
	if (!child_ok(&ch)) {
		describe_failure(r, c, &ch);
		err = ch.err ? ch.err : -ECHILD;
		goto out_remove_output;
	}
	fill_result(res, &ch);
	res->timed = true;
	err = check_output(c, dst);
	if (!err)
		err = inspect_output(c, dst, res);
	cs.verified = runner_now_ns();
	if (err)
		goto out_remove_output;
	res->verified = true;
	runner_inspect_output(r, c, outdir, res->seq, dst, &res->destination);
	if (counting)
		c->counts = ch.counts;
out_remove_output:
	remove_or_keep_output(r, c, res, outdir, dst);
	if (w.cmd.group)
		munmap((void *)w.cmd.group, sizeof(int));
	cs.removed = runner_now_ns();
	costs_add_run(&r->costs, c->spec.wl->name, &cs);
	return err;
}
