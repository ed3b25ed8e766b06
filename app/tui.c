/* tui.c - placeholder until the screen lands (issue 4). */
#include <stdio.h>
#include "tui.h"
int tui_main(const char *file, int no_color) { (void)file; (void)no_color; fputs("attn: the screen is not built yet\n", stderr); return 2; }
