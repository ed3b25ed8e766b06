/*
 * lesson_lex.c - the tokens of the lesson language's expressions: numbers,
 * names, operator symbols, strings in double quotes (the file name of
 * load("weights.npy"): one line, no escapes) and line ends. Blanks (space, tab, the CR of a
 * CRLF, a backslash that ends a line with its line end) and `#` comments
 * are skipped. Prose (titles, text blocks, hints) is never tokenised: the
 * directive parser takes it as it stands.
 */
#include "lesson_tree.h"
#include "numfmt.h"

#include <ctype.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

static int is_name_start(int c) { return isalpha(c) || c == '_'; }
static int is_name_char(int c) { return isalnum(c) || c == '_'; }

int lex_tok_is(const Src *s, const Token *t, const char *word)
{
    size_t n = strlen(word);
    return t->kind == T_NAME && t->len == n && memcmp(s->text + t->pos, word, n) == 0;
}

static int lex_number(Lexer *lx, Token *t)
{
    const char *s = lx->src->text;
    size_t p = lx->pos, end = lx->src->len;
    while (p < end && (isdigit((unsigned char)s[p]) || s[p] == '.'))
        p++;
    if (p < end && (s[p] == 'e' || s[p] == 'E')) {
        size_t q = p + 1;
        if (q < end && (s[q] == '+' || s[q] == '-'))
            q++;
        if (q < end && isdigit((unsigned char)s[q]))
            for (p = q; p < end && isdigit((unsigned char)s[p]); p++)
                ;
    }
    /* letters or points glued on make it a bad number, reported whole */
    while (p < end && (is_name_char((unsigned char)s[p]) || s[p] == '.'))
        p++;
    size_t n = p - lx->pos;
    char buf[64];
    t->kind = T_NUM;
    t->pos = lx->pos;
    t->len = n;
    if (n >= sizeof buf)
        return src_error(lx->src, lx->err, ATTN_E_SYNTAX, lx->pos, "bad number '%.20s...'", s + lx->pos);
    memcpy(buf, s + lx->pos, n);
    buf[n] = '\0';
    char *stop;
    double v = strtod(buf, &stop);
    /* strtod would also take hex spellings: numbers here are decimal */
    if (*stop != '\0' || strspn(buf, "0123456789.eE+-") != n)
        return src_error(lx->src, lx->err, ATTN_E_SYNTAX, lx->pos, "bad number '%s'", buf);
    if (!num_fits_float(v))
        return src_error(lx->src, lx->err, ATTN_E_SYNTAX, lx->pos,
                         "the number '%s' is too large for a float (the largest is about 3.4e38)", buf);
    t->num = v;
    lx->pos = p;
    return 0;
}

int lex_next(Lexer *lx, Token *t)
{
    const char *s = lx->src->text;
    size_t end = lx->src->len;
    for (;;) {
        size_t j;
        for (; lx->pos < end; lx->pos += j) {
            char c = s[lx->pos];
            j = c == ' ' || c == '\t' || c == '\r' ? 1 : src_joint(s, lx->pos, end);
            if (j == 0)
                break;
        }
        if (lx->pos < end && s[lx->pos] == '#') {
            /* a comment runs to the line end; a joint carries it on */
            while (lx->pos < end && s[lx->pos] != '\n')
                lx->pos += (j = src_joint(s, lx->pos, end)) > 0 ? j : 1;
            continue;
        }
        break;
    }
    memset(t, 0, sizeof *t);
    t->pos = lx->pos;
    if (lx->pos >= end) {
        t->kind = T_EOF;
        return 0;
    }
    unsigned char c = (unsigned char)s[lx->pos];
    if (c == '\n') {
        t->kind = T_NEWLINE;
        t->len = 1;
        lx->pos++;
        return 0;
    }
    if (isdigit(c) || (c == '.' && lx->pos + 1 < end && isdigit((unsigned char)s[lx->pos + 1])))
        return lex_number(lx, t);
    if (is_name_start(c)) {
        size_t p = lx->pos;
        while (p < end && is_name_char((unsigned char)s[p]))
            p++;
        t->kind = T_NAME;
        t->len = p - lx->pos;
        lx->pos = p;
        return 0;
    }
    if (c == '"') {
        const char *close = memchr(s + lx->pos + 1, '"', end - lx->pos - 1);
        const char *nl = memchr(s + lx->pos + 1, '\n', end - lx->pos - 1);
        if (!close || (nl && nl < close))
            return src_error(lx->src, lx->err, ATTN_E_SYNTAX, lx->pos,
                             "this string is never closed (a '\"' is missing on its line)");
        t->kind = T_STR;
        t->len = (size_t)(close - (s + lx->pos)) + 1;
        lx->pos += t->len;
        return 0;
    }
    if (strchr("@+-*/^()[],;=:", c) && c != '\0') {
        t->kind = T_SYM;
        t->sym = (char)c;
        t->len = 1;
        lx->pos++;
        return 0;
    }
    size_t n = 1;
    while (lx->pos + n < end && ((unsigned char)s[lx->pos + n] & 0xC0) == 0x80)
        n++;
    return src_error(lx->src, lx->err, ATTN_E_SYNTAX, lx->pos, "unexpected character '%.*s'",
                     (int)n, s + lx->pos);
}
