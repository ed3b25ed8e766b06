/* cli.c - placeholder until the lesson commands land (issue 3). */
#include <stdio.h>
#include "cli.h"
int cli_run(int argc, char **argv) { (void)argc; (void)argv; fputs("attn run: not built yet\n", stderr); return 2; }
int cli_check(int argc, char **argv) { (void)argc; (void)argv; fputs("attn check: not built yet\n", stderr); return 2; }
