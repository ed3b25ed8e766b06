/*
 * cli.h - the plain-text commands: `attn run`, `attn run --json`,
 * `attn run --explain CELL`, `attn check`. They evaluate lessons through the
 * same engine calls as the screen and print to stdout; errors go to stderr.
 * Each returns the process exit status: 0 success, 1 a check failed,
 * 2 a file could not be read or parsed, or a usage error.
 */
#ifndef ATTN_CLI_H
#define ATTN_CLI_H

int cli_run(int argc, char **argv);     /* argv[0] is "run"   */
int cli_check(int argc, char **argv);   /* argv[0] is "check" */
/* `attn progress [--reset [FILE]]` (progress_cmd.c): the student's progress
 * lesson by lesson, or forget it. */
int cli_progress(int argc, char **argv); /* argv[0] is "progress" */
int cli_model(int argc, char **argv);    /* argv[0] is "model" (model_cmd.c) */
int cli_model_bench(int argc, char **argv); /* argv[0] is "bench", with --model (model_bench.c) */
int cli_train_bench(int argc, char **argv); /* argv[0] is "bench", with --train (model_bench.c) */
int cli_tokenizer_bench(int argc, char **argv); /* argv[0] is "bench", with --tokenizer (model_bench.c) */
int cli_train(int argc, char **argv);    /* argv[0] is "train" (train_cmd.c) */
/* The same options, the run begun for the screen: the Trainer, or NULL
 * with *status (2, having said why). */
struct Trainer;
struct Trainer *cli_train_begin(int argc, char **argv, int *status);
/* `attn grade [--json | --tap] LESSON SHEET...` (grade.c): judge answer
 * sheets with the screen's judge; nothing is saved. */
int cli_grade(int argc, char **argv);   /* argv[0] is "grade" */
/* `attn join ADDR CODE [--name NAME]` (join.c): a student in a class, as a
 * line client. */
int cli_join(int argc, char **argv);    /* argv[0] is "join" */
/* `attn class-report [--csv] LOG` (class_report.c): what a class answered. */
int cli_class_report(int argc, char **argv); /* argv[0] is "class-report" */

#endif
