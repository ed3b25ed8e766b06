/*
 * tokenize_cli.h - `attn model PATH --tokenize FILE [--json]` for scripts
 * (tokenize_cli.c). Called by app/cli/model_cmd.c.
 */
#ifndef ATTN_TOKENIZE_CLI_H
#define ATTN_TOKENIZE_CLI_H

/* How many files --tokenize may name. */
#define TOKENIZE_MAX_FILES 1024

/* The ids of each of the n_files files by dir's tokenizer, on stdout, the
 * tokenizer read once (its config.json and tokenizer only; no weights):
 * 0, or 2 with the reason said on stderr. */
int tokenize_cli(const char *dir, const char *const *files, int n_files, int json);

#endif
