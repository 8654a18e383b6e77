/* SPDX-License-Identifier: MIT */
/*
 * select.h - what a --strategy or --workload list picks. Its items are
 * names, `all`, glob patterns (fnmatch(3): `splice*`, `mmap?*`) and
 * exclusions: any of those after a `-` (`-lines`, `-mmap*`).
 *
 * Read left to right, the last item that matches a name decides whether it
 * is in: `all,-lines` is every one but lines, `-lines,all` every one. A
 * list that begins with an exclusion starts from the default selection
 * (`-lines`: the default without lines), any other list from nothing.
 * `all` and patterns never pick a hidden name (a test-only strategy); a
 * name written out in full always does.
 */
#ifndef COPYBENCH_SELECT_H
#define COPYBENCH_SELECT_H

#include <stdbool.h>

#include "options.h"

/* Does list l pick name? by_default: whether the default selection (an
 * empty list) has it. */
bool select_wants(const struct str_list *l, const char *name, bool hidden, bool by_default);
/* Does one item (without its leading '-') match name? */
bool select_item_matches(const char *item, const char *name, bool hidden);
/* The item without its leading '-' of an exclusion. */
const char *select_item_pattern(const char *item);
/* Is the item `all` or a pattern (it may rightly match nothing named)? */
bool select_item_is_pattern(const char *item);

#endif
