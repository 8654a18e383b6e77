// SPDX-License-Identifier: MIT
/*
 * layering.c - the layering tests (layering_*) compile this file with the
 * include directories of one layer (strategies, workloads or a room of
 * harness/) and LAYER_HEADER naming one header. A header of a layer above
 * (the harness's syscount.h, which includes only system headers) must not be
 * found, so that build fails; the layer's own contract must be found, so the
 * same file builds: the failure is the include, nothing else.
 */
#include LAYER_HEADER

int layering_include_one(void);

int layering_include_one(void)
{
	return 0;
}
