/*
 * bpe_regex.c - a tokenizer file's pattern compiled by PCRE2 to mean what
 * it means to Oniguruma, the engine the Rust tokenizers compile it with
 * (bpe_internal.h's bpe_regex_compile). The two agree on the letters,
 * numbers, marks and punctuation of \p{..}, on groups, lookarounds and
 * case folding; they part on a few escapes, which are written out here as
 * the classes Oniguruma means by them:
 *
 *   \s  U+0009-U+000D, U+0085 and the separators (Zs, Zl, Zp): PCRE2's
 *       also takes U+180E, the Mongolian vowel separator, so `\s+(?!\S)`
 *       swallowed " \u180e" whole where the reference cuts it
 *   \h  a hex digit (PCRE2: horizontal space), \v the vertical tab alone
 *       (PCRE2: vertical space), \w letters, marks, decimal digits and
 *       connector punctuation, \d the decimal digits
 *   ^ $ at every line, as Oniguruma's syntax has them
 *   \uHHHH a code point (PCRE2 writes it \x{HHHH})
 *
 * A negated class escape inside brackets ([\S...]), a nested class or an
 * intersection (&&) has no plain PCRE2 spelling: refused by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe_internal.h"
#include "strbuf.h"

/* Oniguruma's white space, its word characters, as class members. */
#define ONIG_SPACE "\\t-\\r\\x{85}\\p{Zs}\\p{Zl}\\p{Zp}"
#define ONIG_WORD "\\p{L}\\p{M}\\p{Nd}\\p{Pc}"

const char bpe_gpt2_pattern[] = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

void bpe_regex_quote(const char *s, char *out)
{
    size_t k = 0;
    for (; *s; s++) {
        if (strchr("\\^$.|?*+()[]{}-#", *s))
            out[k++] = '\\';
        out[k++] = *s;
    }
    out[k] = '\0';
}

/* The escape at p[0] = '\\' (p[1] its letter), inside a class or not, onto
 * out: how many bytes of p it took, or 0 when it has no translation. */
static size_t escape(const char *p, int in_class, StrBuf *out)
{
    char c = p[1];
    const char *class_of = c == 's' ? ONIG_SPACE : c == 'w' ? ONIG_WORD : c == 'h' ? "0-9a-fA-F" : NULL;
    if (class_of) {
        strbuf_add(out, in_class ? "%s" : "[%s]", class_of);
        return 2;
    }
    if (c == 'S' || c == 'W' || c == 'H') {
        if (in_class)
            return 0;
        strbuf_add(out, "[^%s]", c == 'S' ? ONIG_SPACE : c == 'W' ? ONIG_WORD : "0-9a-fA-F");
        return 2;
    }
    if (c == 'd' || c == 'D') {
        strbuf_add(out, "\\%c{Nd}", c == 'd' ? 'p' : 'P');
        return 2;
    }
    if (c == 'v') {
        strbuf_add(out, "\\x0b");
        return 2;
    }
    if (c == 'u' && strspn(p + 2, "0123456789abcdefABCDEF") >= 4) {
        strbuf_add(out, "\\x{%.4s}", p + 2);
        return 6;
    }
    if (c == 'b' || c == 'B') {
        /* a word boundary by Oniguruma's word characters */
        if (in_class)
            return 0;
#define W "[" ONIG_WORD "]"
        strbuf_add(out, "%s", c == 'b' ? "(?:(?<=" W ")(?!" W ")|(?<!" W ")(?=" W "))"
                                       : "(?:(?<=" W ")(?=" W ")|(?<!" W ")(?!" W "))");
#undef W
        return 2;
    }
    if (!c)
        return 0;
    /* anything else as written: the escape and its letter (a \p{..} or
     * \x{..} follows on as plain text) */
    strbuf_add(out, "\\%c", c);
    return 2;
}

/* The translation of pattern into out: 0, or -1 with why. */
static int translate(const char *pattern, StrBuf *out, char *why, size_t size)
{
    int in_class = 0;
    for (const char *p = pattern; *p;) {
        if (p[0] == '\\' && p[1] == 'Q') {
            /* a quoted stretch, to its \E, as written */
            const char *end = strstr(p + 2, "\\E");
            size_t n = end ? (size_t)(end - p) + 2 : strlen(p);
            strbuf_add(out, "%.*s", (int)n, p);
            p += n;
        } else if (p[0] == '\\') {
            size_t n = escape(p, in_class, out);
            if (n == 0) {
                snprintf(why, size, "\\%c inside a class (at byte %zu) has no PCRE2 spelling", p[1] ? p[1] : ' ',
                         (size_t)(p - pattern) + 1);
                return -1;
            }
            p += n;
        } else if (in_class && p[0] == '[' && p[1] == ':') {
            const char *end = strstr(p, ":]");
            size_t n = end ? (size_t)(end - p) + 2 : strlen(p);
            strbuf_add(out, "%.*s", (int)n, p);
            p += n;
        } else if (in_class && (p[0] == '[' || (p[0] == '&' && p[1] == '&'))) {
            snprintf(why, size, "a nested class or an intersection (at byte %zu) is not read",
                     (size_t)(p - pattern) + 1);
            return -1;
        } else if (!in_class && p[0] == '[') {
            /* a class: its first ']' (after a '^') is a member */
            in_class = 1;
            size_t n = 1 + (p[1] == '^');
            if (p[n] == ']')
                n++;
            strbuf_add(out, "%.*s", (int)n, p);
            p += n;
        } else {
            if (in_class && p[0] == ']')
                in_class = 0;
            strbuf_add(out, "%c", p[0]);
            p++;
        }
    }
    return 0;
}

pcre2_code *bpe_regex_compile(const char *pattern, AttnError *err)
{
    StrBuf out = { 0 };
    char why[160];
    if (translate(pattern, &out, why, sizeof why) != 0) {
        strbuf_free(&out);
        attn_fail(err, ATTN_E_ARG, "the pre-tokenizer's pattern: %s", why);
        return NULL;
    }
    char *text = strbuf_take(&out);
    if (!text) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    int code;
    PCRE2_SIZE off;
    /* no MATCH_INVALID_UTF (it has PCRE2's interpreter scan the rest of
     * the subject at every match: 400 KB took 41 s) and no JIT (valgrind
     * cannot follow it): the interpreter on text checked once is linear,
     * 400 KB of Shakespeare by GPT-2's pattern in 38 ms */
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)text, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP | PCRE2_MULTILINE,
                                   &code, &off, NULL);
    free(text);
    if (!re) {
        PCRE2_UCHAR msg[120];
        pcre2_get_error_message(code, msg, sizeof msg);
        attn_fail(err, ATTN_E_ARG, "the pre-tokenizer's pattern does not compile: %s", (const char *)msg);
        return NULL;
    }
    return re;
}
