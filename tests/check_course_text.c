/*
 * check_course_text.c - what the course's second part (lessons 10-15)
 * says is true: each sentence a careful reader found false or imprecise
 * stays corrected (the old words gone, the corrected claim there), lesson
 * 10 names the fused path's real panel of queries and tile of keys (the
 * engine's KG_NR and ATTN_KEY_TILE),
 * and lesson 10's demonstration happens as its text says: with the switch
 * swap on alpha is 1 at every b, off it never is.
 */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention_internal.h"
#include "lesson.h"
#include "lesson_fixtures.h"
#include "testutil.h"

/* The lesson file's text with every run of white space made one space, so
 * a sentence is found wherever the prose wraps it. Caller frees. */
static char *flat_text(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", lessons_dir(), file);
    char *raw = slurp(path);
    ck_assert_msg(raw != NULL, "cannot read %s", path);
    char *out = raw, *w = raw;
    int space = 0;
    for (const char *r = raw; *r; r++) {
        if (isspace((unsigned char)*r)) {
            space = 1;
            continue;
        }
        if (space && w > raw)
            *w++ = ' ';
        space = 0;
        *w++ = *r;
    }
    *w = '\0';
    return out;
}

typedef struct {
    const char *file;
    const char *gone;       /* the false or imprecise words                 */
    const char *there;      /* the corrected claim                          */
} Correction;

static const Correction corrections[] = {
    /* 1: the fused path did not tile keys; since #35 it does, as the lesson teaches */
    { "10-online-softmax.lesson", "works this way on tiles of keys", "does exactly this" },
    { "10-online-softmax.lesson", "does not tile the keys yet", "rescaling its output by alpha whenever a max grows" },
    /* 2: the work stays n^2 d; tiling saves memory and traffic */
    { "10-online-softmax.lesson", "made lesson 1's cost grow as n^2", "n^2 d multiply-adds however it is arranged" },
    /* 3: b never makes alpha 1 */
    { "10-online-softmax.lesson", "move the knob b to 0 and watch alpha", "Turn the switch swap on" },
    { "10-online-softmax.lesson", "and with it which tile holds the largest score", "the switch swap sends the keys" },
    /* 13: the output asked on the last step was O[1,2] of the first */
    { "10-online-softmax.lesson", "What is O_online[1,2], the output's second value?",
      "How much of O_online[1,2] comes from the first tile" },
    /* 4: without a cache the whole forward pass runs again; A V costs t d too */
    { "11-kv-cache.lesson", "(and as much again for every layer)", "runs the whole model again over all t tokens" },
    { "11-kv-cache.lesson", "The scores still cost t d: the new query", "mix every cached value (t d again)" },
    /* 5: memory is one limit among several */
    { "11-kv-cache.lesson", "not arithmetic, is what limits", "the length it was trained on" },
    /* 6: MQA, and copies that depend on the implementation */
    { "12-grouped-query.lesson", "never repeated in memory", "up to the implementation" },
    { "12-grouped-query.lesson", "repeat_heads(K1, 2, 4)", "a single key/value head shared by every query head" },
    /* 7: the window's two conventions */
    { "14-masks.lesson", "that is w + 1 tokens: the window holds", "as Mistral's paper counts it" },
    { "14-masks.lesson", "(1/2, 1/4, 1/8, ... across heads)", "head k gets 2^(-8k/n)" },
    /* 9: the skipped scores are computed */
    { "14-masks.lesson", "the others cost nothing once a kernel skips them", "every score must be computed" },
    /* 10: the rowsum term is in proportion to the weights; cancellation */
    { "15-gradients.lesson", "which the softmax ignores", "in proportion to the weights themselves" },
    { "15-gradients.lesson", "A value that many queries read collects a large gradient", "small when they cancel" },
};

START_TEST(every_corrected_sentence_stays_corrected)
{
    for (size_t i = 0; i < sizeof corrections / sizeof *corrections; i++) {
        const Correction *c = &corrections[i];
        char *text = flat_text(c->file);
        ck_assert_msg(!strstr(text, c->gone), "%s still says \"%s\"", c->file, c->gone);
        ck_assert_msg(strstr(text, c->there) != NULL, "%s does not say \"%s\"", c->file, c->there);
        free(text);
    }
}
END_TEST

/* Lesson 10 names the panel of queries and the tile of keys the fused
 * path works on, the engine's own numbers. */
START_TEST(lesson_10_names_the_engines_block)
{
    char *text = flat_text("10-online-softmax.lesson");
    char want[96];
    snprintf(want, sizeof want, "takes the queries %d at a time and the keys in tiles of %d", KG_NR, ATTN_KEY_TILE);
    ck_assert_msg(strstr(text, want) != NULL, "lesson 10 does not say \"%s\"", want);
    snprintf(want, sizeof want, "(%d x %d numbers)", ATTN_KEY_TILE, KG_NR);
    ck_assert_msg(strstr(text, want) != NULL, "lesson 10 does not say \"%s\"", want);
    snprintf(want, sizeof want, "in attn's tiles of %d", ATTN_KEY_TILE);
    ck_assert_msg(strstr(text, want) != NULL, "lesson 10 does not say \"%s\"", want);
    free(text);
}
END_TEST

/* alpha of lesson 10 with the knob b and the switch swap set. */
static double alpha_at(const Lesson *l, double b, int swap)
{
    LessonEdit e[2] = { { .name = "b", .value = (float)b }, { .name = "swap", .value = (float)swap } };
    LessonError err;
    LessonState *s = lesson_eval(l, e, 2, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    const Mat *a = lesson_get(s, "alpha");
    double v = mat_get(a, 0, 0);
    const Mat *o = lesson_get(s, "O_online"), *want = lesson_get(s, "O");
    for (int j = 0; j < 2; j++)
        ck_assert_msg(fabs(mat_get(o, 0, j) - mat_get(want, 0, j)) < 1e-5, "the order changed O at b = %g", b);
    lesson_state_free(s);
    return v;
}

START_TEST(lesson_10_alpha_is_one_when_the_max_does_not_grow)
{
    char path[512];
    snprintf(path, sizeof path, "%s/10-online-softmax.lesson", lessons_dir());
    char *text = slurp(path);
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), path, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    int k = lesson_knob_find(l, "b");
    ck_assert_int_ge(k, 0);
    const LessonKnob *b = lesson_knob(l, k);
    for (double v = b->lo; v <= b->hi + 1e-9; v += b->step) {
        ck_assert_msg(alpha_at(l, v, 0) < 0.99, "alpha is 1 at b = %g with the keys in order", v);
        ck_assert_msg(fabs(alpha_at(l, v, 1) - 1.0) < 1e-7, "alpha is not 1 at b = %g with swap on", v);
    }
    lesson_free(l);
    free(text);
}
END_TEST

Suite *course_text_suite(void)
{
    Suite *s = suite_create("course_text");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, every_corrected_sentence_stays_corrected);
    tcase_add_test(tc, lesson_10_names_the_engines_block);
    tcase_add_test(tc, lesson_10_alpha_is_one_when_the_max_does_not_grow);
    suite_add_tcase(s, tc);
    return s;
}
