// SPDX-License-Identifier: MIT
/*
 * workdir.c - the run's private work directory in --dir, where outputs are
 * made and removed, and the removal of those that runs killed with SIGKILL
 * left behind (only bench's, by name and dead owner); and the state of the
 * destination: outputs kept until the invocation ends, so that no run writes
 * where an earlier run's files were just freed (docs/tree.md).
 */
#include "freed.h"
#include "runner.h"
#include "datasets/treegen.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Marks the folder path as the top of a hierarchy (FS_TOPDIR_FL), or not
 * (top false): ext4 then
 * places each folder made in it as it places those made in the root, in a
 * flex group of its own with few folders, chosen from a hash of its name,
 * instead of beside its parent. A folder made in it inherits the flag:
 * each output's own folder drops it again, or every folder of the output
 * would be spread over the disk as well. Not every filesystem has the
 * flag: best effort.
 */
static void set_top_folder(const char *path, bool top)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int flags;

	if (fd < 0)
		return;
	if (!ioctl(fd, FS_IOC_GETFLAGS, &flags) && !!(flags & FS_TOPDIR_FL) != top) {
		flags = top ? flags | FS_TOPDIR_FL : flags & ~FS_TOPDIR_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
}

/*
 * The work directory carries its owner's pid: work-<pid>-XXXXXX. On an ext4
 * without a journal the flex groups bench freed there lately are read from
 * the log in dir (freed.h), and, unless the runs are to write where outputs
 * were just freed (--destination reused), it is a top folder.
 */
int runner_make_workdir(struct runner *r, const char *dir)
{
	snprintf(r->workdir, sizeof(r->workdir), "%s/work-%ld-XXXXXX", dir, (long)getpid());
	if (!mkdtemp(r->workdir)) {
		int err = -errno;

		r->workdir[0] = '\0';
		return err;
	}
	if (freed_open(&r->freed, dir) && !r->o->destination_reused)
		set_top_folder(r->workdir, true);
	freed_like(&r->freed_now, &r->freed);
	return 0;
}

/* The folder the work directory is in (--dir), into out. */
static void workdir_parent(const char *workdir, char *out, size_t n)
{
	const char *slash = strrchr(workdir, '/');

	snprintf(out, n, "%.*s", slash ? (int)(slash - workdir) : 1, slash ? workdir : ".");
}

/* Removes the work directory, noting the flex groups it frees in the log
 * beside it. */
static int remove_noting(struct runner *r, uint64_t *removed)
{
	char dir[PATH_MAX];
	int err;

	err = tree_remove_noting(r->workdir, TREE_REMOVE_THREADS, removed, freed_note,
				 &r->freed_now);
	workdir_parent(r->workdir, dir, sizeof(dir));
	freed_save(&r->freed_now, dir);
	return err;
}

/*
 * Is pid a live process? One killed a moment ago is a zombie until its
 * parent reaps it: dead for our purpose (its state in /proc is Z).
 */
static bool pid_alive(long pid)
{
	char path[64], buf[256], *paren;
	FILE *f;
	size_t len;

	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return true;	/* no /proc to tell: alive, as kill said */
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	paren = strrchr(buf, ')');	/* "pid (comm) S ...": comm may hold ')' */
	return !(paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X'));
}

/*
 * A run killed with SIGKILL cannot remove its work directory. The next run
 * in the same --dir removes those whose owner no longer exists: only
 * directories named as bench names them (work-<pid>-XXXXXX), never anything
 * else. Calls removed (when not NULL) with the path of each. Returns how
 * many it removed.
 */
int runner_remove_stale_workdirs(const char *dir, bool dry, void (*removed)(const char *path))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int count = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[PATH_MAX], tail[8];
		long pid;

		if (sscanf(e->d_name, "work-%ld-%6[A-Za-z0-9]", &pid, tail) != 2 ||
		    strlen(tail) != 6 || pid <= 0 || pid == (long)getpid() || pid_alive(pid))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (dry || tree_remove(path) == 0) {
			count++;
			if (removed)
				removed(path);
		}
	}
	closedir(d);
	return count;
}

/* ------------------------------------------------ removal -------------- */

