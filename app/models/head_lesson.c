/*
 * head_lesson.c - one head of a real model written as a lesson
 * (head_lesson.h). The lesson is written twice: once to evaluate it (the
 * engine computes the exercises' answers from the very matrices the
 * student will see), then with those answers stated, so `attn check
 * --strict` holds it to them.
 */
#include "head_lesson.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "fileclaim.h"
#include "filewrite.h"
#include "hash.h"
#include "lesson.h"
#include "lessonfile.h"
#include "npy.h"
#include "progress.h"
#include "strbuf.h"
#include "teach.h"

/* The exercises: the cells they ask for (from 0) and the answers they
 * state (NAN: not known yet, the lesson's first writing). */
#define TWINS_MAX 64
#define CHANCE_MAX 8

enum { EX_SCALED, EX_WEIGHT, EX_KIND, EX_KINDS };

typedef struct {
    int si, sj, ai, aj;
    double scaled, weight;
    /* the cells of scaled that read as the asked one at the screen's
     * decimals (a head's scores repeat along a diagonal): hidden too */
    int twin[TWINS_MAX][2], n_twins;
    int ki, kj;         /* the kind's step's cell (kind_cell), -1: none */
    double kind_weight;
    /* cells elsewhere on the screens (an input, a weight) that read as an
     * exercise's answer by chance, as `attn check --strict` finds them:
     * each exercise hides its own too */
    LessonCell chance[EX_KINDS][CHANCE_MAX];
    int n_chance[EX_KINDS];
} Stated;

/* The cells exercise `which` hides by chance, each " NAME[r,c]". */
static void add_chance(StrBuf *b, const Stated *st, int which)
{
    for (int i = 0; i < st->n_chance[which]; i++)
        strbuf_add(b, " %s[%d,%d]", st->chance[which][i].name, st->chance[which][i].row + 1,
                   st->chance[which][i].col + 1);
}

/* rows x cols floats (row-major) as dir/name, a float32 .npy. */
static int write_npy(const char *dir, const char *name, const float *v, int rows, int cols, char *why, size_t size)
{
    char path[PATH_MAX], head[128];
    int64_t shape[2] = { rows, cols };
    size_t hlen = npy_header_f32(head, sizeof head, shape, 2), bytes = (size_t)rows * cols * sizeof *v;
    char *all = malloc(hlen + bytes);
    if (!all) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    memcpy(all, head, hlen);
    memcpy(all + hlen, v, bytes);
    char msg[600];
    if (filewrite_join(path, sizeof path, dir, name) != 0) {
        free(all);
        snprintf(why, size, "%s: the path is too long", dir);
        return -1;
    }
    int rc = filewrite_replace(path, all, hlen + bytes, msg, sizeof msg);
    free(all);
    if (rc != 0)
        snprintf(why, size, "%s: %s", path, msg);
    return rc;
}

/* s made fit for one line of a lesson: no newline, no '#' (a comment),
 * control bytes as spaces, and every byte a lesson refuses (one that is
 * not UTF-8, half a character as a byte-level model's tokens often are; a
 * C1 control; a bidirectional override or isolate) written as \xNN by the
 * lesson's own escape, at most max bytes (never a character or an escape
 * cut in two). Any text a student types can so be written as a lesson. */
static void one_line(const char *s, char *out, size_t size, size_t max)
{
    size_t len = s ? strlen(s) : 0;
    char *plain = malloc(len + 1), *escaped = malloc(4 * len + 1);
    out[0] = '\0';
    if (!plain || !escaped) {
        free(plain), free(escaped);
        return;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        plain[i] = c < 0x20 || c == 0x7f || c == '#' ? ' ' : (char)c;
    }
    plain[len] = '\0';
    term_escape_text(plain, escaped, 4 * len + 1);
    if (max > size - 1)
        max = size - 1;
    size_t k = 0, total = strlen(escaped);
    for (size_t i = 0; i < total;) {
        unsigned char c = (unsigned char)escaped[i];
        size_t n = c == '\\' && escaped[i + 1] == 'x' ? 4 : c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
        if (n > total - i)
            n = total - i;
        if (k + n > max)
            break;
        memcpy(out + k, escaped + i, n);
        k += n, i += n;
    }
    out[k] = '\0';
    free(plain), free(escaped);
}

