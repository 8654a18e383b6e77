// SPDX-License-Identifier: MIT
/* tune.c - --tune: free-page reporting off for the run (see tune.h). */
#include "tune.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REPORTING_ORDER "/sys/module/page_reporting/parameters/page_reporting_order"
/* Above MAX_PAGE_ORDER (10 on x86-64): no free block is that large. 10 is
 * not enough: blocks of order 10 are still reported. */
#define REPORTING_OFF "11"

static int read_value(const char *path, char *out, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return -errno;
	got = read(fd, out, n - 1);
	close(fd);
	if (got < 0)
		return -errno;
	out[got] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

static int write_value(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, v, strlen(v)) < 0)
		err = -errno;
	close(fd);
	return err;
}

int tune_apply(struct tune_state *t, char *said, size_t n)
{
	int err;

	memset(t, 0, sizeof(*t));
	if (read_value(REPORTING_ORDER, t->old_order, sizeof(t->old_order))) {
		snprintf(said, n, "no free-page reporting here: nothing to tune");
		return 0;
	}
	if (atoi(t->old_order) >= atoi(REPORTING_OFF)) {
		snprintf(said, n, "free-page reporting is off already (page_reporting_order %s)",
			 t->old_order);
		return 0;
	}
	err = write_value(REPORTING_ORDER, REPORTING_OFF);
	if (err) {
		snprintf(said, n, "cannot turn free-page reporting off (%s: %s; root is needed)",
			 REPORTING_ORDER, strerror(-err));
		return err;
	}
	t->reporting_off = true;
	snprintf(said, n, "free-page reporting off for this run (page_reporting_order %s -> %s), restored at the end",
		 t->old_order, REPORTING_OFF);
	return 0;
}

void tune_restore(struct tune_state *t)
{
	if (t->reporting_off && write_value(REPORTING_ORDER, t->old_order) == 0)
		t->reporting_off = false;
}