/*
 * A test hook: with COPYBENCH_TEST_EVENTS=FILE in the environment, each run
 * (when its child was reaped: its clock is over) and each step of the work
 * directory's removal appends a line to FILE, so that a test can see their
 * order without timing anything
 * (tests/cli/tree_outputs_removed_after_last_run.sh).
 */
void runner_test_event(const char *fmt, ...)
{
	const char *path = getenv(REMOVAL_TEST_ENV);
	char line[256];
	va_list ap;
	int fd, len;

	if (!path || !*path)
		return;
	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (len < 0 || len >= (int)sizeof(line) - 1)
		return;
	line[len++] = '\n';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)len) != len)
		len = -1;
	close(fd);
}

/* The remover's own priority: the lowest CPU share (nice 19) and the lowest
 * best-effort I/O priority (not idle: an idle class could wait forever
 * behind a busy neighbour's I/O). */
static void lower_priority(void)
{
	int ioprio = (REMOVAL_IOPRIO_CLASS << 13) | REMOVAL_IOPRIO_LEVEL;

	if (setpriority(PRIO_PROCESS, 0, 19))
		return;
	syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0, ioprio);
}

/* The remover child: the work directory, many removals in flight. */
static void remover_main(struct runner *r)
{
	uint64_t removed = 0;
	int err;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	lower_priority();
	runner_test_event("remove start nice %d ioprio %ld", getpriority(PRIO_PROCESS, 0),
			  syscall(SYS_ioprio_get, 1, 0));
	err = remove_noting(r, &removed);
	runner_test_event("remove done %llu", (unsigned long long)removed);
	_exit(err ? 1 : 0);
}

/*
 * After the last run: the work directory, with every output kept there, is
 * removed by a child at low priority while the parent writes the results
 * and the table; runner_remove_workdir waits for it. No run is left to pay
 * for it. Without a child (fork failed), runner_remove_workdir removes it.
 */
void runner_remove_workdir_begin(struct runner *r)
{
	pid_t pid;

	if (!r->workdir[0] || r->remover > 0)
		return;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		remover_main(r);
	if (pid < 0)
		return;
	r->remover = pid;
	runner_test_event("remove begin");
}