/* A token as a label of the lesson's `tokens` line: no spaces (they
 * separate labels), at most 10 bytes; "_" for one of spaces alone. */
static void token_label(const ModelLook *lk, int i, char *out, size_t size)
{
    const char *t = model_look_token(lk, lk->ids[i]);
    char line[64];
    one_line(t, line, sizeof line, 10);
    size_t k = 0;
    for (size_t j = 0; line[j] && k + 1 < size; j++)
        if (line[j] != ' ')
            out[k++] = line[j];
    out[k] = '\0';
    if (!out[0] || !t)
        snprintf(out, size, t ? "_" : "t%d", i + 1);
}

/* The cell the step on the head's kind asks about (from 0): for an
 * induction head the last token said before (its earlier showing followed
 * by another token before it) and the token after that earlier showing,
 * *earlier that showing; for a previous-token head the last token and the
 * one before it. -1 when the kind has none, or the text no such token. */
static void kind_cell(const ModelLook *lk, const char *kind, int *qi, int *kj, int *earlier)
{
    *qi = *kj = *earlier = -1;
    if (strcmp(kind, "induction") == 0) {
        for (int i = lk->n - 1; i >= 2 && *qi < 0; i--)
            for (int p = i - 2; p >= 0; p--)
                if (lk->ids[p] == lk->ids[i]) {
                    *qi = i, *kj = p + 1, *earlier = p;
                    break;
                }
    } else if (strcmp(kind, "previous-token") == 0 && lk->n >= 2) {
        *qi = lk->n - 1, *kj = lk->n - 2;
    }
}

/* The step that says what this head does, by the kind attn measured on
 * its probe: an induction head's finds the earlier showing of a token and
 * the token after it, a previous-token head's the diagonal below the main
 * one, each with an exercise on that weight; the others say where to look. */
static void kind_step(StrBuf *b, const ModelLook *lk, const char *kind, double score, const Stated *st)
{
    int qi, kj, earlier;
    char q[32], k[32], e[32];
    kind_cell(lk, kind, &qi, &kj, &earlier);
    if (qi >= 0) {
        token_label(lk, qi, q, sizeof q);
        token_label(lk, kj, k, sizeof k);
    }
    if (strcmp(kind, "induction") == 0 && qi >= 0) {
        token_label(lk, earlier, e, sizeof e);
        strbuf_add(b, "step What this head does: induction\n  text\n"
                      "    On its probe this head reads as induction (score %.2f): when a token comes again, it\n"
                      "    looks at the token that followed it the first time, so the model can say next what\n"
                      "    came next then. Here token %d (%s) was said before, as token %d (%s); the token after\n"
                      "    that is token %d (%s). Find them in row %d of A.\n  end\n  show A\n  heatmap A\n",
                   score, qi + 1, q, earlier + 1, e, kj + 1, k, qi + 1);
        strbuf_add(b, "  exercise How much of token %d's attention goes to token %d, the token after the earlier "
                      "%s?\n", qi + 1, kj + 1, q);
    } else if (strcmp(kind, "induction") == 0) {
        strbuf_add(b, "step What this head does: induction\n  text\n"
                      "    On its probe this head reads as induction (score %.2f): when a token comes again, it\n"
                      "    looks at the token that followed it the first time. No token of this text comes\n"
                      "    again, so there is nothing for it to find here: give it a text that repeats itself\n"
                      "    (a sentence said twice) and look at the repeat's rows.\n  end\n  show A\n\n", score);
        return;
    } else if (strcmp(kind, "previous-token") == 0 && qi >= 0) {
        strbuf_add(b, "step What this head does: the token before\n  text\n"
                      "    On its probe this head reads as previous-token (score %.2f): each token looks at the\n"
                      "    one just before it. In A that is the diagonal below the main one: A[2,1], A[3,2],\n"
                      "    and on to A[%d,%d].\n  end\n  show A\n  heatmap A\n", score, qi + 1, kj + 1);
        strbuf_add(b, "  exercise How much of token %d's attention goes to token %d, on the diagonal below the "
                      "main one?\n", qi + 1, kj + 1);
    } else {
        const char *where = strcmp(kind, "first-token") == 0 ? "at the first token: the first column of A, where\n"
                                                              "    a head puts weight it has no other use for"
                          : strcmp(kind, "self") == 0 ? "at itself: the main diagonal of A"
                                                      : "at no one token: its weight is spread, so its score is 1\n"
                                                        "    minus the highest of its four (previous, first, self, induction)";
        strbuf_add(b, "step What this head does: %s\n  text\n"
                      "    On its probe this head reads as %s (score %.2f): each token looks mostly\n    %s.\n"
                      "  end\n  show A\n  heatmap A\n\n", kind, kind, score, where);
        return;
    }
    if (isnan(st->kind_weight))
        strbuf_add(b, "    answer A[%d,%d] within 0.001\n", qi + 1, kj + 1);
    else
        strbuf_add(b, "    answer A[%d,%d] = %.6f within 0.001\n", qi + 1, kj + 1, st->kind_weight);
    if (earlier >= 0)
        strbuf_add(b, "    hint   Token %d's token came before as token %d; the one after it is token %d.\n", qi + 1,
                   earlier + 1, kj + 1);
    else
        strbuf_add(b, "    hint   The diagonal below the main one: row %d, column %d.\n", qi + 1, kj + 1);
    strbuf_add(b, "    hide  ");
    for (int c = 1; c <= qi + 1; c++)
        strbuf_add(b, " A[%d,%d]", qi + 1, c);
    strbuf_add(b, " A_model[%d,%d]", qi + 1, kj + 1);     /* the set-up's copy, the model's own */
    add_chance(b, st, EX_KIND);
    strbuf_add(b, "\n  end\n\n");
}

