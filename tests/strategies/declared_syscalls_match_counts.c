// SPDX-License-Identifier: MIT
/*
 * declared_syscalls_match_counts.c - every strategy's, channel's and tree method's
 * .syscalls is what it really calls, by the rule in strategies/strategy.h
 * (channels: the rule in workloads/channels/channel.h; tree methods:
 * workloads/tree.h).
 *
 * Each available strategy copies a 4 MiB file once in a counted child (the
 * harness's own child runner and counting session); each available channel
 * carries 4 MiB from a sender to a receiver process that writes it to a
 * file; each available tree method copies a tree of TREE_FILES files of
 * 4 KiB into a new folder. The names counted are compared with the declared ones: a declared
 * name not called (unless marked '?'), a call not declared (beyond libc's
 * own, and for channels the test's fork/wait/exit), or any call syscount
 * cannot name, fails the test with the name. Unavailable strategies and
 * channels are skipped with their reason; no counting method here: skip.
 */
#include "child/child.h"
#include "datasets/dataset.h"
#include "datasets/treegen.h"
#include "strategies/strategy.h"
#include "support/testutil.h"
#include "syscount/syscount.h"
#include "workloads/channels/channel.h"
#include "workloads/tree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define COPY_SIZE	(4u << 20)
#define CHANNEL_BATCH	(64u << 10)
#define COPY_THREADS	2u
#define TREE_FILES	40u
#define TREE_FILE_SIZE	(4u << 10)
/* What the channel test's own driver calls: fork, wait, the receiver's exit. */
#define DRIVER_SYSCALLS	"clone,wait4,exit_group"
/* What may be called besides the declared calls (strategy.h's rule). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define ALLOWED_SYSCALLS STRATEGY_LIBC_SYSCALLS "," STRATEGY_SANITIZER_SYSCALLS
#else
#define ALLOWED_SYSCALLS STRATEGY_LIBC_SYSCALLS
#endif

static char src_path[600], dst_path[600], tree_path[600];

/* Is name in the comma-separated list (with or without a trailing '?')? */
static bool listed(const char *list, const char *name, bool *optional)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		if (strncmp(p, name, n) || (p[n] && p[n] != ',' && p[n] != '?'))
			continue;
		if (optional)
			*optional = p[n] == '?';
		return true;
	}
	return false;
}

static int name_index(const char *name, size_t len)
{
	for (size_t i = 0; i < syscount_nnames; i++)
		if (strlen(syscount_names[i]) == len && !strncmp(syscount_names[i], name, len))
			return (int)i;
	return -1;
}

/* Every declared name is counted by name, and every one not marked '?' was called. */
static void check_declared(const char *what, const char *declared, const struct syscount *c)
{
	for (const char *p = declared; *p; ) {
		size_t len = strcspn(p, ",?");
		bool optional = p[len] == '?';
		int i = name_index(p, len);

		test_checks++;
		if (i < 0) {
			test_failures++;
			fprintf(stderr, "%s declares %.*s, which syscount does not count by name\n",
				what, (int)len, p);
		} else if (!optional && !c->by_name[i]) {
			test_failures++;
			fprintf(stderr, "%s declares %s but did not call it\n", what, syscount_names[i]);
		}
		p += len + optional;
		p += *p == ',';
	}
}

/* Every call made is declared or allowed; none is outside syscount's names. */
static void check_called(const char *what, const char *declared, const char *allowed,
			 const struct syscount *c)
{
	for (size_t i = 0; i < syscount_nnames; i++) {
		if (!c->by_name[i])
			continue;
		test_checks++;
		if (listed(declared, syscount_names[i], NULL) || listed(allowed, syscount_names[i], NULL))
			continue;
		test_failures++;
		fprintf(stderr, "%s called %s %llu times, which it does not declare\n", what,
			syscount_names[i], (unsigned long long)c->by_name[i]);
	}
	test_checks++;
	if (c->other) {
		test_failures++;
		fprintf(stderr, "%s made %llu calls that syscount does not name (other)\n", what,
			(unsigned long long)c->other);
	}
}

static void print_counts(const char *what, const struct syscount *c)
{
	printf("%s:", what);
	for (size_t i = 0; i < syscount_nnames; i++)
		if (c->by_name[i])
			printf(" %s=%llu", syscount_names[i], (unsigned long long)c->by_name[i]);
	printf(" other=%llu\n", (unsigned long long)c->other);
}

/* Runs w in a counted child; false (with a message) when it failed. */
static bool run_counted(const char *what, const struct child_work *w,
			struct syscount_session *sc, struct syscount *out)
{
	struct child_result res;

