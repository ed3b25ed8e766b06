/*
 * model_cmd.c - `attn model PATH (--text TEXT | --tokens ID,...) [--json]
 * [--top K] [--attention-out FILE.npy]`: a checkpoint as the Hugging Face
 * hub lays it out (PATH/config.json, PATH/model.safetensors; for the text's
 * tokens and their text the byte-level BPE of PATH/tokenizer.json, or of
 * vocab.json and merges.txt), one forward pass over the tokens
 * (engine/model), and what
 * it shows: the model's sizes, the tokens, every head's kind and score, and
 * the next token's top K; every head's attention as one float32 .npy of
 * shape (layers, heads, n, n). The weights are mapped read-only, never
 * copied whole. Anything unreadable: `FILE: message`, exit 2.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "json_write.h"
#include "lesson.h"
#include "lessonfile.h"
#include "bpe.h"
#include "model.h"
#include "model_dir.h"
#include "safetensors.h"

#define VOCAB_MAX_BYTES (64L << 20)
#define TOKENS_MAX 4096
#define INDUCTION_REP 32        /* the random sequence shown twice, per showing */
#define INDUCTION_SEED 1234u

static int model_usage(const char *why)
{
    char shown[1024];
    fprintf(stderr, "attn: %s\nusage: attn model PATH (--text TEXT | --tokens ID,...) [--json] [--top K] "
                    "[--attention-out FILE.npy]\n",
            lesson_escape(why, shown, sizeof shown));
    return 2;
}

/* "ID,ID,..." into ids; how many, or -1. */
static int parse_tokens(const char *text, int *ids, int max)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || v < 0 || v > INT32_MAX || n == max || (*end && *end != ','))
            return -1;
        ids[n++] = (int)v;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return -1;
    }
    return n;
}

/* The vocabulary's token strings as bytes (GPT-2's alphabet undone), by
 * id: NULL where vocab.json names none. */
typedef struct {
    char **text;
    int n;
} Vocab;

static void vocab_free(Vocab *v)
{
    for (int i = 0; i < v->n; i++)
        free(v->text[i]);
    free(v->text);
}

/* A token's string (UTF-8 of the byte alphabet) as the bytes it stands for. */
static char *token_bytes(const char *s)
{
    unsigned from[512] = { 0 };
    for (int b = 0; b < 256; b++)
        from[bpe_byte_char(b)] = (unsigned)b + 1;
    size_t n = strlen(s), k = 0;
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        unsigned cp = c;
        int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        if (len > 1 && i + (size_t)len <= n) {
            cp = c & (0x7f >> len);
            for (int j = 1; j < len; j++)
                cp = cp << 6 | ((unsigned char)s[i + (size_t)j] & 0x3f);
        }
        if (cp < 512 && from[cp]) {
            out[k++] = (char)(from[cp] - 1);
        } else {
            for (int j = 0; j < len && i + (size_t)j < n; j++)
                out[k++] = s[i + (size_t)j];
        }
        i += (size_t)len;
    }
    out[k] = '\0';
    return out;
}

/* The tokens' text from dir's vocab.json, or its tokenizer.json's
 * model.vocab, when it has either: 0 (v->n 0 when neither), or 2 having
 * said why. */
static int vocab_load(const char *dir, int size, Vocab *v)
{
    memset(v, 0, sizeof *v);
    int in_model = !model_dir_has(dir, "vocab.json");
    const char *name = in_model ? "tokenizer.json" : "vocab.json";
    if (in_model && !model_dir_has(dir, name))
        return 0;
    char *text;
    size_t len;
    int status = model_dir_read(dir, name, VOCAB_MAX_BYTES, &text, &len);
    if (status)
        return status;
    JVal root;
    char jerr[160];
    int rc = json_parse(text, &root, jerr, sizeof jerr);
    free(text);
    /* tokenizer.json keeps the vocabulary under model.vocab */
    const JVal *vocab = rc != 0 ? NULL : in_model ? json_get(json_get(&root, "model"), "vocab") : &root;
    if (!vocab || vocab->type != J_OBJ) {
        char path[4200], why[300];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        snprintf(why, sizeof why, "no JSON object of token -> id%s%s", rc ? ": " : "", rc ? jerr : "");
        if (rc == 0)
            json_free(&root);
        return model_dir_unreadable(path, why);
    }
    v->text = calloc((size_t)size, sizeof *v->text);
    v->n = v->text ? size : 0;
    for (int i = 0; v->text && i < vocab->n; i++) {
        const JVal *id = &vocab->items[i];
        if (id->type == J_NUM && id->num >= 0 && id->num < size && !v->text[(int)id->num])
            v->text[(int)id->num] = token_bytes(vocab->keys[i]);
    }
    json_free(&root);
    return 0;
}

static const char *token_text(const Vocab *v, int id) { return id >= 0 && id < v->n ? v->text[id] : NULL; }

