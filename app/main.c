/*
 * main.c - attn's entry point: read the command line and hand over to the
 * screen (tui.c), the plain-text commands (cli.c) or the benchmark.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "escape.h"
#include "lesson.h"
#include "teach.h"
#include "tui.h"

#define ATTN_VERSION "0.1.0"

static void usage(FILE *out)
{
    fputs("usage: attn [--no-color] [--present] [FILE.lesson]\n"
          "                                         open the lesson menu, or one lesson;\n"
          "                                         --present: for a class (big title, the\n"
          "                                         matrices revealed one by one, no key bar)\n"
          "       attn --class [--listen ADDR] [--code CODE] [--log FILE] FILE.lesson\n"
          "                                         present to a class that answers on its own\n"
          "                                         terminals (ADDR HOST:PORT or unix:PATH,\n"
          "                                         default 127.0.0.1:7411; --log: every answer)\n"
          "       attn join ADDR CODE [--name NAME] follow a class and answer its exercises\n"
          "       attn bug [--seed N] FILE.lesson   find the bug: a classic mistake planted in the\n"
          "                                         lesson (the seed picks it: shown on screen);\n"
          "                                         point at the first wrong matrix, name it\n"
          "       attn class-report [--csv] LOG     what a class answered, from its log\n"
          "       attn run [--no-answers] [--json | --markdown OUT | --svg DIR |\n"
          "                --explain CELL] [--set KNOB=VALUE]... [--bug N [--key]] FILE\n"
          "                                         print a lesson as a plain-text handout,\n"
          "                                         JSON, markdown into OUT (- stdout), an\n"
          "                                         SVG of every pane into DIR, or the\n"
          "                                         arithmetic of one cell ('A[2,1]');\n"
          "                                         --no-answers: for students; --set: with\n"
          "                                         the lesson's knobs changed; --bug N: with\n"
          "                                         a classic mistake planted (--key: where)\n"
          "       attn check [--tap | --quiet] [--strict] [--junit FILE] FILE...\n"
          "                                         verify lessons' checks and exercises\n"
          "                                         (TAP 14, quiet, JUnit XML)\n"
          "       attn bench [--n N] [--d D] [--heads H] [--causal] [--reps R] [--json]\n"
          "                  [--kernels auto|blas|avx512|avx2|scalar] [--phases]\n"
          "                  [--fused-only] [--standard | --sweep [--max-n N] | --linear]\n"
          "                                         time attention: fused, naive (n x n), sgemm\n"
          "       attn bench --model PATH|gpt2-small|llama-small [--n N] [--reps R] [--generate N]\n"
          "                  [--dtype f32|bf16] [--json]\n"
          "                                         time a model's forward pass, or its\n"
          "                                         generation with and without the cache\n"
          "       attn bench --train [--steps N] [--json]\n"
          "                                         time a training step of attn train's model\n"
          "       attn bench --tokenizer PATH [--text FILE] [--reps R] [--json]\n"
          "                                         a tokenizer's load (time, memory) and its\n"
          "                                         encoding of 100 KB and 400 KB\n"
          "       attn train [--data FILE] [--out DIR] [--layers L] [--heads H] [--d D]\n"
          "                  [--context C] [--batch B] [--steps N] [--lr X] [--wd X]\n"
          "                  [--warmup K] [--schedule cosine|constant] [--seed S]\n"
          "                  [--init DIR] [--resume] [--json] [--eval-every N] [--threads N]\n"
          "                  [--validate]\n"
          "                                         train a GPT-2 of the 256 bytes on a text,\n"
          "                                         checkpointed; saves a model to open\n"
          "       attn grade [--json | --tap] [--bug N] LESSON SHEET...\n"
          "                                         judge answer sheets ('N: ANSWER' lines;\n"
          "                                         with --bug N, 'bug: MATRIX KIND')\n"
          "       attn progress [--json | --reset [FILE]]\n"
          "                                         your progress, lesson by lesson\n"
          "       attn model PATH [--text TEXT]      a trained GPT-2 or Llama on the screen:\n"
          "                                         every head, one head, the next token\n"
          "       attn model PATH (--text TEXT | --tokens ID,...) [--json] [--top K]\n"
          "                  [--attention-out FILE] [--head-lesson LAYER,HEAD DIR]\n"
          "                  [--svg FILE [--head L.H]] [--ablate L.H[,L.H...]]\n"
          "                  [--ablate-with zero|mean] [--patch L.H[,L.H...] --from TEXT2]\n"
          "                  [--lens] [--attribution]\n"
          "                                         the same printed (config.json,\n"
          "                                         model.safetensors, vocab.json, merges.txt):\n"
          "                                         every head's kind, the next token, the\n"
          "                                         loss; its attention as .npy; a head as a\n"
          "                                         lesson; every head, or one, as an SVG;\n"
          "                                         heads ablated or patched from TEXT2, the\n"
          "                                         logit lens, each head's share of the logit\n"
          "       attn model PATH --tokenize FILE [--json]\n"
          "                                         the ids of a whole file, for scripts\n"
          "       attn model PATH (--text TEXT | --tokens ID,...) --generate N\n"
          "                  [--temperature X] [--top-k K] [--top-p P] [--seed S]\n"
          "                  [--no-cache] [--json]\n"
          "                                         N tokens after the text, one at a time:\n"
          "                                         greedy at temperature 0; a key/value\n"
          "                                         cache (--no-cache: the whole sequence\n"
          "                                         again each token)\n"
          "       attn --help | --version\n"
          "\n"
          "Exit status: 0 success, 1 a check failed (a wrong answer to grade, a class\n"
          "not joined, a save of progress failed), 2 a file could not be read or parsed,\n"
          "or a usage error, 128+N ended by signal N.\n"
          "Lessons: $ATTN_LESSONS, else the shipped set.\n", out);
}

/* attn bug [--seed N] [--no-color] FILE: the lesson with a planted bug to
 * hunt. Without a seed, one from the clock (shown, so it can be given
 * again). */
