// SPDX-License-Identifier: MIT
/* gbench_main.c - bench_gbench: gbench_main with the product's strategies. */
#include "gbench.h"

int main(int argc, char **argv)
{
	return gbench_main(argc, argv);
}