/* Every head's attention as float32, shape (layers, heads, n, n). */
static int write_attention(const char *path, const ModelRun *run, char *why, size_t size)
{
    FILE *f = lessonfile_create(path, why, size);
    if (!f)
        return -1;
    char dict[160];
    int n = snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d, %d, %d), }",
                     run->layers, run->heads, run->n, run->n);
    int total = 10 + n + 1, pad = (64 - total % 64) % 64;
    unsigned short hlen = (unsigned short)(n + pad + 1);
    unsigned char pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff),
                              (unsigned char)(hlen >> 8) };
    size_t count = (size_t)run->layers * run->heads * run->n * run->n;
    int ok = fwrite(pre, 1, sizeof pre, f) == sizeof pre && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
    for (int i = 0; ok && i < pad; i++)
        ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF && fwrite(run->attention, sizeof *run->attention, count, f) == count;
    if (fclose(f) != 0 || !ok) {
        snprintf(why, size, "could not be written: %s", strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

/* The k highest of logits (k <= vocab), highest first. */
static void top_k(const float *logits, int vocab, int k, int *best)
{
    for (int j = 0; j < k; j++)
        best[j] = -1;
    for (int i = 0; i < vocab; i++) {
        int at = k;
        while (at > 0 && (best[at - 1] < 0 || logits[i] > logits[best[at - 1]]))
            at--;
        if (at < k) {
            memmove(&best[at + 1], &best[at], (size_t)(k - at - 1) * sizeof *best);
            best[at] = i;
        }
    }
}

static void print_json(const Model *m, const Vocab *v, const int *ids, int n, const ModelRun *run,
                       const HeadScores *hs, int k)
{
    const ModelConfig *c = model_config(m);
    JsonWriter w;
    jw_begin(&w, stdout);
    jw_object(&w, "model");
    jw_str(&w, "family", c->family);
    jw_int(&w, "layers", c->layers);
    jw_int(&w, "heads", c->heads);
    jw_int(&w, "kv_heads", c->kv_heads);
    jw_int(&w, "d_model", c->d_model);
    jw_int(&w, "vocab", c->vocab);
    jw_int(&w, "context", c->context);
    jw_int(&w, "params", model_params(m));
    jw_close(&w, '}');
    jw_newline(&w);
    jw_inline(&w, "tokens");
    for (int i = 0; i < n; i++) {
        jw_object(&w, NULL);
        jw_int(&w, "id", ids[i]);
        jw_str(&w, "text", token_text(v, ids[i]));
        jw_close(&w, '}');
    }
    jw_close(&w, ']');
    jw_newline(&w);
    jw_array(&w, "heads");
    for (int l = 0; l < c->layers; l++)
        for (int h = 0; h < c->heads; h++) {
            double score;
            const char *kind = model_head_kind(&hs[l * c->heads + h], &score);
            jw_object(&w, NULL);
            jw_int(&w, "layer", l + 1);
            jw_int(&w, "head", h + 1);
            jw_str(&w, "kind", kind);
            jw_num(&w, "score", score, 4);
            jw_close(&w, '}');
        }
    jw_close(&w, ']');
    /* the next token: softmax of the logits, the top k */
    double mx = run->logits[0], sum = 0;
    for (int i = 1; i < c->vocab; i++)
        mx = run->logits[i] > mx ? run->logits[i] : mx;
    for (int i = 0; i < c->vocab; i++)
        sum += exp(run->logits[i] - mx);
    int *best = malloc((size_t)k * sizeof *best);
    jw_newline(&w);
    jw_array(&w, "next");
    if (best) {
        top_k(run->logits, c->vocab, k, best);
        for (int j = 0; j < k; j++) {
            jw_object(&w, NULL);
            jw_int(&w, "id", best[j]);
            jw_str(&w, "text", token_text(v, best[j]));
            jw_num(&w, "logit", run->logits[best[j]], -1);
            jw_num(&w, "p", exp(run->logits[best[j]] - mx) / sum, -1);
            jw_close(&w, '}');
        }
    }
    free(best);
    jw_close(&w, ']');
    jw_end(&w);
}

static void print_plain(const Model *m, const Vocab *v, const int *ids, int n, const ModelRun *run,
                        const HeadScores *hs, int k)
{
    const ModelConfig *c = model_config(m);
    char shown[400];
    printf("%s: %d layers x %d heads, width %d, vocabulary %d, context %d, %lld parameters\n", c->family, c->layers,
           c->heads, c->d_model, c->vocab, c->context, (long long)model_params(m));
    printf("%d tokens:", n);
    for (int i = 0; i < n; i++)
        printf(" %d%s%s%s", ids[i], token_text(v, ids[i]) ? "=\"" : "",
               token_text(v, ids[i]) ? lesson_escape(token_text(v, ids[i]), shown, sizeof shown) : "",
               token_text(v, ids[i]) ? "\"" : "");
    printf("\n\nlayer head  kind            score\n");
    for (int l = 0; l < c->layers; l++)
        for (int h = 0; h < c->heads; h++) {
            double score;
            const char *kind = model_head_kind(&hs[l * c->heads + h], &score);
            printf("%5d %4d  %-15s %.4f\n", l + 1, h + 1, kind, score);
        }
    int *best = malloc((size_t)k * sizeof *best);
    if (!best)
        return;
    top_k(run->logits, c->vocab, k, best);
    printf("\nnext token:");
    for (int j = 0; j < k; j++)
        printf(" %d%s%s%s (logit %.4f)", best[j], token_text(v, best[j]) ? "=\"" : "",
               token_text(v, best[j]) ? lesson_escape(token_text(v, best[j]), shown, sizeof shown) : "",
               token_text(v, best[j]) ? "\"" : "", run->logits[best[j]]);
    printf("\n");
    free(best);
}

/* words as the model's tokens: the byte-level BPE of dir's tokenizer.json,
 * or of its vocab.json and merges.txt. 0 with ids[0..*n), or 2 having said
 * why. */
static int tokenize(const char *dir, int vocab_size, const char *words, int *ids, int *n)
{
    char *first = NULL, *merges = NULL;
    size_t flen, mlen = 0;
    int json = model_dir_has(dir, "tokenizer.json");
    int status = model_dir_read(dir, json ? "tokenizer.json" : "vocab.json", VOCAB_MAX_BYTES, &first, &flen);
    if (!status && !json)
        status = model_dir_read(dir, "merges.txt", VOCAB_MAX_BYTES, &merges, &mlen);
    AttnError err = { 0 };
    Bpe *b = status ? NULL : json ? bpe_open_json(first, vocab_size, &err) : bpe_open(first, merges, mlen, vocab_size, &err);
    if (!status && !b) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir,
                 json ? "tokenizer.json" : strstr(err.msg, "merges.txt") ? "merges.txt" : "vocab.json");
        status = model_dir_unreadable(path, err.msg);
    }
    if (b && (*n = bpe_encode(b, words, strlen(words), ids, TOKENS_MAX, &err)) < 1)
        status = *n == 0 ? model_usage("the text is empty") : model_usage(err.msg);
    bpe_free(b);
    free(first);
    free(merges);
    return status;
}

