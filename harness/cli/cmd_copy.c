// SPDX-License-Identifier: MIT
/*
 * cmd_copy.c - `bench copy --strategy S SRC DST`: one copy, for whole-process
 * timing with hyperfine and for checking a strategy by hand.
 *
 * The copy goes to a temporary file beside DST that is renamed into place
 * only when the copy succeeded, so a failed or interrupted copy leaves no
 * partial DST. The copy itself runs in a child process, so a strategy that
 * dies (SIGBUS when an mmap'd source shrinks) is reported, not a crash.
 *
 * `bench copy --serve` is bench ab's worker instead (harness/ab/ab.h).
 */
#include "commands.h"
#include "ab/ab.h"
#include "child/child.h"
#include "datasets/treegen.h"
#include "host/interrupt.h"
#include "lib/units.h"
#include "options/cli.h"
#include "strategies/strategy.h"
#include "syscount/syscount.h"
#include "workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROC_SUPER_MAGIC_ 0x9fa0
#define SYSFS_MAGIC_ 0x62656572

struct copy_cmd {
	const struct copy_strategy *s;
	const char *name;	/* --strategy as given: a tree method too */
	struct copy_job job;
	bool force, count, fsync;
	bool time;		/* print the copy's own clock */
	bool serve;		/* bench ab's worker: requests on stdin */
	const char *src, *dst;
	char tmp[PATH_MAX];
	uint64_t size;
};

/* The workload that copies folders (WORKLOAD_TREE); NULL if none. */
static const struct workload *tree_workload(void)
{
	for (size_t i = 0; i < workload_count; i++)
		if (workload_table[i]->flags & WORKLOAD_TREE)
			return workload_table[i];
	return NULL;
}

static int copy_apply(struct cli_parser *p, const struct cli_option *opt,
		      const struct cli_value *v)
{
	struct copy_cmd *cc = p->ctx;

	switch (opt->id) {
	case OPT_COPY_STRATEGY:
		cc->s = strategy_find(v->str);
		cc->name = v->str;
		if (!cc->s && !workload_variant_find(tree_workload(), v->str))
			return cli_bad_value(p, opt, v->str, "unknown strategy (see bench list)");
		break;
	case OPT_COPY_BUFFER:
		if (v->u > (1ull << 32))
			return cli_bad_value(p, opt, v->str, "larger than 4G");
		cc->job.buffer_size = (size_t)v->u;
		break;
	case OPT_QUEUE_DEPTH: cc->job.queue_depth = (unsigned)v->u; break;
	case OPT_THREADS: cc->job.threads = (unsigned)v->u; break;
	case OPT_FORCE: cc->force = true; break;
	case OPT_FSYNC: cc->fsync = true; break;
	case OPT_COUNT_SYSCALLS: cc->count = true; break;
	case OPT_COPY_TIME: cc->time = true; break;
	case OPT_COPY_SERVE: cc->serve = true; break;
	default: break;
	}
	return 0;
}

static int parse_copy_args(int argc, char **argv, struct copy_cmd *cc)
{
	struct cli_parser p = { .cmd = CMD_COPY, .apply = copy_apply, .ctx = cc, .max_operands = 2 };
	int ret = cli_parse(&p, argc, argv);

	if (ret)
		return ret;
	if (cc->serve && (cc->name || p.noperands))
		return cli_usage_error(&p, "--serve takes no SRC, DST or --strategy");
	if (cc->serve)
		return 0;
	if (!cc->name)
		return cli_usage_error(&p, "--strategy is required");
	if (p.noperands != 2)
		return cli_usage_error(&p, "expected SRC and DST");
	cc->src = p.operands[0];
	cc->dst = p.operands[1];
	return 0;
}

static const char *file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* Refuses sources whose size cannot be trusted (2: an unusable input) and
 * a DST that is SRC or exists (1). */
static int check_paths(struct copy_cmd *cc, const struct stat *src_st)
{
	struct statfs fs;
	struct stat dst_st;

	if (!S_ISREG(src_st->st_mode)) {
		fprintf(stderr, "bench copy: %s: is %s; bench copies regular files only\n",
			cc->src, file_kind(src_st->st_mode));
		return 2;
	}
	if (statfs(cc->src, &fs) == 0 &&
	    (fs.f_type == PROC_SUPER_MAGIC_ || fs.f_type == SYSFS_MAGIC_)) {
		fprintf(stderr, "bench copy: %s: is a kernel pseudo-file whose size is not its length; bench copies regular files only\n",
			cc->src);
		return 2;
	}
	if (stat(cc->dst, &dst_st) == 0) {
		if (dst_st.st_dev == src_st->st_dev && dst_st.st_ino == src_st->st_ino) {
			fprintf(stderr, "bench copy: %s and %s are the same file\n", cc->src, cc->dst);
			return 2;
		}
		if (!S_ISREG(dst_st.st_mode)) {
			fprintf(stderr, "bench copy: %s: is %s; bench copy writes a file, give its full name\n",
				cc->dst, file_kind(dst_st.st_mode));
			return 2;
		}
		if (!cc->force) {
			fprintf(stderr, "bench copy: %s exists; use --force to replace it\n", cc->dst);
			return 1;
		}
	}
	return 0;
}

