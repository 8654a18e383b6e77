// SPDX-License-Identifier: MIT
/*
 * transform_edge_cases - the transform workload through every channel, with
 * batches of 1 line, 3 lines and one input buffer, and input buffers of 7
 * and 4096 bytes, on: an empty file, one line, no trailing newline, empty
 * lines, lines of 1..5 bytes, a line longer than the buffer, and 1 MiB of
 * text; shm-direct also with 40 MiB (its ring wraps) and a 20 MiB line.
 * Outputs are compared byte for byte with a transform computed here,
 * a few of them written out by hand.
 */
#include "support/testutil.h"
#include "workloads/channels/channel.h"
#include "workloads/workload.h"
#include "workloads/workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

extern const struct workload workload_transform;

/* The transform, written independently of the workload's. */
static char *expected_output(const char *s, size_t n, size_t *outn)
{
	char *out = malloc(n + 1);
	size_t p = 0, start = 0;

	while (start < n) {
		const char *nl = memchr(s + start, '\n', n - start);
		size_t end = nl ? (size_t)(nl - s) : n, len = end - start, t = len / 3;

		memcpy(out + p, s + start, t);
		memcpy(out + p + t, s + start + 2 * t, len - 2 * t);
		p += len - t;
		if (nl)
			out[p++] = '\n';
		start = end + 1;
	}
	*outn = p;
	return out;
}

static char *read_file(const char *path, size_t *n)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	char *buf = NULL;

	*n = 0;
	if (fd < 0 || fstat(fd, &st))
		goto out;
	buf = malloc((size_t)st.st_size + 1);
	if (read(fd, buf, (size_t)st.st_size) == st.st_size)
		*n = (size_t)st.st_size;
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

struct input {
	const char *name;
	const char *s;
	size_t n;
	const char *want;	/* by hand, or NULL */
};

static void check_run(const struct channel *ch, const struct input *in,
		      const char *src, struct dataset *ds, unsigned batch, size_t buffer)
{
	struct case_spec c = {
		.wl = &workload_transform, .variant = ch->name, .channel = ch, .ds = ds,
		.buffer = buffer, .batch_lines = batch,
	};
	char dst[PATH_MAX], why[256];
	struct run_ctx ctx = { .c = &c, .src = src, .dst = dst };
	size_t wantn, gotn;
	char *want = expected_output(in->s, in->n, &wantn);
	char *got;
	int err;

	snprintf(dst, sizeof(dst), "%s/out", test_tmpdir());
	CHECK_EQ_U64(workload_transform.prepare(&c, why, sizeof(why)), 0);
	CHECK_EQ_U64(c.expect_size, wantn);
	CHECK_EQ_U64(c.expect_hash, XXH3_64bits(want, wantn));
	err = workload_transform.setup(&ctx);
	CHECK_EQ_U64(err, 0);
	if (!err) {
		err = workload_transform.run(&ctx);
		workload_transform.teardown(&ctx);
	}
	CHECK_EQ_U64(err, 0);
	got = read_file(dst, &gotn);
	CHECK(gotn == wantn && memcmp(got, want, wantn) == 0);
	if (in->want)
		CHECK(gotn == strlen(in->want) && memcmp(got, in->want, gotn) == 0);
	CHECK_EQ_U64(workload_transform.verify(&c, dst, why, sizeof(why)), 0);
	if (err || gotn != wantn)
		fprintf(stderr, "  %s %s batch %u buffer %zu: %s (%s)\n", ch->name,
			in->name, batch, buffer, strerror(-err), ctx.msg);
	workload_transform.remove_output(&c, dst);
	CHECK(access(dst, F_OK) != 0);
	free(got);
	free(want);
}

/* Deterministic text: lines of 0..80 printable bytes. */
static char *text_mib(size_t *n)
{
	size_t cap = 1u << 20, p = 0;
	char *s = malloc(cap);
	uint32_t x = 7;

	while (p < cap) {
		size_t len;

		x = x * 1664525u + 1013904223u;
		len = (x >> 8) % 81;
		for (size_t j = 0; j < len && p < cap - 1; j++)
			s[p++] = (char)(' ' + 1 + (x >> (j % 24)) % 94);
		s[p++] = '\n';
	}
	*n = p;
	return s;
}

static void check_channel(const struct channel *ch, const struct input *inputs, size_t ninputs)
{
	static const unsigned batches[] = { 1, 3, 0 };
	static const size_t buffers[] = { 7, 4096 };

	printf("channel %s\n", ch->name);
	for (size_t i = 0; i < ninputs; i++) {
		struct dataset ds = { .kind = DATASET_TEXT, .size = inputs[i].n };

		snprintf(ds.path, sizeof(ds.path), "%s/src-%zu", test_tmpdir(), i);
		ds.hash = XXH3_64bits(inputs[i].s, inputs[i].n);
		for (size_t b = 0; b < 3; b++)
			for (size_t f = 0; f < 2; f++)
				check_run(ch, &inputs[i], ds.path, &ds, batches[b], buffers[f]);
	}
}

/*
 * More output than the vmsplice sender's first arena holds, so its pages are
 * lent to the pipe, consumed and written again many times over.
 */