static int bug_main(int argc, char **argv)
{
    TuiOptions opt = { 0 };
    const char *file = NULL;
    opt.bug = 1;
    opt.bug_seed = (unsigned)(time(NULL) ^ (getpid() << 8)) % 100000u;
    for (int i = 1; i < argc; i++) {
        char shown[512];
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            unsigned v;
            if (lesson_bug_seed_parse(argv[++i], &v) != 0) {
                fprintf(stderr, "attn bug: --seed takes a whole number from 0 to 4294967295, not '%s'\n",
                        term_escape(argv[i], shown, sizeof shown));
                return 2;
            }
            opt.bug_seed = (unsigned)v;
        } else if (strcmp(argv[i], "--no-color") == 0) {
            opt.no_color = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "attn bug: unknown option '%s'\nusage: attn bug [--seed N] FILE.lesson\n",
                    term_escape(argv[i], shown, sizeof shown));
            return 2;
        } else if (!file) {
            file = argv[i];
        } else {
            fprintf(stderr, "attn bug: one lesson at a time\n");
            return 2;
        }
    }
    if (!file) {
        fprintf(stderr, "usage: attn bug [--seed N] FILE.lesson\n");
        return 2;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "attn bug: the hunt is on the screen (a terminal); on paper: attn run --bug N [--key] FILE\n");
        return 2;
    }
    return tui_main(file, &opt);
}

