/* SPDX-License-Identifier: MIT */
/*
 * paths.h - where bench looks for its own files and where it puts datasets
 * by default, for a bench run from its build directory and for an installed
 * one.
 *
 * A bench whose executable lies in the build directory it was compiled in
 * (COPYBENCH_BUILD_DIR, fixed at build time) runs in source-tree mode: the
 * source tree's plots/ and results/ are fallbacks, and datasets go to
 * datasets/cache under the current directory, as the README's commands
 * assume. Any other copy (installed with cmake --install, or moved) is on
 * its own: gnuplot scripts from <exe>/../share/copybench/plots, datasets in
 * $XDG_CACHE_HOME/copybench, else ~/.cache/copybench. Results go to
 * ./results either way, unless --out.
 */
#ifndef COPYBENCH_PATHS_H
#define COPYBENCH_PATHS_H

#include <stddef.h>

/* The source tree in source-tree mode, NULL for an installed bench. */
const char *paths_source_dir(void);
/* The directory of the running executable; 0 or -errno. */
int paths_exe_dir(char *out, size_t n);
/* The default --dir of `bench` and `bench clean`. */
void paths_dataset_dir(char *out, size_t n);

#endif
