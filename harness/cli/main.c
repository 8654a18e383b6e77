// SPDX-License-Identifier: MIT
/* main.c - bench, the product: bench_main with the product's strategies. */
#include "commands.h"

int main(int argc, char **argv)
{
	return bench_main(argc, argv);
}
