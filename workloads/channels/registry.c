// SPDX-License-Identifier: MIT
/* registry.c - the table of channels, sorted by name. Add a line here when
 * you add a file in workloads/channels/; its declaration is generated. */
#include "channel.h"
#include "fileio.h"
#include "registry.h"

#include <stdio.h>

/* The extern declaration of every channel descriptor, written at build
 * time by tools/plugin-externs.cmake. */
#include "channel_externs.h"

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

static const char *channel_name(size_t i)
{
	return channel_table[i]->name;
}

const struct channel *channel_find(const char *name)
{
	ssize_t i = registry_find(channel_count, channel_name, name);

	return i < 0 ? NULL : channel_table[i];
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