/* The lesson's text. */
static char *lesson_text(const ModelLook *lk, int layer, int head, const char *text, const Stated *st)
{
    const ModelConfig *c = &lk->md.cfg;
    int n = lk->n, hd = c->head_dim, llama = c->kind == FAMILY_LLAMA;
    double kind_score;
    const char *kind = model_head_kind(&lk->scores[(layer - 1) * c->heads + head - 1], &kind_score);
    int window = c->sliding_window > 0 && c->sliding_window < n ? c->sliding_window : 0;
    char mask[64];
    if (window)
        snprintf(mask, sizeof mask, "window_mask(%d, %d)", n, window);
    else
        snprintf(mask, sizeof mask, "causal_mask(%d)", n);
    char quoted[200], name[200], dir[4 * PATH_MAX];
    one_line(text && *text ? text : "", quoted, sizeof quoted, 80);
    one_line(lk->name, name, sizeof name, 60);
    one_line(lk->md.dir, dir, sizeof dir, sizeof dir - 1);     /* a folder named "m\ncheck 1 = 2" stays a comment */
    StrBuf b = { 0 };
    strbuf_add(&b, "# Written by attn from the model in %s: layer %d, head %d, on its own weights and\n"
                   "# the text's %d tokens. Written again each time the head is asked for.\n",
               dir, layer, head, n);
    /* the title is the progress's key: the text's opening words and a
     * mark of its tokens in it, so a lesson on another text (whose
     * numbers differ) starts afresh instead of taking the answers given
     * on the first one as its own */
    char opening[64];
    one_line(text && *text ? text : "", opening, sizeof opening, 24);
    unsigned mark = (unsigned)(hash_fnv1a(HASH_START, lk->ids, (size_t)n * sizeof *lk->ids) & 0xffff);
    if (opening[0])
        strbuf_add(&b, "lesson %s: layer %d, head %d on \"%s%s\" #%04x\n", name, layer, head, opening,
                   strlen(opening) < strlen(quoted) ? "…" : "", mark);
    else
        strbuf_add(&b, "lesson %s: layer %d, head %d on %d tokens #%04x\n", name, layer, head, n, mark);
    if (quoted[0])
        strbuf_add(&b, "about  One head of a real model, step by step, on \"%s\".\n", quoted);
    else
        strbuf_add(&b, "about  One head of a real model, step by step, on %d tokens.\n", n);
    strbuf_add(&b, "tokens");
    for (int i = 0; i < n; i++) {
        char label[32];
        token_label(lk, i, label, sizeof label);
        strbuf_add(&b, " %s", label);
    }
    strbuf_add(&b, "\n\nlet X  = load(\"x.npy\")\nlet Wq = load(\"wq.npy\")\nlet Wk = load(\"wk.npy\")\n"
                   "let Wv = load(\"wv.npy\")\nlet Wo = load(\"wo.npy\")\n");
    strbuf_add(&b, "let bq = load(\"bq.npy\")\nlet bk = load(\"bk.npy\")\nlet bv = load(\"bv.npy\")\n");
    strbuf_add(&b, "# the attention the model's own forward pass computed, for the check at the end\n"
                   "let A_model = load(\"attention.npy\")\n\n");

    strbuf_add(&b, "step What the layer reads\n  text\n"
                   "    Each row of X is one token of the text as layer %d of %s receives it: the model's\n"
                   "    running sum for that token, passed through the layer's\n"
                   "    %s.\n"
                   "    A row has %d numbers, the model's width. Everything on the next screens is computed\n"
                   "    from these rows and this head's own weights, read from the checkpoint.\n"
                   "  end\n  show X\n\n",
               layer, name, llama ? "RMSNorm (each row divided by its root mean square, times a gain)"
                                  : "LayerNorm (each row to mean 0 and variance 1, times a gain, plus a bias)",
               c->d_model);

    strbuf_add(&b, "step Queries, keys and values\n  text\n"
                   "    The head owns %d columns of each projection: Wq, Wk and Wv are %d x %d, cut out of\n"
                   "    the layer's weights. Each token's row of X becomes a query (what it looks for), a\n"
                   "    key (what it offers to be found by) and a value (what it hands over), %d numbers\n"
                   "    each.%s\n  end\n"
                   "  let Q = X @ Wq + bq\n  let K = X @ Wk + bk\n  let V = X @ Wv + bv\n  show Q K V\n\n",
               hd, c->d_model, hd, hd,
               llama ? (c->kv_heads < c->heads ? " This model shares keys and values between heads (grouped-query\n"
                                                 "    attention): this head reads the keys and values of a group.\n"
                                                 "    Its biases are zero where the checkpoint has none."
                                               : " Its biases are zero where the checkpoint has none.")
                     : " The biases come from the checkpoint too.");
    const char *q = "Q", *k = "K";
    if (llama) {
        strbuf_add(&b, "step Rotary positions\n  text\n"
                       "    This model has no position table. Instead it turns each query and key by an angle\n"
                       "    that grows with the token's position: column j is paired with column j + %d and\n"
                       "    the pair is rotated by position x %g^(-2(j-1)/%d). A score then depends on how far\n"
                       "    apart two tokens are, not on where they stand.\n  end\n"
                       "  let Qr = rope_half(Q, %g)\n  let Kr = rope_half(K, %g)\n  show Q Qr Kr\n\n",
                   hd / 2, c->rope_theta, hd, c->rope_theta, c->rope_theta);
        q = "Qr", k = "Kr";
    }
    strbuf_add(&b, "step Scores\n  text\n"
                   "    Row i of S holds query i's dot product with every key: how well what token i looks\n"
                   "    for matches what each token offers. Rows are queries, columns keys.\n  end\n"
                   "  let S = %s @ %s^T\n  show S\n  heatmap S\n\n", q, k);
    strbuf_add(&b, "step Scale\n  text\n"
                   "    Dot products of %d numbers grow with %d, so the scores are divided by sqrt(%d) = %g\n"
                   "    before the softmax, which would otherwise pick one key and starve the rest.\n  end\n"
                   "  let scaled = S / sqrt(%d)\n  show S scaled\n",
               hd, hd, hd, sqrt(hd), hd);
    if (n >= 2) {
        int i = st->si + 1, j = st->sj + 1;
        strbuf_add(&b, "  exercise What is scaled[%d,%d], query %d's scaled score for key %d?\n", i, j, i, j);
        if (isnan(st->scaled))
            strbuf_add(&b, "    answer scaled[%d,%d] within 0.001\n", i, j);
        else
            strbuf_add(&b, "    answer scaled[%d,%d] = %.6f within 0.001\n", i, j, st->scaled);
        strbuf_add(&b, "    hint   Take S[%d,%d] and divide it by sqrt(%d).\n", i, j, hd);
        if (st->n_twins || st->n_chance[EX_SCALED]) {
            strbuf_add(&b, "    hide   scaled[%d,%d]", i, j);     /* a hide line names every cell */
            for (int t = 0; t < st->n_twins; t++)
                strbuf_add(&b, " scaled[%d,%d]", st->twin[t][0] + 1, st->twin[t][1] + 1);
            add_chance(&b, st, EX_SCALED);
            strbuf_add(&b, "\n");
        }
        strbuf_add(&b, "  end\n");
    }
    strbuf_add(&b, "\nstep The causal mask\n  text\n"
                   "    A token may not look at the tokens after it: the model is trained to guess the next\n"
                   "    token, and they would give it away. Adding -inf above the diagonal makes their\n"
                   "    weights exactly zero after the softmax.%s\n  end\n"
                   "  let masked = scaled + %s\n  show masked\n\n",
               window ? " This model also sees only the last few tokens (a sliding window)." : "", mask);
    strbuf_add(&b, "step Softmax\n  text\n"
                   "    Each row becomes weights that are positive and sum to 1. attn measured this head on\n"
                   "    its probe (random tokens, each sequence said twice): it reads as %s (score %.2f).\n  end\n"
                   "  let A = softmax_rows(masked)\n  show masked A\n  heatmap A\n",
               kind, kind_score);
    if (n >= 2) {
        int i = st->ai + 1, j = st->aj + 1;
        strbuf_add(&b, "  exercise How much of token %d's attention goes to token %d?\n", i, j);
        if (isnan(st->weight))
            strbuf_add(&b, "    answer A[%d,%d] within 0.001\n", i, j);
        else
            strbuf_add(&b, "    answer A[%d,%d] = %.6f within 0.001\n", i, j, st->weight);
        strbuf_add(&b, "    hint   Row %d keeps keys 1 to %d after the mask; the others weigh nothing.\n"
                       "    hint   exp(masked[%d,%d]) divided by the sum of exp(masked[%d,k]) over those keys.\n"
                       "    hide  ", i, i, i, j, i);
        for (int k = 1; k <= i; k++)
            strbuf_add(&b, " A[%d,%d]", i, k);     /* the row's sum would give the cell away */
        strbuf_add(&b, " A_model[%d,%d]", i, j);  /* the set-up's copy, the model's own */
        add_chance(&b, st, EX_WEIGHT);
        strbuf_add(&b, "\n  end\n");
    }
    strbuf_add(&b, "\n");
    kind_step(&b, lk, kind, kind_score, st);
    strbuf_add(&b, "step The weighted sum\n  text\n"
                   "    Each token's output is the values averaged with its row of weights: the head hands\n"
                   "    token i a blend of what the tokens it attends to offer.\n  end\n"
                   "  let Z = A @ V\n  show A V Z\n\n");
    strbuf_add(&b, "step Back into the stream\n  text\n"
                   "    The head's %d numbers per token go back to the model's width through its rows of the\n"
                   "    output projection, and are added to the running sum with every other head's.%s\n"
                   "  end\n  let out = Z @ Wo\n  show Z out\n\n",
               hd, llama ? "" : " (GPT-2 adds the output's bias once for the layer, not per head.)");
    strbuf_add(&b, "# the lesson's softmax is the one the model's own forward pass computed\n"
                   "check A = A_model within 1e-4\n");
    return b.failed ? (strbuf_free(&b), NULL) : strbuf_take(&b);
}

