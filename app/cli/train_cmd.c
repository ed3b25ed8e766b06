/*
 * train_cmd.c - `attn train`: a GPT-2 of the 256 bytes trained on a text
 * file (engine/train), from scratch or from --init DIR, with cross-entropy
 * and AdamW, evaluated on the file's last 10% every --eval-every steps; a
 * checkpoint written atomically at each evaluation and on SIGINT or
 * SIGTERM, so --resume continues where a run stopped, even one killed
 * outright; at the end the model saved as an ordinary checkpoint
 * (app/models/model_write.c) that `attn model` opens. --json prints a line
 * per evaluation ({"step", "train_loss", "val_loss", "lr", "tokens_per_s"})
 * and {"done": true, "out": DIR} at the end. --validate with --init DIR
 * measures that model's loss on the validation text and trains nothing.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "pool.h"
#include "json_write.h"
#include "lesson.h"
#include "lessonfile.h"
#include "numfmt.h"
#include "trainer.h"

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
    stop_asked = sig;
}

static const char train_usage_text[] =
    "usage: attn train [--data FILE] [--out DIR] [--layers L] [--heads H] [--d D] [--context C] [--batch B] "
    "[--steps N] [--lr X] [--wd X] [--warmup K] [--schedule cosine|constant] [--seed S] [--init DIR] [--resume] "
    "[--json] [--eval-every N] [--threads N] [--validate]\n";

static int train_usage(const char *why)
{
    char shown[1024];
    fprintf(stderr, "attn: %s\n%s", term_escape(why, shown, sizeof shown), train_usage_text);
    return 2;
}

/* A line per evaluation, with each head's induction score on the model
 * screen's probe (--json: "induction", layers by heads; on paper the head
 * of the highest, the line train.log keeps), so a log shows when
 * induction heads formed. */
static void say_point(Trainer *t, double tokens_per_s, int json)
{
    const TrainRun *r = trainer_run(t);
    const TrainPoint *p = &r->curve[r->n_curve - 1];
    const GptShape *g = &r->set.shape;
    const float *ind = r->induction + (size_t)(r->n_curve - 1) * g->layers * g->heads;
    if (json) {
        JsonWriter w;
        jw_begin(&w);
        jw_int(&w, "step", (long long)p->step);
        jw_num(&w, "train_loss", p->train_loss, 6);
        jw_num(&w, "val_loss", p->val_loss, 6);
        jw_num(&w, "lr", p->lr, -1);
        jw_num(&w, "tokens_per_s", tokens_per_s, 1);
        jw_inline(&w, "induction");
        for (int l = 0; l < g->layers; l++) {
            jw_inline(&w, NULL);
            for (int h = 0; h < g->heads; h++)
                jw_num(&w, NULL, ind[l * g->heads + h], 4);
            jw_close(&w, ']');
        }
        jw_close(&w, ']');
        jw_end(&w);
        jw_print(&w, stdout);
    } else {
        char line[400];
        trainer_point_line(t, tokens_per_s, line, sizeof line);
        fputs(line, stdout);
    }
    fflush(stdout);
}

