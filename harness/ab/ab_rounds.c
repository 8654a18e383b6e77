// SPDX-License-Identifier: MIT
/*
 * ab_rounds.c - the rounds of bench ab: in each, every open case (in an
 * order shuffled per round) makes one pair, a copy by a new worker of A
 * and one by a new worker of B, back to back; the order of the pair is
 * random and balanced, AB in one round of each two-round block and BA in
 * the other. Before every
 * copy the state a bench run sets; after it, the verification a bench run
 * makes. A look every --rounds rounds (abstat.h) decides cases.
 */
#include "ab_internal.h"
#include "child/disturb.h"
#include "host/interrupt.h"
#include "host/memstate.h"
#include "lib/rng.h"
#include "strategies/strategy.h"
#include "workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define AB_WARM_ATTEMPTS 3
#define AB_WRITEBACK_WAIT_MS 10000u
/* A pair with a copy disturbed from outside (disturb.h) is made again, at
 * most this many times; then it is kept. */
#define AB_RETRIES 1
/* A worker's own figure agrees with the outside clock when it is not above
 * it and below it by at most a quarter or this much, whichever is more
 * (the outside clock also holds the request's and the reply's trips). */
#define AB_AGREE_SLACK_NS 1e6
/* ab_run_one: the state before the copy could not be set. */
#define AB_UNPREPARED 2

bool ab_agrees(const struct ab_copy *cp)
{
	double slack = fmax(cp->wall / 4, AB_AGREE_SLACK_NS);

	return cp->own <= cp->wall && cp->wall - cp->own <= slack;
}

/*
 * The state of a bench run before a copy: the work directory's filesystem
 * written back (syncfs) and the flusher settled, so that no copy pays for
 * another's writeback; the source in the cache state asked for, checked.
 */