/* The folder: dir, or the state directory's heads/NAME-layerL-headH. */
static int folder(const ModelLook *lk, int layer, int head, const char *dir, char *out, size_t size, char *why,
                  size_t why_size)
{
    if (dir) {
        if ((size_t)snprintf(out, size, "%s", dir) >= size) {
            snprintf(why, why_size, "%s: the path is too long", dir);
            return -1;
        }
    } else {
        char state[1024];
        if (!progress_dir(state, sizeof state)) {
            snprintf(why, why_size, "no place for it: set HOME, XDG_STATE_HOME or ATTN_STATE_DIR");
            return -1;
        }
        char name[130];
        snprintf(name, sizeof name, "%s", lk->name);
        for (char *p = name; *p; p++)
            if (*p == '/' || *p == ' ' || (unsigned char)*p < 0x20)
                *p = '_';
        snprintf(out, size, "%s/heads/%s-layer%d-head%d", state, name[0] && name[0] != '.' ? name : "model", layer,
                 head);
    }
    /* a folder holding a head.lesson or .npy files someone else wrote is
     * refused, never replaced without asking */
    static const char *const files[] = { "head.lesson", "x.npy", "wq.npy", "wk.npy", "wv.npy", "wo.npy", "bq.npy",
                                         "bk.npy", "bv.npy", "attention.npy", NULL };
    return fileclaim_stamp(out, files, NULL, why, why_size);
}

