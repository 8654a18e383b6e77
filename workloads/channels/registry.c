// SPDX-License-Identifier: MIT
/* registry.c - the table of channels (registry.h). */
#include "channel.h"
#include "lib/fileio.h"
#include "lib/registry.h"

#include <stddef.h>
#include <stdio.h>

/* Every channel, sorted by name: the descriptor its file in
 * workloads/channels/ defines. A new channel is its file and one line here. */
#define CHANNEL_LIST(X) \
	X(channel_pipe) \
	X(channel_shm) \
	X(channel_shm_direct) \
	X(channel_tcp) \
	X(channel_tcp_nodelay) \
	X(channel_unix) \
	X(channel_vmsplice)

#define DECLARE_CHANNEL(d) extern const struct channel d;
CHANNEL_LIST(DECLARE_CHANNEL)

const struct channel *const channel_table[] = { CHANNEL_LIST(REGISTRY_ENTRY) };
const size_t channel_count = sizeof(channel_table) / sizeof(channel_table[0]);

const struct channel *channel_find(const char *name)
{
	ssize_t i = registry_find((const void *const *)channel_table, channel_count,
				  offsetof(struct channel, name), name);

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
