// SPDX-License-Identifier: MIT
/* registry.c - the table of channels, sorted by name. Add a line here when
 * you add a file in workloads/channels/. */
#include "channel.h"
#include "fileio.h"

#include <stdio.h>

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
	char what[160];

	if (n)
		why[0] = '\0';
	if (!(ch->flags & CHANNEL_DEVICE_IO))
		return false;
	if (probe_direct_io(dir, what, sizeof(what)) == 0)
		return true;
	snprintf(why, n, "%s: written through the page cache", what);
	return false;
}