int cli_model(int argc, char **argv)
{
    const char *dir = NULL, *tokens = NULL, *words = NULL, *att_out = NULL;
    int json = 0, k = 5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--tokens") == 0 && i + 1 < argc)
            tokens = argv[++i];
        else if (strcmp(argv[i], "--text") == 0 && i + 1 < argc)
            words = argv[++i];
        else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 1000)
                return model_usage("--top takes a number from 1 to 1000");
            k = (int)v;
        } else if (strcmp(argv[i], "--attention-out") == 0 && i + 1 < argc)
            att_out = argv[++i];
        else if (argv[i][0] == '-')
            return model_usage("unknown option, or an option without its value");
        else if (dir)
            return model_usage("one model directory only");
        else
            dir = argv[i];
    }
    if (!dir)
        return model_usage("which model? give its directory (config.json, model.safetensors)");
    if (!tokens == !words)
        return model_usage("give the text (--text TEXT) or its tokens (--tokens ID,ID,...), one of them");
    static int ids[TOKENS_MAX];
    int n = tokens ? parse_tokens(tokens, ids, TOKENS_MAX) : 0;
    if (tokens && n < 1)
        return model_usage("--tokens takes ids separated by commas: --tokens 464,3290,318");
    ModelDir md;
    int status = model_dir_config(dir, &md);
    if (!status && words)
        status = tokenize(dir, md.cfg.vocab, words, ids, &n);
    if (!status)
        status = model_dir_weights(dir, &md);
    if (status) {
        model_dir_close(&md);
        return status;
    }
    char path[4200], why[1024];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    const ModelConfig cfg = md.cfg;
    const Model *m = md.model;
    AttnError err = { 0 };
    Vocab v = { 0 };
    ModelRun run = { 0 };
    HeadScores *hs = NULL;
    if ((status = vocab_load(dir, cfg.vocab, &v)) != 0)
        ;
    else if (model_forward(m, ids, n, &run, &err) != ATTN_OK)
        status = model_usage(err.msg);
    else if (!(hs = calloc((size_t)cfg.layers * cfg.heads, sizeof *hs))
             || model_head_scores(m, &run, INDUCTION_REP, INDUCTION_SEED, hs, &err) != ATTN_OK)
        status = model_dir_unreadable(path, hs ? err.msg : "out of memory");
    else if (att_out && write_attention(att_out, &run, why, sizeof why) != 0)
        status = model_dir_unreadable(att_out, why);
    else if (json)
        print_json(m, &v, ids, n, &run, hs, k < cfg.vocab ? k : cfg.vocab);
    else
        print_plain(m, &v, ids, n, &run, hs, k < cfg.vocab ? k : cfg.vocab);
    free(hs);
    model_run_free(&run);
    vocab_free(&v);
    model_dir_close(&md);
    if (status == 0 && fflush(stdout) != 0)
        status = 2;
    return status;
}