static void check_vmsplice_reuse(void)
{
	const struct channel *ch = channel_find("vmsplice");
	size_t n1, n = 0;
	char *mib = text_mib(&n1), *s = malloc(12 * n1);
	struct input in = { "12 MiB of text", s, 0, NULL };
	struct dataset ds = { .kind = DATASET_TEXT };
	int fd;

	for (int i = 0; i < 12; i++, n += n1)
		memcpy(s + n, mib, n1);
	in.n = ds.size = n;
	ds.hash = XXH3_64bits(s, n);
	snprintf(ds.path, sizeof(ds.path), "%s/src-12m", test_tmpdir());
	fd = open(ds.path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, s, n) == (ssize_t)n);
	close(fd);
	printf("channel vmsplice, 12 MiB\n");
	check_run(ch, &in, ds.path, &ds, 1, 65536);
	check_run(ch, &in, ds.path, &ds, 0, 65536);
	check_run(ch, &in, ds.path, &ds, 0, 3u << 20);
	unlink(ds.path);
	free(s);
	free(mib);
}

/* n bytes of src repeated (or cut), written to a dataset file for check_run. */
static void make_input(struct input *in, struct dataset *ds, const char *name,
		       const char *src, size_t srcn, size_t n)
{
	char *s = malloc(n);
	int fd;

	for (size_t p = 0; p < n; p += srcn)
		memcpy(s + p, src, n - p < srcn ? n - p : srcn);
	*in = (struct input){ name, s, n, NULL };
	*ds = (struct dataset){ .kind = DATASET_TEXT, .size = n, .hash = XXH3_64bits(s, n) };
	snprintf(ds->path, sizeof(ds->path), "%s/src-%s", test_tmpdir(), name);
	fd = open(ds->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	CHECK(fd >= 0 && write(fd, s, n) == (ssize_t)n);
	close(fd);
}

/*
 * The shm-direct ring (16 MiB, written in 4 MiB blocks): an output that wraps
 * it twice, with a short last block; and a 20 MiB line, more than one
 * reservation in the ring may take, so it goes through the heap (and grows
 * there by realloc while the line is read in 4 KiB pieces).
 */
static void check_ring_channel(const struct channel *ch)
{
	size_t n1;
	char *mib = text_mib(&n1), *line = malloc(20u << 20);
	struct input in;
	struct dataset ds;

	printf("channel %s, 40 MiB and a 20 MiB line\n", ch->name);
	make_input(&in, &ds, "40m", mib, n1, (40u << 20) + 12345);
	check_run(ch, &in, ds.path, &ds, 0, 65536);
	check_run(ch, &in, ds.path, &ds, 1, 65536);
	unlink(ds.path);
	free((char *)in.s);
	memset(line, 'a', 20u << 20);
	line[(20u << 20) - 1] = '\n';
	memcpy(line, "x\nyy\n", 5);
	make_input(&in, &ds, "20m-line", line, 20u << 20, (20u << 20) + 4);
	check_run(ch, &in, ds.path, &ds, 0, 4096);
	check_run(ch, &in, ds.path, &ds, 3, 1u << 20);
	unlink(ds.path);
	free((char *)in.s);
	free(line);
	free(mib);
}

static void check_registry(void)
{
	for (size_t i = 0; i < channel_count; i++) {
		CHECK(channel_find(channel_table[i]->name) == channel_table[i]);
		if (i)
			CHECK(strcmp(channel_table[i - 1]->name, channel_table[i]->name) < 0);
	}
	CHECK(channel_find("no-such-channel") == NULL);
	CHECK(channel_count == 7);
}

int main(void)
{
	size_t bign;
	char *big = text_mib(&bign);
	struct input inputs[] = {
		{ "empty", "", 0, "" },
		{ "one line", "abcdef\n", 7, "abef\n" },
		{ "no trailing newline", "abcdef", 6, "abef" },
		{ "short last line", "abcdef\nxyz", 10, "abef\nxz" },
		{ "empty lines", "\n\n\n", 3, "\n\n\n" },
		{ "lengths 1..5", "a\nab\nabc\nabcd\nabcde\n", 20, "a\nab\nac\nacd\nacde\n" },
		{ "longer than the buffer", "abcdefghijklmnopqrstuvwxyz0123\nabcdefghi\n", 41,
		  "abcdefghijuvwxyz0123\nabcghi\n" },
		{ "1 MiB of text", big, bign, NULL },
	};
	size_t ninputs = sizeof(inputs) / sizeof(inputs[0]);
	char why[256];

	check_registry();
	for (size_t i = 0; i < ninputs; i++) {
		char path[PATH_MAX];
		int fd;

		snprintf(path, sizeof(path), "%s/src-%zu", test_tmpdir(), i);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		CHECK(fd >= 0 && write(fd, inputs[i].s, inputs[i].n) == (ssize_t)inputs[i].n);
		close(fd);
	}
	for (size_t i = 0; i < channel_count; i++) {
		if (channel_probe(channel_table[i], why, sizeof(why))) {
			printf("channel %s: unavailable: %s\n", channel_table[i]->name, why);
			continue;
		}
		check_channel(channel_table[i], inputs, ninputs);
		if (strcmp(channel_table[i]->name, "vmsplice") == 0)
			check_vmsplice_reuse();
		if (strcmp(channel_table[i]->name, "shm-direct") == 0)
			check_ring_channel(channel_table[i]);
	}
	free(big);
	test_cleanup_dir();
	return test_report("transform_edge_cases");
}