/* Waits for the remover child; false when it did not remove everything. */
static bool wait_remover(struct runner *r)
{
	int status;
	pid_t got;

	if (waitpid(r->remover, &status, WNOHANG) == 0) {
		progress_line(&r->progress, "bench: waiting for the removal of the kept outputs (a low-priority child, pid %ld)",
			      (long)r->remover);
		do
			got = waitpid(r->remover, &status, 0);
		while (got < 0 && errno == EINTR);
	}
	r->remover = 0;
	runner_test_event("remove waited");
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void runner_remove_workdir(struct runner *r)
{
	bool done = r->remover > 0 && wait_remover(r);

	if (!r->workdir[0])
		return;
	if (!done)
		remove_noting(r, NULL);
	r->workdir[0] = '\0';
}

/* ------------------------------------------------ destination -------- */

/* With --destination fresh, a verified output of a WORKLOAD_KEEP_OUTPUTS
 * workload stays in the work directory until the invocation ends. */
bool runner_keeps_output(const struct runner *r, const struct bench_case *c)
{
	return (c->spec.wl->flags & WORKLOAD_KEEP_OUTPUTS) && !r->o->destination_reused;
}

/*
 * Room for one more kept output of c in dir: twice its bytes (a 4 KiB
 * block a file at least) and twice its inodes (a folder for every hundred
 * files), and a tenth of the filesystem besides. A filesystem that does not
 * count inodes (f_files 0: btrfs) is judged by its bytes. No answer: no room.
 */
static bool room_to_keep(const struct bench_case *c, const char *dir)
{
	uint64_t files = c->spec.files + c->spec.files / 100 + 16;
	uint64_t bytes = c->spec.size + c->spec.files * 4096;
	struct statvfs sv;

	if (statvfs(dir, &sv))
		return false;
	if ((uint64_t)sv.f_bavail * sv.f_frsize < 2 * bytes + (uint64_t)sv.f_blocks * sv.f_frsize / 10)
		return false;
	return !sv.f_files || (uint64_t)sv.f_favail >= 2 * files + sv.f_files / 10;
}

/* Did bench make room in dir's filesystem (not the work directory's)? */
static bool purged_before(const struct runner *r, const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return false;
	for (unsigned i = 0; i < r->npurged; i++)
		if (r->purged[i] == st.st_dev)
			return true;
	return false;
}

/* Removes every output (out-N, and areas of them) in dir; how many it
 * removed. The flex groups freed are noted (freed.h). */
static unsigned purge_outputs(struct runner *r, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned count = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[PATH_MAX];

		if (strncmp(e->d_name, "out-", 4) && strncmp(e->d_name, "area-", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!strcmp(dir, r->workdir))
			tree_remove_noting(path, TREE_REMOVE_THREADS, NULL, freed_note, &r->freed_now);
		else
			tree_remove_wide(path, TREE_REMOVE_THREADS, NULL);
		count++;
	}
	closedir(d);
	if (!strcmp(dir, r->workdir))
		r->area[0] = '\0';
	return count;
}

/* Bench made room in dir, on another filesystem than the work directory's. */
static void note_purged(struct runner *r, const char *dir)
{
	struct stat st;

	if (stat(dir, &st) || purged_before(r, dir) || r->npurged == RUNNER_PURGED_MAX)
		return;
	r->purged[r->npurged++] = st.st_dev;
}

/*
 * Before a run of c whose output goes to dir: when the outputs kept there
 * leave no room for one more, they are removed now, and the run is the
 * first to write where they were freed (runner_destination says so).
 */
void runner_make_room(struct runner *r, const struct bench_case *c, const char *dir)
{
	if (!runner_keeps_output(r, c) || room_to_keep(c, dir))
		return;
	if (!purge_outputs(r, dir))
		return;
	runner_note_freed(r, dir);
	if (strcmp(dir, r->workdir))
		note_purged(r, dir);
}

/* Bench removed an output of many files in dir since the last run. */
void runner_note_freed(struct runner *r, const char *dir)
{
	snprintf(r->freed_in, sizeof(r->freed_in), "%s", dir);
}

/*
 * The destination state of a run of c into dir, from what happened: reused
 * when bench freed an output of many files in dir since the previous run,
 * fresh when it did not, none for a workload whose output is one file.
 * Reading it starts the next run's account.
 */
enum destination_state runner_destination(struct runner *r, const struct bench_case *c,
					  const char *dir)
{
	bool freed = !strcmp(r->freed_in, dir);

	r->freed_in[0] = '\0';
	if (!(c->spec.wl->flags & WORKLOAD_KEEP_OUTPUTS))
		return DESTINATION_NONE;
	return freed ? DESTINATION_REUSED : DESTINATION_FRESH;
}

/* Did bench free inodes in the flex group of ino lately (this invocation,
 * or an earlier one in the log)? */
static bool freed_lately(const struct runner *r, uint64_t ino)
{
	return freed_has(&r->freed, ino) || freed_has(&r->freed_now, ino);
}

/*
 * The area of the work directory that kept outputs go into: a folder made
 * in the top folder (so in a flex group with few folders, from a hash of
 * its random name) that drops the flag again, so that the outputs made in
 * it stay in its flex group, one after the other, rather than each taking
 * a flex group of its own (which would leave a later invocation none that
 * bench did not free lately). 0 or -errno.
 */
static int make_area(struct runner *r)
{
	snprintf(r->area, sizeof(r->area), "%s/area-XXXXXX", r->workdir);
	if (!mkdtemp(r->area)) {
		int err = -errno;

		r->area[0] = '\0';
		return err;
	}
	set_top_folder(r->area, false);
	return 0;
}

/* Is the folder at path in a flex group bench did not free lately? */
static bool folder_fresh(const struct runner *r, const char *path)
{
	struct stat st;

	return !stat(path, &st) && !freed_lately(r, st.st_ino);
}

/*
 * Makes the folder a kept output goes into, out-<seq>-XXXXXX in the area
 * (for the work directory; in dir itself for another filesystem's, bench
 * --fs); the output is <it>/tree. Where bench tracks the flex groups it
 * freed lately, a folder that landed in one is left there and the next try
 * is made in a new area (a folder left in a flex group counts as one of
 * its folders, so ext4 places the next area elsewhere): the run's *d is
 * fresh when one landed elsewhere, reused when every try landed in one.
 * On another filesystem (--fs) nothing is steered: once bench made room
 * there by removing kept outputs, every later run writes among the inodes
 * they freed, and *d says reused.
 */
static int make_output_folder(struct runner *r, const char *dir, unsigned seq, char *dst,
			      size_t n, enum destination_state *d)
{
	bool main_dir = !strcmp(dir, r->workdir), tracked = main_dir && r->freed.per_flex;
	char folder[PATH_MAX + 48];
	int err;

	for (unsigned k = 0; k < FREED_TRIES; k++) {
		if (main_dir && !r->area[0] && (err = make_area(r)))
			return err;
		snprintf(folder, sizeof(folder), "%s/out-%u-XXXXXX", main_dir ? r->area : dir, seq);
		if (!mkdtemp(folder))
			return -errno;
		snprintf(dst, n, "%s/tree", folder);
		if (!main_dir && purged_before(r, dir))
			*d = DESTINATION_REUSED;
		if (!tracked)
			return 0;
		if (folder_fresh(r, folder)) {
			*d = DESTINATION_FRESH;
			return 0;
		}
		r->area[0] = '\0';
	}
	*d = DESTINATION_REUSED;
	return 0;
}

/*
 * The path a run's output goes to, into dst: dir/out-<seq> for an output
 * removed after its run; in a folder of its own made now for one kept
 * until the end (make_output_folder). 0 or -errno.
 */
int runner_output_path(struct runner *r, const struct bench_case *c, const char *dir,
		       unsigned seq, char *dst, size_t n, enum destination_state *d)
{
	if (!runner_keeps_output(r, c)) {
		snprintf(dst, n, "%s/out-%u", dir, seq);
		return 0;
	}
	return make_output_folder(r, dir, seq, dst, n, d);
}

const char *runner_destination_name(enum destination_state d)
{
	static const char *const names[] = { "", "fresh", "reused" };

	return names[d];
}

/* What one walk of a verified output looks at (runner_inspect_output). */
static struct {
	const struct runner *r;	/* counting entries in freed flex groups, or NULL */
	uint64_t entries, in_freed;
	FILE *log;		/* the test hook's file, or NULL */
	unsigned seq;
} walk;

static int look_at_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)flag;
	if (walk.r) {
		walk.entries++;
		walk.in_freed += freed_lately(walk.r, st->st_ino);
	}
	if (walk.log && ftw->level > 0)
		fprintf(walk.log, "%u %llu\n", walk.seq, (unsigned long long)st->st_ino);
	return 0;
}