/* The matrices beside the lesson. */
static int write_matrices(ModelLook *lk, int layer, int head, const char *dir, char *why, size_t size)
{
    const ModelConfig *c = &lk->md.cfg;
    ModelHeadWeights w;
    ModelRun run;
    ModelAsk ask = { .input_layer = layer };
    AttnError err = { 0 };
    if (model_dir_unchanged(&lk->md, why, size) != 0)
        return -1;      /* the weights are read where they are mapped */
    if (model_head_weights(lk->md.model, layer, head, &w, &err) != ATTN_OK) {
        snprintf(why, size, "%s", err.msg);
        return -1;
    }
    if (model_forward_asked(lk->md.model, lk->ids, lk->n, &ask, &run, &err) != ATTN_OK) {
        model_head_weights_free(&w);
        snprintf(why, size, "%s", err.msg);
        return -1;
    }
    int d = c->d_model, hd = c->head_dim, n = lk->n;
    int rc = write_npy(dir, "x.npy", run.layer_input, n, d, why, size) || write_npy(dir, "wq.npy", w.wq, d, hd, why, size)
             || write_npy(dir, "wk.npy", w.wk, d, hd, why, size) || write_npy(dir, "wv.npy", w.wv, d, hd, why, size)
             || write_npy(dir, "wo.npy", w.wo, hd, d, why, size) || write_npy(dir, "bq.npy", w.bq, 1, hd, why, size)
             || write_npy(dir, "bk.npy", w.bk, 1, hd, why, size) || write_npy(dir, "bv.npy", w.bv, 1, hd, why, size)
             || write_npy(dir, "attention.npy", model_look_attention(lk, layer - 1, head - 1), n, n, why, size);
    model_run_free(&run);
    model_head_weights_free(&w);
    return rc ? -1 : 0;
}