static int ab_prepare(struct ab_run *r, char *why, size_t n)
{
	int attempts = r->o->cache == CACHE_WARM ? AB_WARM_ATTEMPTS : 1, err = 0;
	int fd = open(r->workdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct memstate m;
	double pct = 0;

	if (fd >= 0) {
		syncfs(fd);
		close(fd);
	}
	memstate_wait_writeback(AB_WRITEBACK_WAIT_MS, &m);
	for (int i = 0; i < attempts; i++) {
		err = cache_set(r->ds.path, r->o->cache, false, &pct);
		if (err || cache_state_ok(r->o->cache, pct))
			break;
	}
	if (err || !cache_state_ok(r->o->cache, pct)) {
		snprintf(why, n, "cannot make the source %s (%.0f%% resident)",
			 cache_mode_name(r->o->cache), pct);
		return -EAGAIN;
	}
	return 0;
}

/* As a bench run verifies: size and hash, then no holes unless a clone. */
static int ab_verify(struct ab_run *r, struct ab_case *c, int side, char *why, size_t n)
{
	const struct copy_strategy *s = strategy_find(c->name);
	struct output_info info = { 0 };
	char detail[200];
	int err = workload_verify_file_hash(r->dst, r->ds.size, r->ds.hash, detail, sizeof(detail));

	if (err) {
		snprintf(why, n, "verification failed: %s", detail);
		return err;
	}
	err = workload_inspect_file(r->dst, true, &info);
	if (!err && info.hole_bytes && !info.shared_extents &&
	    !(s && (s->flags & STRATEGY_SHARES_EXTENTS))) {
		snprintf(why, n, "verification failed: the output has %" PRIu64 " bytes in holes (a copy must write every byte)",
			 info.hole_bytes);
		return -EBADMSG;
	}
	c->shared[side] += info.shared_extents;
	return 0;
}

/* Did something outside disturb the copy (disturb.h)? */
static bool ab_disturbed(const struct disturb_probe *start)
{
	struct disturb_probe end;

	disturb_snapshot(&end);
	return disturb_judge(start, &end) != 0;
}

/*
 * The time compared. On a shared machine a copy on one CPU spends much of
 * its wall time waiting for that CPU, a wait that hits A's and B's copies
 * independently and so does not cancel within a pair; without it (the
 * outside wall minus the worker's run-queue wait over it, both read here)
 * the time is the copy's own, I/O waits included. A strategy on several
 * CPUs keeps its wall time: their waits are part of its cost. The figures
 * are in docs/check.md.
 */
static double ab_clock(const struct ab_run *r, const char *strategy, const struct ab_copy *cp)
{
	const struct copy_strategy *s = strategy_find(strategy);

	if (r->o->wall || !s || (s->flags & STRATEGY_MULTI_CPU) || !(cp->wait < cp->wall))
		return cp->wall;
	return cp->wall - cp->wait;
}

/* Parses a copy's reply; 0, or -1 with why filled. */
static int ab_reply(char *reply, struct ab_copy *cp, char *why, size_t n)
{
	unsigned long long own, wait;

	if (sscanf(reply, "ok\t%llu\t%llu", &own, &wait) == 2) {
		cp->own = (double)own;
		return 0;
	}
	snprintf(why, n, "%.250s", !strncmp(reply, "error\t", 6) ? reply + 6 : reply);
	return -1;
}

/* One timed copy by side `side` into *cp. 0, 1 when it was disturbed,
 * AB_UNPREPARED when the state could not be set (the machine's doing, not
 * the side's), or -1 with why filled. */
static int ab_run_one(struct ab_run *r, struct ab_case *c, int side, struct ab_copy *cp,
		      char *why, size_t n)
{
	struct disturb_probe start;
	char req[3 * PATH_MAX + 64], reply[1024];
	int err;

	if (ab_prepare(r, why, n))
		return AB_UNPREPARED;
	snprintf(req, sizeof(req), "copy\t%s\t%s\t%s\n", c->name, r->ds.path, r->dst);
	disturb_snapshot(&start);
	err = ab_worker_ask(r, side, req, reply, sizeof(reply), cp, why, n);
	if (!err)
		err = ab_reply(reply, cp, why, n);
	if (!err)
		err = ab_verify(r, c, side, why, n);
	unlink(r->dst);
	if (err)
		return -1;
	cp->ns = ab_clock(r, c->name, cp);
	if (!ab_agrees(cp))
		c->disagree[side]++;
	return ab_disturbed(&start);
}

static void ab_fail(struct ab_run *r, struct ab_case *c, int side, const char *why)
{
	c->failed = side;
	snprintf(c->why, sizeof(c->why), "%c (%s): %s", ab_side_name[side], r->o->exe[side], why);
}

/* The state a copy needs could not be set (the source's cache state: the
 * machine dropped its caches, say): neither side's failure, so counted as
 * A's, which makes the case not judged (exit 2), never B's regression. */
static void ab_fail_setup(struct ab_case *c, const char *why)
{
	c->failed = 0;
	snprintf(c->why, sizeof(c->why), "the set-up, not A or B: %s", why);
}

/*
 * New workers for a pair, each ready (its probe answered) before the clock:
 * a worker kept from pair to pair keeps what made it slower or faster than
 * the other side's (where it runs, what its memory holds), and that does
 * not cancel within pairs: A/A runs of the same build called 7 of 18 cases
 * a regression or faster at 4M, and 1 of 18 with a new pair of workers
 * each pair (docs/check.md). They start in the order of the copies, so
 * that which one is older is balanced as the order is.
 */
static void ab_pair_workers(struct ab_run *r, struct ab_case *c, bool b_first)
{
	char why[300];

	for (int i = 0; i < 2 && c->failed < 0; i++) {
		int side = b_first ? 1 - i : i;

		if (ab_worker_renew(r, side, c->name, why, sizeof(why)))
			ab_fail(r, c, side, why);
	}
}

/* Both copies of a pair, in order; the pair again while one was disturbed
 * or its state could not be set. */
static void ab_pair_runs(struct ab_run *r, struct ab_case *c, bool b_first, struct ab_copy t[2])
{
	char why[300];

	for (int attempt = 0; attempt <= AB_RETRIES; attempt++) {
		bool disturbed = false, unprepared = false;

		ab_pair_workers(r, c, b_first);
		for (int i = 0; i < 2 && c->failed < 0 && !unprepared; i++) {
			int side = b_first ? 1 - i : i;
			int ret = ab_run_one(r, c, side, &t[side], why, sizeof(why));

			unprepared = ret == AB_UNPREPARED;
			disturbed |= ret > 0;
			if (ret < 0)
				ab_fail(r, c, side, why);
		}
		if (unprepared && attempt == AB_RETRIES)
			ab_fail_setup(c, why);
		if (!disturbed || c->failed >= 0 || attempt == AB_RETRIES)
			return;
		r->retried++;
	}
}

/* One pair of case c in measured round k (or a warm-up round, k < 0). */
static void ab_pair(struct ab_run *r, struct ab_case *c, long k, bool b_first)
{
	struct ab_copy t[2];
	size_t disagree[2] = { c->disagree[0], c->disagree[1] };

	ab_pair_runs(r, c, b_first, t);
	if (k < 0) {	/* warm-up copies are not judged, their figures neither */
		c->disagree[0] = disagree[0];
		c->disagree[1] = disagree[1];
	}
	if (c->failed >= 0 || k < 0)
		return;
	c->cp[0][c->n] = t[0];
	c->cp[1][c->n] = t[1];
	c->round[c->n] = b_first ? -(k + 1) : k + 1;
	c->logr[c->n++] = log(t[1].ns / t[0].ns);
}

/* Every case's strategy probed once by each worker, before any copy. */
void ab_probe_all(struct ab_run *r)
{
	char req[PATH_MAX + 96], reply[1024], why[300];

	for (size_t i = 0; i < r->ncases; i++) {
		struct ab_case *c = &r->c[i];

		snprintf(req, sizeof(req), "probe\t%s\t%s\n", c->name, r->workdir);
		for (int side = 0; side < 2 && c->failed < 0; side++) {
			if (ab_worker_ask(r, side, req, reply, sizeof(reply), NULL, why, sizeof(why)) == 0) {
				if (!strcmp(reply, "ok"))
					continue;
				if (!strncmp(reply, "unavailable\t", 12))
					snprintf(why, sizeof(why), "%.60s is unavailable: %.200s", c->name, reply + 12);
				else
					snprintf(why, sizeof(why), "%.60s could not be probed: %.200s", c->name, reply);
			}
			ab_fail(r, c, side, why);
		}
	}
}

/* A look at every case still open after m measured rounds (abstat.h): its
 * verdict at alpha over the cases and the looks. Whether all are decided. */
static bool ab_look_all(struct ab_run *r, size_t m)
{
	bool all = true;

	r->looks = ab_look_at(m, r->o->rounds);
	for (size_t i = 0; i < r->ncases; i++) {
		struct ab_case *c = &r->c[i];
		double *t;

		if (c->decided || c->failed >= 0) {
			c->decided = true;
			continue;
		}
		t = malloc((c->n + 1) * sizeof(*t));
		if (t) {
			memcpy(t, c->logr, c->n * sizeof(*t));
			c->v = ab_look(t, c->n, r->case_alpha, r->o->threshold, &c->st);
		}
		free(t);
		c->decided = c->v != AB_INCONCLUSIVE;
		all &= c->decided;
	}
	return all;
}

double ab_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The order of case c's pair in round `round` (measured round m): random
 * per two-round block, the block's second round the other way round. */
static bool ab_b_first(struct ab_case *c, long round, long m, uint64_t *rng)
{
	if (m < 0)
		return round % 2;
	if (m % 2 == 0)
		c->b_first = splitmix64(rng) & 1;
	else
		c->b_first = !c->b_first;
	return c->b_first;
}

static void ab_shuffle(size_t *order, size_t n, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = splitmix64(rng) % i, tmp = order[i - 1];

		order[i - 1] = order[j];
		order[j] = tmp;
	}
}