/* The options into *to (and --json, --validate): 0, or 2 having said why. */
static int parse(int argc, char **argv, TrainerOptions *to, int *json_out, int *validate_out)
{
    TrainSettings set;
    memset(&set, 0, sizeof set);        /* the checkpoint holds it whole */
    set.shape = (GptShape){ 4, 4, 128, 128, 256 };
    set.batch = 16;
    set.steps = 5000;
    set.lr = 1e-3;
    set.weight_decay = 0.1;
    set.warmup = 100;
    set.cosine = 1;
    set.seed = 1;
    set.eval_every = 100;
    const char *data = NULL, *out = "attn-model", *init = NULL;
    int resume = 0, json = 0, validate = 0;
    unsigned given = 0;
    long threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        double x;
        int ok = 1, takes = 1;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            fputs(train_usage_text, stdout);
            return -1;      /* said: exit 0 */
        } else if (strcmp(o, "--resume") == 0)
            resume = 1, takes = 0;
        else if (strcmp(o, "--json") == 0)
            json = 1, takes = 0;
        else if (strcmp(o, "--validate") == 0)
            validate = 1, takes = 0;
        else if (!v)
            return train_usage(o[0] == '-' ? "an option without its value, or unknown" : "an argument attn train does "
                                                                                         "not take");
        else if (strcmp(o, "--data") == 0)
            data = v;
        else if (strcmp(o, "--out") == 0)
            out = v;
        else if (strcmp(o, "--init") == 0)
            init = v;
        else if (strcmp(o, "--layers") == 0)
            ok = !num_parse_whole(v, 1, TRAIN_MAX_LAYERS, &n) && (set.shape.layers = (int)n, given |= GIVEN_LAYERS);
        else if (strcmp(o, "--heads") == 0)
            ok = !num_parse_whole(v, 1, TRAIN_MAX_HEADS, &n) && (set.shape.heads = (int)n, given |= GIVEN_HEADS);
        else if (strcmp(o, "--d") == 0)
            ok = !num_parse_whole(v, 1, TRAIN_MAX_WIDTH, &n) && (set.shape.d = (int)n, given |= GIVEN_D);
        else if (strcmp(o, "--context") == 0)
            ok = !num_parse_whole(v, 1, TRAIN_MAX_CONTEXT, &n) && (set.shape.context = (int)n, given |= GIVEN_CONTEXT);
        else if (strcmp(o, "--batch") == 0)
            ok = !num_parse_whole(v, 1, TRAIN_MAX_BATCH, &n) && (set.batch = (int)n, given |= GIVEN_BATCH);
        else if (strcmp(o, "--steps") == 0)
            ok = !num_parse_whole(v, 1, TRAIN_MAX_STEPS, &n) && (set.steps = n, given |= GIVEN_STEPS);
        else if (strcmp(o, "--warmup") == 0)
            ok = !num_parse_whole(v, 0, TRAIN_MAX_STEPS, &n) && (set.warmup = n, given |= GIVEN_WARMUP);
        else if (strcmp(o, "--seed") == 0)
            ok = !num_parse_whole(v, 0, TRAIN_MAX_SEED, &n) && (set.seed = (uint64_t)n, given |= GIVEN_SEED);
        else if (strcmp(o, "--eval-every") == 0)
            ok = !num_parse_whole(v, 1, TRAIN_MAX_STEPS, &n) && (set.eval_every = n, given |= GIVEN_EVAL);
        else if (strcmp(o, "--threads") == 0)
            ok = !num_parse_whole(v, 1, 256, &threads);
        else if (strcmp(o, "--lr") == 0)
            ok = !num_parse_real(v, TRAIN_MIN_LR, TRAIN_MAX_LR, &x) && (set.lr = x, given |= GIVEN_LR);
        else if (strcmp(o, "--wd") == 0)
            ok = !num_parse_real(v, 0, TRAIN_MAX_WD, &x) && (set.weight_decay = x, given |= GIVEN_WD);
        else if (strcmp(o, "--schedule") == 0)
            ok = (strcmp(v, "cosine") == 0 || strcmp(v, "constant") == 0) && (set.cosine = strcmp(v, "cosine") == 0, given |= GIVEN_SCHEDULE);
        else
            return train_usage("an unknown option");
        if (!ok) {
            char why[200];
            snprintf(why, sizeof why, "%s does not take '%.80s'", o, v);
            return train_usage(why);
        }
        i += takes;
    }

    if (validate && (!init || resume))
        return train_usage("--validate measures the model of --init DIR on the validation text, and trains nothing");
    if (threads)
        pool_set_threads((int)threads);
    static char path[1200];
    if (!data) {
        const char *shipped = lessonfile_shipped_models();
        snprintf(path, sizeof path, "%s/tinyshakespeare.txt", shipped ? shipped : "models");
        data = path;
    }
    *to = (TrainerOptions){ set, data, out, init, resume, validate, given };
    *json_out = json;
    *validate_out = validate;
    return 0;
}

Trainer *cli_train_begin(int argc, char **argv, int *status)
{
    TrainerOptions to;
    int json, validate;
    char why[2048], shown[4200];
    if ((*status = parse(argc, argv, &to, &json, &validate)) != 0) {
        if (*status < 0)
            *status = 0;
        return NULL;
    }
    Trainer *t = trainer_open(&to, why, sizeof why);
    if (!t) {
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        *status = 2;
    }
    return t;
}

int cli_train(int argc, char **argv)
{
    TrainerOptions to;
    int json, validate, status;
    char why[2048], shown[4200];
    if ((status = parse(argc, argv, &to, &json, &validate)) != 0)
        return status < 0 ? 0 : status;
    const char *data = to.data, *out = to.out;
    Trainer *t = trainer_open(&to, why, sizeof why);
    if (!t) {
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        return 2;
    }
    const TrainRun *run = trainer_run(t);
    if (validate) {
        /* the model as it is, on the evaluation's batches of the last 10% */
        double val = trainer_validate(t);
        if (json) {
            JsonWriter w;
            jw_begin(&w);
            jw_num(&w, "val_loss", val, 6);
            jw_end(&w);
            jw_print(&w, stdout);
        } else {
            printf("validation loss %.4f (the evaluation's batches of %d x %d bytes from the last 10%% of %s)\n", val,
                   run->set.batch, run->set.shape.context, term_escape(data, shown, sizeof shown));
        }
        trainer_free(t);
        return fflush(stdout) == 0 ? 0 : 2;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    while (status == 0 && !trainer_done(t)) {
        double rate = 0;
        int e = trainer_step(t, &rate, why, sizeof why);
        if (e < 0) {
            fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
            status = 1;
        }
        if (e != 0)
            say_point(t, rate, json);
        if (stop_asked && status == 0) {
            /* stopped: all of it kept, to go on with --resume */
            if (trainer_checkpoint(t, why, sizeof why) != 0) {
                fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
                status = 1;
            } else {
                fprintf(stderr, "attn: stopped after %lld of %lld steps; attn train --resume --out %s goes on\n",
                        (long long)run->step, (long long)run->set.steps, term_escape(out, shown, sizeof shown));
                status = 128 + (int)stop_asked;
            }
        }
    }
    if (status == 0)
        trainer_log_end(t);
    if (status == 0 && trainer_save_model(t, why, sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        status = 1;
    }
    if (status == 0) {
        if (json) {
            JsonWriter w;
            jw_begin(&w);
            jw_bool(&w, "done", 1);
            jw_str(&w, "out", out);
            jw_end(&w);
            jw_print(&w, stdout);
        } else {
            char shown_out[4 * PATH_MAX], note[600];
            term_escape(out, shown_out, sizeof shown_out);
            if (trainer_induction_note(t, note, sizeof note))
                fputs(note, stdout);
            printf("done: the model is in %s (attn model %s opens it)\n", shown_out, shown_out);
        }
    }
    trainer_free(t);
    if (status == 0 && fflush(stdout) != 0)
        status = 2;
    return status;
}
