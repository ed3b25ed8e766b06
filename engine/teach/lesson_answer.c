/*
 * lesson_answer.c - reading what a student typed as an answer: a number, or
 * arithmetic on numbers (+ - * / and parentheses, the functions the lessons
 * write, sqrt exp log cos sin, the constant e), never a name of the lesson,
 * so an exercise is answered by
 * working it out, not by naming the cell. Each kind of bad input has its
 * own message; see lesson_read_answer in lesson.h.
 */
#include "teach.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"


typedef struct {
    const char *s;
    size_t pos;
    int depth;
    char *why;
    size_t size;
    int failed;
} Reader;

/* Why the answer is refused; arg, a piece of what was typed, quoted with
 * every byte a terminal could act on escaped (utf8_escape): the message
 * reaches screens, sheets' reports and the class as the engine made it. */
static double refuse(Reader *r, const char *fmt, const char *arg)
{
    if (!r->failed) {
        char quoted[256];
        snprintf(r->why, r->size, fmt, utf8_escape(arg, quoted, sizeof quoted, 1));
    }
    r->failed = 1;
    return 0;
}

static void skip(Reader *r)
{
    while (r->s[r->pos] == ' ' || r->s[r->pos] == '\t')
        r->pos++;
}

static double sum(Reader *r);

/* One level deeper (a sign, a parenthesis, a function's argument): 0, or
 * -1 past the one limit of every reader (nest.h). */
static int deeper(Reader *r)
{
    if (++r->depth <= ATTN_NEST_MAX)
        return 0;
    if (!r->failed)
        snprintf(r->why, r->size, "the answer nests deeper than the limit of %d", ATTN_NEST_MAX);
    r->failed = 1;
    return -1;
}

/* The functions an answer may use: those the lessons' hints write (cos and
 * sin of RoPE's angles in radians). */
static const struct {
    const char *name;
    double (*fn)(double);
} functions[] = { { "sqrt", sqrt }, { "exp", exp }, { "log", log }, { "cos", cos }, { "sin", sin } };

/* A word: a function (sqrt exp log cos sin), the constant e, or a name,
 * which is not an answer. */
static double word(Reader *r)
{
    size_t a = r->pos;
    while (isalnum((unsigned char)r->s[r->pos]) || r->s[r->pos] == '_')
        r->pos++;
    char w[48];
    snprintf(w, sizeof w, "%.*s", (int)(r->pos - a < 40 ? r->pos - a : 40), r->s + a);
    if (strcmp(w, "e") == 0)
        return exp(1.0);
    if (strcmp(w, "nan") == 0)
        return refuse(r, "%s", "'nan' is not an answer: every exercise has a number for its answer");
    if (strcmp(w, "inf") == 0)
        return INFINITY;
    int fn = -1;
    for (int i = 0; i < (int)(sizeof functions / sizeof *functions); i++)
        if (strcmp(w, functions[i].name) == 0)
            fn = i;
    skip(r);
    if (fn < 0) {
        if (r->s[r->pos] == '[')
            return refuse(r, "type the number itself: '%s[...]' names a cell of the lesson; work out its value", w);
        return refuse(r, "type the number itself: '%s' is a name, and an answer is a number (arithmetic like "
                         "0.5*2 + 1 is fine)", w);
    }
    if (r->s[r->pos] != '(')
        return refuse(r, "'%s' needs its argument in parentheses, e.g. sqrt(2)", w);
    r->pos++;
    if (deeper(r))
        return NAN;
    double x = sum(r);
    r->depth--;
    skip(r);
    if (r->s[r->pos] != ')')
        return refuse(r, "%s", "a ')' is missing");
    r->pos++;
    return functions[fn].fn(x);
}

static double atom(Reader *r)
{
    skip(r);
    char c = r->s[r->pos];
    if (c == '-' || c == '+') {
        r->pos++;
        if (deeper(r))
            return NAN;
        double x = atom(r);
        r->depth--;
        return c == '-' ? -x : x;
    }
    if (c == '(') {
        r->pos++;
        if (deeper(r))
            return NAN;
        double x = sum(r);
        r->depth--;
        skip(r);
        if (r->s[r->pos] != ')')
            return refuse(r, "%s", "a ')' is missing");
        r->pos++;
        return x;
    }
    if (isdigit((unsigned char)c) || c == '.') {
        char *end;
        double x = strtod(r->s + r->pos, &end);
        if (end == r->s + r->pos)
            return refuse(r, "'%s' is not a number", r->s + r->pos);
        if (isinf(x))
            return refuse(r, "%s", "that number is too large for a float; no exercise asks for it");
        r->pos = (size_t)(end - r->s);
        return x;
    }
    if (isalpha((unsigned char)c) || c == '_')
        return word(r);
    if (c == '\0')
        return refuse(r, "%s", "a number is missing at the end");
    char ch[8];
    snprintf(ch, sizeof ch, "%c", c);
    return refuse(r, "'%s' cannot be in an answer: use digits, + - * / ( ), sqrt exp log cos sin and e", ch);
}

static double product(Reader *r)
{
    double x = atom(r);
    for (;;) {
        skip(r);
        char c = r->s[r->pos];
        if (c != '*' && c != '/')
            return x;
        r->pos++;
        double y = atom(r);
        x = c == '*' ? x * y : x / y;
    }
}

static double sum(Reader *r)
{
    double x = product(r);
    for (;;) {
        skip(r);
        char c = r->s[r->pos];
        if (c != '+' && c != '-')
            return x;
        r->pos++;
        double y = product(r);
        x = c == '+' ? x + y : x - y;
    }
}

int lesson_read_answer(const char *text, double *out, char *why, size_t size)
{
    Reader r = { text, 0, 0, why, size, 0 };
    skip(&r);
    if (text[r.pos] == '\0') {
        snprintf(why, size, "type a number first (or Esc to leave the answer)");
        return -1;
    }
    double x = sum(&r);
    skip(&r);
    if (!r.failed && text[r.pos] != '\0') {
        char c = text[r.pos];
        char ch[2] = { c, '\0' };
        if (c == ')')
            refuse(&r, "%s", "a ')' has no '(' to close");
        else if (!isalnum((unsigned char)c) && c != '.' && c != '_' && !((unsigned char)c & 0x80))
            refuse(&r, "'%s' cannot be in an answer: use digits, + - * / ( ), sqrt exp log cos sin and e", ch);
        else
            refuse(&r, "'%s' does not belong after the number", text + r.pos);
    }
    if (!r.failed && isnan(x))
        refuse(&r, "%s", "that arithmetic has no value (0/0, log of a negative number, ...)");
    if (r.failed)
        return -1;
    *out = x;
    return 0;
}