/* Is the strategy available on DST's filesystem? (probes write scratch
 * files there, the only place bench copy may write) */
static int probe_beside_dst(const struct copy_cmd *cc, char *why, size_t n)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", cc->dst);
	if (strategy_probe(cc->s, dirname(dir), why, n) == 0)
		return 0;
	fprintf(stderr, "bench copy: %s is unavailable: %s\n", cc->s->name, why);
	return 1;
}

static int make_temp(struct copy_cmd *cc)
{
	char dir[PATH_MAX];
	int fd;

	snprintf(dir, sizeof(dir), "%s", cc->dst);
	snprintf(cc->tmp, sizeof(cc->tmp), "%s/.bench-copy-XXXXXX", dirname(dir));
	fd = mkostemp(cc->tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "bench copy: cannot create a file beside %s: %s\n", cc->dst,
			strerror(errno));
		cc->tmp[0] = '\0';
		return -1;
	}
	fchmod(fd, 0644);
	return fd;
}

/* The timed work of the child: the copy, and fdatasync with --fsync. */
static int copy_work(void *arg)
{
	const struct copy_cmd *cc = arg;
	int err = cc->s->copy(&cc->job);

	if (!err && cc->fsync && fdatasync(cc->job.dst_fd))
		err = -errno;
	return err;
}

static void print_counts(const struct copy_cmd *cc, const struct syscount *c)
{
	if (!c->valid) {
		printf("syscalls: n/a (%s)\n", c->why);
		return;
	}
	printf("syscalls of the copy (%s, method %s): %llu in all\n", cc->s->name, c->method,
	       (unsigned long long)c->total);
	for (size_t i = 0; i < syscount_nnames; i++)
		if (c->by_name[i])
			printf("  %-18s %llu\n", syscount_names[i], (unsigned long long)c->by_name[i]);
	if (c->other)
		printf("  %-18s %llu\n", "other", (unsigned long long)c->other);
}

static int run_copy(struct copy_cmd *cc, struct syscount_session *sc)
{
	const struct child_work work = { .run = copy_work, .arg = cc };
	struct child_result res;
	char why[200];
	int err = child_run(&work, sc, &res);

	if (err)
		return err;
	if (!child_ok(&res) && child_describe(&res, "the copy", why, sizeof(why))) {
		fprintf(stderr, "bench copy: %s: %s\n", cc->src, why);
		return -EINTR;	/* described: the caller adds nothing */
	}
	if (!res.err && cc->count)
		print_counts(cc, &res.counts);
	if (!res.err && cc->time)
		printf("wall_ns %llu cpu_wait_ns %llu\n", (unsigned long long)res.wall_ns,
		       (unsigned long long)res.cpu_wait_ns);
	return res.err;
}

static int copy_into_temp(struct copy_cmd *cc)
{
	struct syscount_session *sc = NULL;
	char why[160];
	int err;

	if (cc->count && syscount_session_new(&sc, SYSCOUNT_AUTO, why, sizeof(why)))
		printf("syscalls: n/a (%s)\n", why);
	err = run_copy(cc, sc);
	if (sc)
		syscount_session_free(sc);
	if (err == -EFBIG && (cc->s->flags & STRATEGY_WHOLE_FILE))
		fprintf(stderr, "bench copy: %s: %s needs the whole file in memory, over the RAM budget (half of available memory)\n",
			cc->src, cc->s->name);
	else if (err == -ENODATA)
		fprintf(stderr, "bench copy: %s: the source ended early (it shrank during the copy?)\n", cc->src);
	else if (err == -EXDEV)
		fprintf(stderr, "bench copy: %s -> %s with %s: source and destination are on different filesystems (EXDEV); use a strategy that reads and writes, such as readwrite\n",
			cc->src, cc->dst, cc->s->name);
	else if (err && err != -EINTR)
		fprintf(stderr, "bench copy: %s -> %s with %s: %s\n", cc->src, cc->dst,
			cc->s->name, strerror(-err));
	return err;
}

static int publish(struct copy_cmd *cc)
{
	unsigned flags = cc->force ? 0 : RENAME_NOREPLACE;

	if (renameat2(AT_FDCWD, cc->tmp, AT_FDCWD, cc->dst, flags)) {
		fprintf(stderr, "bench copy: cannot put the copy at %s: %s\n", cc->dst, strerror(errno));
		return 1;
	}
	cc->tmp[0] = '\0';
	return 0;
}