/*
 * One walk of a verified output of c in dir, for two things. A kept output
 * of the work directory that more than FREED_SPILL_PCT of its entries put
 * in flex groups bench freed lately (a large output may outgrow its
 * folder's flex group into one) wrote where inodes were freed, whatever its
 * folder's place said: *d becomes reused. And a test hook: with
 * COPYBENCH_TEST_INODES=FILE in the environment, the inode number of every
 * entry is appended to FILE as "<seq> <inode>" lines, so that a test can see
 * which inodes each run's output took (tests/cli/tree_destination*.sh).
 */
#define FREED_SPILL_PCT 1
void runner_inspect_output(const struct runner *r, const struct bench_case *c, const char *dir,
			   unsigned seq, const char *dst, enum destination_state *d)
{
	const char *path = getenv(DESTINATION_TEST_ENV);
	bool check = runner_keeps_output(r, c) && *d == DESTINATION_FRESH && r->freed.per_flex &&
		     !strcmp(dir, r->workdir) && (r->freed.n || r->freed_now.n);

	memset(&walk, 0, sizeof(walk));
	walk.r = check ? r : NULL;
	walk.seq = seq;
	if (path && *path)
		walk.log = fopen(path, "a");
	if (!walk.r && !walk.log)
		return;
	nftw(dst, look_at_entry, 16, FTW_PHYS);
	if (walk.log)
		fclose(walk.log);
	if (check && walk.in_freed * 100 > walk.entries * FREED_SPILL_PCT)
		*d = DESTINATION_REUSED;
}
