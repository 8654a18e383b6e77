// SPDX-License-Identifier: MIT
#include <stdio.h>
int main(void) { puts("bench: under construction"); return 0; }
