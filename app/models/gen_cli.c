/*
 * gen_cli.c - `attn model ... --generate N` for scripts (gen_cli.h): its
 * options read, the tokens generated through the one generator
 * (look_gen.c), and what came out written, as lines or in the --json
 * document.
 */
#include "gen_cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "lesson.h"
#include "numfmt.h"

/* argv[*i] when it is one of --generate's options (its value consumed):
 * 1; 0 when it is not one; -1 with *why when its value is wrong. */
int gen_option(int argc, char **argv, int *i, GenOptions *g, const char **why)
{
    const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    long whole;
    double real;
    if (strcmp(o, "--no-cache") == 0) {
        g->no_cache = 1;
        g->knob = g->knob ? g->knob : o;
        return 1;
    }
    int takes = strcmp(o, "--generate") == 0 || strcmp(o, "--temperature") == 0 || strcmp(o, "--top-k") == 0
                || strcmp(o, "--top-p") == 0 || strcmp(o, "--seed") == 0;
    if (!takes)
        return 0;
    if (!v) {
        *why = "an option without its value";
        return -1;
    }
    ++*i;
    if (strcmp(o, "--generate") == 0) {
        if (num_parse_whole(v, 1, MODEL_MAX_CONTEXT, &whole) != 0)
            return *why = "--generate takes a whole number of tokens, 1 or more, within the model's context", -1;
        g->n = (int)whole;
        return 1;
    }
    g->knob = g->knob ? g->knob : o;
    if (strcmp(o, "--temperature") == 0) {
        if (num_parse_real(v, -1e300, 1e300, &real) != 0 || real < 0 || real > 1e6)
            return *why = "--temperature takes a number from 0 (greedy: the most probable token) to 1000000", -1;
        g->s.temperature = real;
    } else if (strcmp(o, "--top-k") == 0) {
        if (num_parse_whole(v, 0, MODEL_MAX_VOCAB, &whole) != 0)
            return *why = "--top-k takes a whole number from 0 (off) to 1048576", -1;
        g->s.top_k = (int)whole;
    } else if (strcmp(o, "--top-p") == 0) {
        if (num_parse_real(v, -1e300, 1e300, &real) != 0 || !(real > 0 && real <= 1))
            return *why = "--top-p takes a number above 0 and at most 1 (1: off)", -1;
        g->s.top_p = real;
    } else if (num_parse_whole(v, 0, LONG_MAX, &whole) != 0) {
        return *why = "--seed takes a whole number, 0 or more", -1;
    } else {
        g->seed = whole;
    }
    return 1;
}

/* The N tokens generated into *g after lk's text: 0 (a note on stderr
 * when the model's context stopped it), or 2 with the reason said. */
int gen_run(ModelLook *lk, const GenOptions *o, LookGen *g)
{
    char why[1200], shown[2600];
    if (look_gen_start(g, lk, &o->s, (uint64_t)o->seed, !o->no_cache, 0, why, sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        return 2;
    }
    while (g->n < o->n) {
        int got = look_gen_next(g, why, sizeof why);
        if (got < 0) {
            fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
            return 2;
        }
        if (got == 0) {
            fprintf(stderr, "attn: stopped at the model's context of %d tokens: %d of the %d tokens asked for were "
                            "generated\n", lk->md.cfg.context, g->n, o->n);
            break;
        }
    }
    return 0;
}

/* "generated" and "generation" in w. */
void gen_json(JsonWriter *w, const ModelLook *lk, const LookGen *g)
{
    jw_newline(w);
    jw_array(w, "generated");
    for (int j = 0; j < g->n; j++) {
        jw_object(w, NULL);
        jw_int(w, "id", g->ids[j]);
        if (model_look_token(lk, g->ids[j]))
            jw_str_n(w, "text", model_look_token(lk, g->ids[j]), model_look_token_size(lk, g->ids[j]));
        else
            jw_null(w, "text");
        jw_num(w, "p", g->p[j], -1);
        jw_close(w, '}');
    }
    jw_close(w, ']');
    jw_newline(w);
    jw_object(w, "generation");
    jw_num(w, "tokens_per_s", look_gen_rate(g), 1);
    jw_int(w, "cache_bytes", (long long)model_gen_cache_bytes(g->gen));
    jw_bool(w, "cached", model_gen_cached(g->gen));
    jw_close(w, '}');
}

/* The text and then what was generated, as it reads: each line escaped
 * for the terminal, the newlines the model wrote kept. */
int gen_print(const ModelLook *lk, const LookGen *g)
{
    int len = look_gen_len(g);
    const int *ids = look_gen_all(g);
    size_t size = 1;
    for (int i = 0; i < len; i++)
        size += model_look_token(lk, ids[i]) ? model_look_token_size(lk, ids[i]) : 16;
    char *text = malloc(size), *shown = malloc(4 * size + 4);
    if (!text || !shown) {
        free(text), free(shown);
        fprintf(stderr, "attn: out of memory\n");
        return 2;
    }
    size_t k = 0;
    for (int i = 0; i < len; i++) {
        const char *t = model_look_token(lk, ids[i]);
        size_t n = t ? model_look_token_size(lk, ids[i]) : (size_t)snprintf(text + k, 16, "#%d", ids[i]);
        if (t)
            memcpy(text + k, t, n);
        for (size_t j = k; j < k + n; j++)
            text[j] = text[j] ? text[j] : ' ';     /* a NUL byte token */
        k += n;
    }
    text[k] = '\0';
    for (char *line = text;;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        printf("%s\n", term_escape(line, shown, 4 * size + 4));
        if (!end)
            break;
        line = end + 1;
    }
    free(text), free(shown);
    return 0;
}