/* ------------------------------------------------------- a tree ------ */

/* The timed work of the child for a tree: the tree workload's own run. */
static int tree_work(void *arg)
{
	struct run_ctx *ctx = arg;
	int err = ctx->c->wl->setup(ctx);

	if (err)
		return err;
	err = ctx->c->wl->run(ctx);
	ctx->c->wl->teardown(ctx);
	return err;
}

/*
 * SRC a folder: DST, which must not exist, made as the tree workload's run
 * of that strategy or tree method makes its output (the walker, the same
 * opens), so that `bench copy` of a tree is the whole-process twin of a
 * tree row (docs/commands.md). A failed copy leaves no DST.
 */
static int copy_tree(struct copy_cmd *cc)
{
	struct case_spec spec = {
		.wl = tree_workload(), .variant = cc->name, .strategy = cc->s,
		.buffer = cc->job.buffer_size ? cc->job.buffer_size
			: cc->s ? strategy_default_buffer(cc->s) : 0,
		.queue_depth = cc->job.queue_depth, .threads = cc->job.threads, .fsync = cc->fsync,
	};
	struct run_ctx ctx = { .c = &spec, .src = cc->src, .dst = cc->dst, .src_fd = -1, .dst_fd = -1 };
	const struct child_work work = { .run = tree_work, .arg = &ctx, .msg = ctx.msg };
	struct child_result res;
	char why[200];
	int err;

	if (!access(cc->dst, F_OK)) {
		fprintf(stderr, "bench copy: %s exists; a tree is copied to a new folder\n", cc->dst);
		return 1;
	}
	err = child_run(&work, NULL, &res);
	if (!err && !child_ok(&res) && child_describe(&res, "the copy", why, sizeof(why)))
		fprintf(stderr, "bench copy: %s: %s\n", cc->src, why);
	else if (!err && res.err)
		fprintf(stderr, "bench copy: %s -> %s with %s: %s\n", cc->src, cc->dst, cc->name,
			res.msg[0] ? res.msg : strerror(-res.err));
	else if (!err)
		return 0;
	tree_remove_wide(cc->dst, TREE_REMOVE_THREADS, NULL);
	if (interrupt_signal)
		return interrupt_exit_code();
	/* a symlink or a special file in SRC: an input bench cannot copy */
	return !err && (res.err == -ELOOP || res.err == -EINVAL) ? 2 : 1;
}

int cmd_copy(int argc, char **argv)
{
	struct copy_cmd cc = { 0 };
	struct stat st;
	char why[200];
	int ret, src_fd, dst_fd;

	ret = parse_copy_args(argc, argv, &cc);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (cc.serve)
		return ab_worker_serve(stdin, stdout);
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	src_fd = open(cc.src, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (src_fd < 0 || fstat(src_fd, &st)) {
		fprintf(stderr, "bench copy: %s: %s\n", cc.src, strerror(errno));
		if (src_fd >= 0)
			close(src_fd);
		return 2;	/* a missing or unreadable input, as everywhere */
	}
	if (S_ISDIR(st.st_mode)) {
		ret = copy_tree(&cc);
		goto out_close_src;
	}
	if (!cc.s) {
		fprintf(stderr, "bench copy: %s copies trees: %s is not a folder\n", cc.name, cc.src);
		ret = 2;
		goto out_close_src;
	}
	ret = check_paths(&cc, &st);
	if (ret)
		goto out_close_src;
	fcntl(src_fd, F_SETFL, fcntl(src_fd, F_GETFL) & ~O_NONBLOCK);
	ret = probe_beside_dst(&cc, why, sizeof(why));
	if (ret)
		goto out_close_src;
	ret = 1;
	dst_fd = make_temp(&cc);
	if (dst_fd < 0)
		goto out_close_src;
	cc.job = (struct copy_job){
		.src_fd = src_fd, .dst_fd = dst_fd, .len = (uint64_t)st.st_size,
		.buffer_size = cc.job.buffer_size ? cc.job.buffer_size
			: strategy_default_buffer(cc.s),
		.queue_depth = cc.job.queue_depth, .threads = cc.job.threads,
	};
	if (copy_into_temp(&cc) == 0)
		ret = publish(&cc);
	close(dst_fd);
	if (cc.tmp[0])
		unlink(cc.tmp);
	if (interrupt_signal && ret) {
		fprintf(stderr, "bench copy: interrupted by %s; %s was not written\n",
			interrupt_signal == SIGINT ? "SIGINT" : "SIGTERM", cc.dst);
		ret = interrupt_exit_code();
	}
out_close_src:
	close(src_fd);
	return ret;
}
