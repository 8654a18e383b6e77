// SPDX-License-Identifier: MIT
/* select.c - names, `all`, patterns and exclusions of a selection list
 * (see select.h). */
#include "select.h"

#include <fnmatch.h>
#include <string.h>

const char *select_item_pattern(const char *item)
{
	return item[0] == '-' ? item + 1 : item;
}

bool select_item_is_pattern(const char *item)
{
	const char *p = select_item_pattern(item);

	return strcmp(p, "all") == 0 || strpbrk(p, "*?[") != NULL;
}

bool select_item_matches(const char *item, const char *name, bool hidden)
{
	const char *p = select_item_pattern(item);

	if (strcmp(p, name) == 0)
		return true;
	if (hidden)
		return false;
	return strcmp(p, "all") == 0 || (strpbrk(p, "*?[") && fnmatch(p, name, 0) == 0);
}

bool select_wants(const struct str_list *l, const char *name, bool hidden, bool by_default)
{
	bool in;

	if (l->n == 0)
		return by_default;
	in = l->v[0][0] == '-' && by_default;
	for (size_t i = 0; i < l->n; i++)
		if (select_item_matches(l->v[i], name, hidden))
			in = l->v[i][0] != '-';
	return in;
}