/* How far v is from every finite cell of a and b but (skip_i, skip_j)'s
 * cells and the row skip_row of a (the cells the exercise hides): the
 * nearest a student could mistake it for, or read it off. */
static double apart(double v, const Mat *a, const Mat *b, int skip_i, int skip_j, int skip_row)
{
    double best = INFINITY;
    const Mat *both[2] = { a, b };
    for (int m = 0; m < 2; m++)
        for (int r = 0; both[m] && r < both[m]->rows; r++)
            for (int c = 0; c < both[m]->cols; c++) {
                double x = mat_get(both[m], r, c);
                if (!isfinite(x) || (m == 0 && ((r == skip_i && c == skip_j) || r == skip_row)))
                    continue;
                best = fmin(best, fabs(x - v));
            }
    return best;
}

/* The lesson written at path, read and evaluated as a student opens it
 * (*l the lesson; the caller frees both), or NULL with why. */
static LessonState *evaluated(const char *path, Lesson **l, char *why, size_t size)
{
    LessonError err;
    *l = lessonfile_load(path, &err);
    LessonState *s = *l ? lesson_eval(*l, NULL, 0, &err) : NULL;
    if (!s) {
        /* plain: the caller escapes why for the terminal (the formatted,
         * escaped error was escaped twice) */
        snprintf(why, size, "the head's lesson does not evaluate: %s:%d:%d: %s", path, err.line, err.col, err.msg);
        lesson_free(*l);
        *l = NULL;
    }
    return s;
}

/* The lesson at path evaluated: each exercise asks for the cell of the
 * first rows (worked by hand: a few keys) that stands furthest from every
 * other number on its screen, so no other cell gives it away. */
