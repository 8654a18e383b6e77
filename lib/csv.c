// SPDX-License-Identifier: MIT
/* csv.c - RFC 4180 writing (atomic) and reading. */
#include "csv.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ writing -- */

int csv_open(struct csv_writer *w, const char *path)
{
	int fd;

	memset(w, 0, sizeof(*w));
	if (snprintf(w->path, sizeof(w->path), "%s", path) >= (int)sizeof(w->path) ||
	    snprintf(w->tmp, sizeof(w->tmp), "%s.tmp-XXXXXX", path) >= (int)sizeof(w->tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(w->tmp);
	if (fd < 0) {
		w->tmp[0] = '\0';
		return -errno;
	}
	fchmod(fd, 0644);
	w->f = fdopen(fd, "w");
	if (!w->f) {
		int err = -errno;

		close(fd);
		unlink(w->tmp);
		w->tmp[0] = '\0';
		return err;
	}
	w->first_field = 1;
	return 0;
}

static void csv_sep(struct csv_writer *w)
{
	if (!w->first_field)
		fputc(',', w->f);
	w->first_field = 0;
}

void csv_str(struct csv_writer *w, const char *s)
{
	csv_sep(w);
	if (!s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, w->f);
		return;
	}
	fputc('"', w->f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', w->f);
		fputc(*s, w->f);
	}
	fputc('"', w->f);
}

void csv_u64(struct csv_writer *w, uint64_t v)
{
	csv_sep(w);
	fprintf(w->f, "%" PRIu64, v);
}

void csv_i64(struct csv_writer *w, int64_t v)
{
	csv_sep(w);
	fprintf(w->f, "%" PRId64, v);
}

void csv_dbl(struct csv_writer *w, double v, int decimals)
{
	csv_sep(w);
	fprintf(w->f, "%.*f", decimals, v);
}

void csv_end_row(struct csv_writer *w)
{
	fputc('\n', w->f);
	w->first_field = 1;
}

int csv_commit(struct csv_writer *w)
{
	int err = 0;

	if (!w->f)
		return -EBADF;
	if (fflush(w->f) || fsync(fileno(w->f)))
		err = -errno;
	if (fclose(w->f) && !err)
		err = -errno;
	w->f = NULL;
	if (!err && rename(w->tmp, w->path))
		err = -errno;
	if (err)
		unlink(w->tmp);
	w->tmp[0] = '\0';
	return err;
}

void csv_abort(struct csv_writer *w)
{
	if (w->f)
		fclose(w->f);
	w->f = NULL;
	if (w->tmp[0])
		unlink(w->tmp);
	w->tmp[0] = '\0';
}

/* ------------------------------------------------------------ reading -- */

struct csv_builder {
	char **fields;
	size_t nfields, cap;
};

static int builder_push(struct csv_builder *b, const char *s, size_t len)
{
	char *copy;

	if (b->nfields == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		char **p = realloc(b->fields, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		b->fields = p;
		b->cap = cap;
	}
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, s, len);
	copy[len] = '\0';
	b->fields[b->nfields++] = copy;
	return 0;
}

/*
 * Reads one field starting at *pos into scratch (unquoted). Sets *end_rec when
 * the field ended its record. Returns 0 or -EINVAL.
 */
static int parse_field(const char *buf, size_t len, size_t *pos, char *scratch,
		       size_t *flen, int *end_rec, size_t line, char *why, size_t n)
{
	size_t i = *pos, o = 0;

	*end_rec = 0;
	if (i < len && buf[i] == '"') {
		for (i++;; i++) {
			if (i >= len) {
				snprintf(why, n, "line %zu: unterminated quoted field", line);
				return -EINVAL;
			}
			if (buf[i] == '"') {
				if (i + 1 < len && buf[i + 1] == '"') {
					scratch[o++] = '"';
					i++;
					continue;
				}
				i++;
				break;
			}
			scratch[o++] = buf[i];
		}
		if (i < len && buf[i] != ',' && buf[i] != '\n' && buf[i] != '\r') {
			snprintf(why, n, "line %zu: text after a closing quote", line);
			return -EINVAL;
		}
	} else {
		while (i < len && buf[i] != ',' && buf[i] != '\n' && buf[i] != '\r') {
			if (buf[i] == '"') {
				snprintf(why, n, "line %zu: quote inside an unquoted field", line);
				return -EINVAL;
			}
			scratch[o++] = buf[i++];
		}
	}
	if (i >= len) {
		*end_rec = 1;
	} else if (buf[i] == ',') {
		i++;
	} else {
		if (buf[i] == '\r')
			i++;
		if (i < len && buf[i] == '\n')
			i++;
		*end_rec = 1;
	}
	*pos = i;
	*flen = o;
	return 0;
}

static void free_fields(char **f, size_t nf)
{
	for (size_t i = 0; i < nf; i++)
		free(f[i]);
	free(f);
}

int csv_parse(const char *buf, size_t len, struct csv_table *t, char *why, size_t n)
{
	struct csv_builder b = { 0 };
	char *scratch = malloc(len + 1);
	size_t pos = 0, line = 1, rec_fields = 0, ncols = 0;
	int err = 0;

	memset(t, 0, sizeof(*t));
	if (!scratch)
		return -ENOMEM;
	while (pos < len) {
		size_t flen;
		int end_rec;

		err = parse_field(buf, len, &pos, scratch, &flen, &end_rec, line, why, n);
		if (!err)
			err = builder_push(&b, scratch, flen);
		if (err)
			goto out_free;
		rec_fields++;
		if (!end_rec)
			continue;
		if (line == 1)
			ncols = rec_fields;
		else if (rec_fields != ncols) {
			snprintf(why, n, "line %zu: %zu fields, the header has %zu",
				 line, rec_fields, ncols);
			err = -EINVAL;
			goto out_free;
		}
		rec_fields = 0;
		line++;
	}
	if (rec_fields) {	/* a comma ended the text: one more empty field */
		err = builder_push(&b, "", 0);
		if (err)
			goto out_free;
		if (++rec_fields != ncols && line > 1) {
			snprintf(why, n, "line %zu: %zu fields, the header has %zu",
				 line, rec_fields, ncols);
			err = -EINVAL;
			goto out_free;
		}
		if (line == 1)
			ncols = rec_fields;
	}
	if (ncols == 0) {
		snprintf(why, n, "no header line");
		err = -EINVAL;
		goto out_free;
	}
	free(scratch);
	t->ncols = ncols;
	t->nrows = b.nfields / ncols - 1;
	t->header = b.fields;
	t->cells = b.fields + ncols;
	return 0;

out_free:
	free(scratch);
	free_fields(b.fields, b.nfields);
	return err;
}

int csv_read(const char *path, struct csv_table *t, char *why, size_t n)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		snprintf(why, n, "%s: %s", path, strerror(errno));
		return err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 30)) {
		snprintf(why, n, "%s: not a regular file of at most 1 GiB", path);
		err = -EINVAL;
		goto out_close;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out_close;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	err = csv_parse(buf, got, t, why, n);
	if (err && why[0]) {
		char tmp[256];

		snprintf(tmp, sizeof(tmp), "%s", why);
		snprintf(why, n, "%s: %s", path, tmp);
	}
	free(buf);
out_close:
	close(fd);
	return err;
}

int csv_col(const struct csv_table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->header[i], name) == 0)
			return (int)i;
	return -1;
}

void csv_free(struct csv_table *t)
{
	if (t->header)
		free_fields(t->header, t->ncols * (t->nrows + 1));
	memset(t, 0, sizeof(*t));
}