	test_checks++;
	if (child_run(w, sc, &res) || !child_ok(&res) || !res.counts.valid) {
		test_failures++;
		fprintf(stderr, "%s: the counted run failed (err %d, status %d, counts %s)\n",
			what, res.err, res.status, res.counts.valid ? "valid" : res.counts.why);
		return false;
	}
	*out = res.counts;
	print_counts(what, out);
	return true;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

/* ---------------------------------------------------------- strategies -- */

/* The child opens the files in setup (uncounted); run() only copies. */
struct copy_run {
	const struct copy_strategy *s;
	struct copy_job job;
};

static int copy_setup(void *arg)
{
	struct copy_run *r = arg;

	r->job = (struct copy_job){
		.len = COPY_SIZE, .buffer_size = strategy_default_buffer(r->s),
		.threads = COPY_THREADS,
	};
	r->job.src_fd = open(src_path, O_RDONLY | O_CLOEXEC);
	r->job.dst_fd = open(dst_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	return r->job.src_fd < 0 || r->job.dst_fd < 0 ? -errno : 0;
}

static int copy_run(void *arg)
{
	struct copy_run *r = arg;

	return r->s->copy(&r->job);
}

static void copy_teardown(void *arg)
{
	struct copy_run *r = arg;

	close(r->job.src_fd);
	close(r->job.dst_fd);
}

static void check_strategy(const struct copy_strategy *s, struct syscount_session *sc)
{
	struct copy_run r = { .s = s };
	const struct child_work w = {
		.setup = copy_setup, .run = copy_run, .teardown = copy_teardown, .arg = &r,
	};
	struct syscount c;
	char why[200];

	if (strategy_probe(s, test_tmpdir(), why, sizeof(why))) {
		printf("skip %s: unavailable: %s\n", s->name, why);
		return;
	}
	if (!run_counted(s->name, &w, sc, &c))
		return;
	check_declared(s->name, s->syscalls, &c);
	check_called(s->name, s->syscalls, ALLOWED_SYSCALLS, &c);
	if (!(s->flags & STRATEGY_TEST_ONLY))
		CHECK_EQ_U64(file_size(dst_path), COPY_SIZE);
	unlink(dst_path);
}

/* ------------------------------------------------------------ channels -- */

/* What a channel's counted run works on: the output file is opened in setup. */
struct channel_run {
	const struct channel *ch;
	int dst_fd;
};

static int channel_setup(void *arg)
{
	struct channel_run *r = arg;

	r->dst_fd = open(dst_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	return r->dst_fd < 0 ? -errno : 0;
}

static void channel_teardown(void *arg)
{
	close(((struct channel_run *)arg)->dst_fd);
}

static int channel_receive(struct channel_conn *conn, int fd)
{
	int err = conn->ch->side(conn, CHANNEL_RECEIVER), cerr;

	if (!err)
		err = conn->ch->drain(conn, fd);
	cerr = conn->ch->close(conn);
	return err ? err : cerr;
}

static int channel_send(struct channel_conn *conn)
{
	int err = conn->ch->side(conn, CHANNEL_SENDER);

	for (unsigned i = 0; !err && i < COPY_SIZE / CHANNEL_BATCH; i++) {
		char *p = conn->ch->reserve(conn, CHANNEL_BATCH, 0);

		if (!p)
			return -ENOMEM;
		memset(p, 'a' + (int)(i % 26), CHANNEL_BATCH);
		err = conn->ch->send(conn, CHANNEL_BATCH);
	}
	return err;
}

/* The transform's shape without its reading: open, fork, send, drain, wait. */
static int channel_run(void *arg)
{
	const struct channel_run *r = arg;
	struct channel_conn conn = { .ch = r->ch, .buffer = CHANNEL_DEFAULT_BUFFER, .fd = { -1, -1 } };
	int err = conn.ch->open(&conn), cerr, status;
	pid_t pid;

	if (err)
		return err;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		conn.ch->close(&conn);
		return err;
	}
	if (pid == 0)
		_exit(channel_receive(&conn, r->dst_fd) ? 1 : 0);
	err = channel_send(&conn);
	cerr = conn.ch->close(&conn);
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	return err ? err : cerr;
}

static void check_channel(const struct channel *ch, struct syscount_session *sc)
{
	struct channel_run r = { .ch = ch, .dst_fd = -1 };
	const struct child_work w = {
		.setup = channel_setup, .run = channel_run, .teardown = channel_teardown, .arg = &r,
	};
	struct syscount c;
	char why[200];

	if (channel_probe(ch, why, sizeof(why))) {
		printf("skip channel %s: unavailable: %s\n", ch->name, why);
		return;
	}
	if (!run_counted(ch->name, &w, sc, &c))
		return;
	check_declared(ch->name, ch->syscalls, &c);
	check_called(ch->name, ch->syscalls, ALLOWED_SYSCALLS "," DRIVER_SYSCALLS, &c);
	CHECK_EQ_U64(file_size(dst_path), COPY_SIZE);
	unlink(dst_path);
}

/* --------------------------------------------------------- tree methods -- */

/* The roots are opened and the destination made in setup (uncounted), as
 * the tree workload does; run() is the method's copy alone. */
struct tree_run {
	const struct tree_method *m;
	struct case_spec c;
	struct tree_job job;
	char msg[512];
};

static int tree_run_setup(void *arg)
{
	struct tree_run *r = arg;

	r->job = (struct tree_job){ .c = &r->c, .msg = r->msg, .msg_len = sizeof(r->msg) };
	r->job.src_root = open(tree_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->job.src_root < 0 || mkdir(dst_path, 0755))
		return -errno;
	r->job.dst_root = open(dst_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return r->job.dst_root < 0 ? -errno : 0;
}

static int tree_run_copy(void *arg)
{
	struct tree_run *r = arg;

	return r->m->copy(&r->job);
}

static void tree_run_teardown(void *arg)
{
	struct tree_run *r = arg;

	close(r->job.src_root);
	close(r->job.dst_root);
}

static void check_tree_method(const struct workload_variant *v, const struct tree_sum *want,
			      struct syscount_session *sc)
{
	const struct tree_method *m = v->impl;
	struct tree_run r = { .m = m, .c = { .buffer = STRATEGY_DEFAULT_BUFFER, .threads = COPY_THREADS } };
	const struct child_work w = {
		.setup = tree_run_setup, .run = tree_run_copy, .teardown = tree_run_teardown, .arg = &r,
	};
	struct tree_sum got;
	struct syscount c;
	char why[200];

	if (v->probe && v->probe(v, test_tmpdir(), why, sizeof(why))) {
		printf("skip tree method %s: unavailable: %s\n", v->name, why);
		return;
	}
	if (!run_counted(v->name, &w, sc, &c))
		goto out_remove;
	check_declared(v->name, m->syscalls, &c);
	check_called(v->name, m->syscalls, ALLOWED_SYSCALLS, &c);
	CHECK(tree_hash(dst_path, &got, why, sizeof(why)) == 0 && got.hash == want->hash);
out_remove:
	tree_remove(dst_path);
}

static void check_tree_methods(struct syscount_session *sc)
{
	const struct workload *tree = workload_find("tree");
	struct tree_sum want;

	snprintf(tree_path, sizeof(tree_path), "%s/tree", test_tmpdir());
	CHECK(tree && tree->own_variants);
	CHECK(tree_generate(TREE_FILE_SIZE, TREE_FILES, 1, tree_path, &want) == 0);
	for (const struct workload_variant *v = tree ? tree->own_variants : NULL; v && v->name; v++)
		check_tree_method(v, &want, sc);
	tree_remove(tree_path);
}

int main(void)
{
	struct syscount_session *sc;
	char why[200];
	uint64_t hash;

	unsetenv("COPYBENCH_RAM_BUDGET");	/* the rule's conditions: no knobs */
	unsetenv("COPYBENCH_THROTTLE_PCT");
	unsetenv("COPYBENCH_THROTTLE_EVERY_OTHER_MS");
	if (syscount_session_new(&sc, SYSCOUNT_AUTO, why, sizeof(why)) ||
	    !strcmp(syscount_session_method(sc), "n/a")) {
		printf("skip: no way to count system calls here: %s\n", why);
		syscount_session_free(sc);
		return 77;
	}
	printf("counting with %s\n", syscount_session_method(sc));
	snprintf(src_path, sizeof(src_path), "%s/src", test_tmpdir());
	snprintf(dst_path, sizeof(dst_path), "%s/dst", test_tmpdir());
	CHECK(dataset_generate(DATASET_TEXT, COPY_SIZE, 1, src_path, &hash) == 0);
	for (size_t i = 0; i < strategy_count; i++)
		check_strategy(strategy_table[i], sc);
	for (size_t i = 0; i < channel_count; i++)
		check_channel(channel_table[i], sc);
	check_tree_methods(sc);
	syscount_session_free(sc);
	test_cleanup_dir();
	return test_report("declared_syscalls_match_counts");
}