/* The command argv names, run: its exit status. */
static int run_command(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "run") == 0)
        return cli_run(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "check") == 0)
        return cli_check(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "grade") == 0)
        return cli_grade(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "progress") == 0)
        return cli_progress(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "model") == 0) {
        /* on a terminal, PATH [--text TEXT] opens the model's screen; with
         * anything for a script (--json, --tokens, --top, --attention-out,
         * --head-lesson), or not on a terminal, it prints */
        TuiOptions mo = { 0 };
        for (int i = 2; i < argc && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO); i++) {
            if (strcmp(argv[i], "--text") == 0 && i + 1 < argc)
                mo.model_text = argv[++i];
            else if (strcmp(argv[i], "--no-color") == 0)
                mo.no_color = 1;
            else if (argv[i][0] == '-' || mo.model_dir)
                return cli_model(argc - 1, argv + 1);
            else
                mo.model_dir = argv[i];
        }
        if (!mo.model_dir)
            return cli_model(argc - 1, argv + 1);
        return tui_main(NULL, &mo);
    }
    if (argc >= 2 && strcmp(argv[1], "train") == 0) {
        /* on a terminal the screen trains it; for a script, lines */
        int lines = !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO);
        for (int i = 2; i < argc; i++)
            lines |= strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--validate") == 0;
        if (lines)
            return cli_train(argc - 1, argv + 1);
        TuiOptions to = { 0 };
        int status;
        if (!(to.trainer = cli_train_begin(argc - 1, argv + 1, &status)))
            return status;
        return tui_main(NULL, &to);
    }
    if (argc >= 2 && strcmp(argv[1], "bench") == 0)
        return cli_bench(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "join") == 0) {
        /* on a terminal, the lesson screen following the class; else lines */
        TuiOptions jo = { 0 };
        for (int i = 2; i < argc && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO); i++) {
            if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
                jo.join_name = argv[++i];
            else if (argv[i][0] == '-' || (jo.join_addr && jo.join_code))
                return cli_join(argc - 1, argv + 1);    /* it says what is wrong */
            else if (!jo.join_addr)
                jo.join_addr = argv[i];
            else
                jo.join_code = argv[i];
        }
        if (!jo.join_addr || !jo.join_code)
            return cli_join(argc - 1, argv + 1);
        if (!jo.join_name)
            jo.join_name = getenv("USER") && getenv("USER")[0] ? getenv("USER") : "student";
        return tui_main(NULL, &jo);
    }
    if (argc >= 2 && strcmp(argv[1], "bug") == 0)
        return bug_main(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "class-report") == 0)
        return cli_class_report(argc - 1, argv + 1);
    TuiOptions opt = { 0 };
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[i], "--version") == 0) {
            printf("attn %s\n", ATTN_VERSION);
            return 0;
        } else if (strcmp(argv[i], "--no-color") == 0) {
            opt.no_color = 1;
        } else if (strcmp(argv[i], "--present") == 0) {
            opt.present = 1;
        } else if (strcmp(argv[i], "--class") == 0) {
            opt.class_mode = opt.present = 1;
        } else if ((strcmp(argv[i], "--listen") == 0 || strcmp(argv[i], "--code") == 0 ||
                    strcmp(argv[i], "--log") == 0) && i + 1 < argc) {
            const char **slot = argv[i][2] == 'l' && argv[i][3] == 'i' ? &opt.listen
                                : argv[i][2] == 'c' ? &opt.code : &opt.log;
            *slot = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            char shown[512];
            fprintf(stderr, "attn: unknown option '%s'\n", term_escape(argv[i], shown, sizeof shown));
            usage(stderr);
            return 2;
        } else if (!file) {
            file = argv[i];
        } else {
            char a[512], b[512];
            fprintf(stderr, "attn: one lesson at a time ('%s' and '%s')\n", term_escape(file, a, sizeof a),
                    term_escape(argv[i], b, sizeof b));
            return 2;
        }
    }
    if ((opt.listen || opt.code || opt.log) && !opt.class_mode) {
        fprintf(stderr, "attn: --listen, --code and --log go with --class\n");
        usage(stderr);
        return 2;
    }
    if (opt.class_mode && !file) {
        fprintf(stderr, "attn: --class needs the lesson to teach: attn --class FILE.lesson\n");
        return 2;
    }
    return tui_main(file, &opt);
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    int status = run_command(argc, argv);
    /* whatever the command wrote, a standard output that failed (a full
     * disk, a pipe closed early) is no success, said here once: one big
     * write of a JSON document fails at once and leaves nothing for a
     * later flush to find */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "attn: could not write the output\n");
        if (status == 0)
            status = 2;
    }
    return status;
}