static int evaluate(const char *path, Stated *st, char *why, size_t size)
{
    Lesson *l;
    LessonState *s = evaluated(path, &l, why, size);
    if (!s)
        return -1;
    const Mat *scaled = lesson_state_get(s, "scaled"), *S = lesson_state_get(s, "S");
    const Mat *a = lesson_state_get(s, "A"), *masked = lesson_state_get(s, "masked");
    double far = -1;
    for (int i = 1; scaled && i < scaled->rows && i < 6; i++)
        for (int j = 0; j < i; j++) {
            double d = apart(mat_get(scaled, i, j), scaled, S, i, j, -1);
            if (d > far)
                far = d, st->si = i, st->sj = j, st->scaled = mat_get(scaled, i, j);
        }
    st->n_twins = 0;
    for (int r = 0; scaled && r < scaled->rows; r++)
        for (int c = 0; c < scaled->cols && st->n_twins < TWINS_MAX; c++)
            if ((r != st->si || c != st->sj) && fabs(mat_get(scaled, r, c) - st->scaled) < 5e-5) {
                st->twin[st->n_twins][0] = r;
                st->twin[st->n_twins][1] = c;
                st->n_twins++;
            }
    far = -1;
    for (int i = 1; a && i < a->rows && i < 3; i++)
        for (int j = 0; j <= i; j++) {
            double d = apart(mat_get(a, i, j), a, masked, i, j, i);
            if (d > far)
                far = d, st->ai = i, st->aj = j, st->weight = mat_get(a, i, j);
        }
    if (a && st->ki >= 0 && st->ki < a->rows && st->kj < a->cols)
        st->kind_weight = mat_get(a, st->ki, st->kj);
    lesson_state_free(s);
    lesson_free(l);
    return 0;
}

/* The cells of the screens that read as an exercise's answer by chance
 * (the lesson at path as `attn check --strict` reads it), added to the
 * exercise's own: how many were new, or -1 with why. */
static int chance_cells(const char *path, Stated *st, char *why, size_t size)
{
    Lesson *l;
    LessonState *s = evaluated(path, &l, why, size);
    if (!s)
        return -1;
    int added = 0;
    /* the exercises stand in the order of EX_SCALED, EX_WEIGHT, EX_KIND */
    for (int i = 0; i < lesson_n_exercises(l) && i < EX_KINDS; i++) {
        LessonCell cell;
        char leak[352];
        if (lesson_exercise_leak_cell(l, s, lesson_exercise_at(l, i), &cell, leak, sizeof leak) && cell.name[0]
            && st->n_chance[i] < CHANCE_MAX) {
            st->chance[i][st->n_chance[i]++] = cell;
            added++;
        }
    }
    lesson_state_free(s);
    lesson_free(l);
    return added;
}

int head_lesson_write(ModelLook *lk, int layer, int head, const char *text, const char *dir, char *path,
                      size_t path_size, char *why, size_t why_size)
{
    char where[PATH_MAX];
    if (lk->n_edits > 0) {
        /* its x.npy is a pass of the model as it is, its attention the
         * edited one's: the lesson's check would fail */
        snprintf(why, why_size, "a lesson is of the model as it is: put the changed heads back first");
        return -1;
    }
    if (folder(lk, layer, head, dir, where, sizeof where, why, why_size) != 0
        || write_matrices(lk, layer, head, where, why, why_size) != 0)
        return -1;
    if (filewrite_join(path, path_size, where, "head.lesson") != 0) {
        snprintf(why, why_size, "%s: the path is too long", where);
        return -1;
    }
    Stated st = { .si = 1, .sj = 0, .ai = 1, .aj = 0, .scaled = NAN, .weight = NAN, .ki = -1, .kj = -1, .kind_weight = NAN };
    const ModelConfig *c = &lk->md.cfg;
    double score;
    int earlier;    /* the matrices were written: layer and head are the model's */
    kind_cell(lk, model_head_kind(&lk->scores[(layer - 1) * c->heads + head - 1], &score), &st.ki, &st.kj, &earlier);
    /* written to find the answers, with them, then again while a cell
     * elsewhere reads as one of them by chance (each round hides one more
     * for each exercise; a few suffice) */
    for (int pass = 0; pass < 2 + CHANCE_MAX; pass++) {
        char *t = lesson_text(lk, layer, head, text, &st), msg[600];
        if (!t) {
            snprintf(why, why_size, "out of memory");
            return -1;
        }
        int rc = filewrite_replace(path, t, strlen(t), msg, sizeof msg);
        free(t);
        if (rc != 0) {
            snprintf(why, why_size, "%s: %s", path, msg);
            return -1;
        }
        if (pass == 0 && evaluate(path, &st, why, why_size) != 0)
            return -1;
        int chance = pass > 0 ? chance_cells(path, &st, why, why_size) : 1;
        if (chance < 0)
            return -1;
        if (chance == 0)
            break;
    }
    return 0;
}