/*
 * The rounds: the cases shuffled per round; looks at --rounds rounds and
 * at twice as many each time (abstat.h), after which a decided case is not
 * run again; until every case is decided, AB_LOOKS looks, or --max-time:
 * no measured round but the first starts when the next look cannot be
 * reached in it (the time since the invocation started and the rounds to
 * that look at the last round's length), so that the whole invocation
 * keeps to it and no round is made that no look would judge.
 */
void ab_rounds(struct ab_run *r)
{
	long total = (long)r->o->warmup + (long)ab_last_look(r->o->rounds);
	uint64_t rng = r->o->seed;
	size_t order[AB_MAX_CASES];
	double last = 0;

	r->stopped = "6 looks";
	for (long round = 0; round < total && !interrupt_signal; round++) {
		long m = round - (long)r->o->warmup;
		double begun = ab_seconds();

		if (m > 0 && begun - r->t0 + last * (double)(ab_next_look((size_t)m, r->o->rounds) - (size_t)m) >=
				     r->o->max_time) {
			r->stopped = "--max-time";
			break;
		}
		ab_shuffle(order, r->ncases, &rng);
		for (size_t i = 0; i < r->ncases && !interrupt_signal; i++) {
			struct ab_case *c = &r->c[order[i]];

			if (!c->decided && c->failed < 0)
				ab_pair(r, c, m, ab_b_first(c, round, m, &rng));
		}
		if (m >= 0 && ab_look_at((size_t)m + 1, r->o->rounds) && !interrupt_signal &&
		    ab_look_all(r, (size_t)m + 1)) {
			r->stopped = "every case decided";
			break;
		}
		last = ab_seconds() - begun;
	}
}
