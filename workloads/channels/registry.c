// SPDX-License-Identifier: MIT
/* registry.c - the table of channels, sorted by name. Add a line here when
 * you add a file in workloads/channels/. */
#include "channel.h"
#include "fileio.h"
#include "fsinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <string.h>

extern const struct channel channel_pipe;
extern const struct channel channel_shm;
extern const struct channel channel_shm_direct;
extern const struct channel channel_tcp;
extern const struct channel channel_tcp_nodelay;
extern const struct channel channel_unix;
extern const struct channel channel_vmsplice;

const struct channel *const channel_table[] = {
	&channel_pipe,
	&channel_shm,
	&channel_shm_direct,
	&channel_tcp,
	&channel_tcp_nodelay,
	&channel_unix,
	&channel_vmsplice,
};

const size_t channel_count = sizeof(channel_table) / sizeof(channel_table[0]);

const struct channel *channel_find(const char *name)
{
	for (size_t i = 0; i < channel_count; i++)
		if (strcmp(channel_table[i]->name, name) == 0)
			return channel_table[i];
	return NULL;
}

int channel_probe(const struct channel *ch, char *why, size_t n)
{
	if (n)
		why[0] = '\0';
	if (!ch->probe)
		return 0;
	return ch->probe(why, n);
}

bool channel_device_io(const struct channel *ch, const char *dir, char *why, size_t n)
{
	char path[4096], fs[32];
	int fd, dfd;

	if (n)
		why[0] = '\0';
	if (!(ch->flags & CHANNEL_DEVICE_IO))
		return false;
	fd = probe_scratch_file(dir, path, sizeof(path));
	if (fd < 0) {
		snprintf(why, n, "cannot create a probe file for O_DIRECT: %s", strerror(-fd));
		return false;
	}
	dfd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
	if (dfd < 0) {
		fs_type_name(dir, fs, sizeof(fs));
		snprintf(why, n, "%s refuses O_DIRECT: written through the page cache", fs);
	} else {
		close(dfd);
	}
	close(fd);
	unlink(path);
	return dfd >= 0;
}
