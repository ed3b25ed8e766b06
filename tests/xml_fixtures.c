/*
 * xml_fixtures.c - the tests' small XML reader (xml_fixtures.h).
 */
#include "xml_fixtures.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int x_fail(Xml *x, const char *what)
{
    snprintf(x->err, sizeof x->err, "%s at '%.40s'", what, x->p);
    return 0;
}

/* Character data (or an attribute's value) up to stop, its entities read,
 * into out (NULL: dropped). */
static int x_chars(Xml *x, char stop, char *out, size_t size)
{
    static const char *const ents[][2] = { { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" },
                                           { "&apos;", "'" } };
    size_t len = out ? strlen(out) : 0;
    while (*x->p && *x->p != stop) {
        unsigned char c = (unsigned char)*x->p;
        const char *add = NULL;
        char one[2] = { (char)c, 0 };
        if (c == '<')
            return x_fail(x, "'<' in text or an attribute");
        if (c < 0x20 && c != '\n' && c != '\t')
            return x_fail(x, "a control byte");
        if (c == '&') {
            size_t k;
            for (k = 0; k < 5 && strncmp(x->p, ents[k][0], strlen(ents[k][0])) != 0; k++)
                ;
            if (k == 5)
                return x_fail(x, "an unknown entity");
            add = ents[k][1];
            x->p += strlen(ents[k][0]);
        } else {
            add = one;
            x->p++;
        }
        if (out && len + strlen(add) < size) {
            memcpy(out + len, add, strlen(add) + 1);
            len += strlen(add);
        }
    }
    return *x->p == stop || (stop == '<' && !*x->p) ? 1 : x_fail(x, "unterminated");
}

static int x_name(Xml *x, char *name, size_t size)
{
    size_t n = strspn(x->p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-:0123456789");
    if (n == 0 || n >= size)
        return x_fail(x, "a bad name");
    memcpy(name, x->p, n);
    name[n] = '\0';
    x->p += n;
    return 1;
}

/* Skip a comment or a processing instruction at x->p, if one is there. */
static int x_skip(Xml *x, int *skipped)
{
    const char *ends[][2] = { { "<!--", "-->" }, { "<?", "?>" } };
    *skipped = 0;
    for (int k = 0; k < 2; k++)
        if (strncmp(x->p, ends[k][0], strlen(ends[k][0])) == 0) {
            const char *e = strstr(x->p + strlen(ends[k][0]), ends[k][1]);
            if (!e)
                return x_fail(x, "an unclosed comment");
            if (k == 0 && strstr(x->p + 4, "--") != e)
                return x_fail(x, "\"--\" in a comment");
            x->p = e + strlen(ends[k][1]);
            *skipped = 1;
        }
    return 1;
}

int xml_read(Xml *x, const char *text)
{
    memset(x, 0, sizeof *x);
    x->p = text;
    int seen_root = 0;
    while (*x->p) {
        int skipped;
        if (!x_skip(x, &skipped))
            return 0;
        if (skipped)
            continue;
        if (*x->p != '<') {     /* text: inside an element, or blanks */
            char *into = x->depth ? x->el[x->open_el[x->depth - 1]].text : NULL;
            const char *from = x->p;
            if (!x_chars(x, '<', into, into ? sizeof x->el[0].text : 0))
                return 0;
            if (!x->depth && from[strspn(from, " \n\t")] != '<' && from[strspn(from, " \n\t")])
                return x_fail(x, "text outside the root");
            continue;
        }
        if (x->p[1] == '/') {
            char name[16];
            x->p += 2;
            if (!x_name(x, name, sizeof name) || *x->p != '>')
                return x_fail(x, "a bad closing tag");
            if (!x->depth || strcmp(name, x->open[x->depth - 1]) != 0)
                return x_fail(x, "a closing tag that does not match");
            x->depth--;
            x->p++;
            continue;
        }
        if (!x->depth && seen_root)
            return x_fail(x, "a second root element");
        seen_root = 1;
        if (x->n == x->cap) {
            x->cap = x->cap ? 2 * x->cap : 256;
            x->el = realloc(x->el, (size_t)x->cap * sizeof *x->el);
            ck_assert_ptr_nonnull(x->el);
        }
        XEl *e = &x->el[x->n++];
        memset(e, 0, sizeof *e);
        x->p++;
        if (!x_name(x, e->name, sizeof e->name))
            return 0;
        for (;;) {
            x->p += strspn(x->p, " \n\t");
            if (strncmp(x->p, "/>", 2) == 0 || *x->p == '>')
                break;
            if (e->n_attr == XML_ATTRS_MAX)
                return x_fail(x, "too many attributes for this reader");
            char *an = e->attr[e->n_attr][0], *av = e->attr[e->n_attr][1];
            if (!x_name(x, an, sizeof e->attr[0][0]) || strncmp(x->p, "=\"", 2) != 0)
                return x_fail(x, "a bad attribute");
            for (int k = 0; k < e->n_attr; k++)
                if (strcmp(e->attr[k][0], an) == 0)
                    return x_fail(x, "an attribute given twice");
            x->p += 2;
            av[0] = '\0';
            if (!x_chars(x, '"', av, sizeof e->attr[0][1]))
                return 0;
            x->p++;
            e->n_attr++;
        }
        if (*x->p == '>') {
            if (x->depth == 64)
                return x_fail(x, "too deep");
            x->open_el[x->depth] = x->n - 1;
            snprintf(x->open[x->depth++], sizeof x->open[0], "%s", e->name);
            x->p++;
        } else {
            x->p += 2;
        }
    }
    if (x->depth || !seen_root)
        return x_fail(x, "an element left open, or none");
    return 1;
}

const char *xml_attr(const XEl *e, const char *name)
{
    for (int k = 0; k < e->n_attr; k++)
        if (strcmp(e->attr[k][0], name) == 0)
            return e->attr[k][1];
    return NULL;
}

void xml_free(Xml *x)
{
    free(x->el);
    memset(x, 0, sizeof *x);
}

int xml_count(const Xml *x, const char *name)
{
    int n = 0;
    for (int i = 0; i < x->n; i++)
        n += strcmp(x->el[i].name, name) == 0;
    return n;
}

void xml_expect_file(const char *path, Xml *x)
{
    char *text = slurp(path);
    ck_assert_msg(text != NULL, "%s was not written", path);
    ck_assert_msg(xml_read(x, text), "%s: %s\n%s", path, x->err, text);
    free(text);
    CmdResult r = cmd_run("command -v xmllint");
    int have = r.status == 0;
    cmd_free(&r);
    if (!have)
        return;
    r = cmd_runf("xmllint --noout %s", path);
    ck_assert_msg(r.status == 0, "xmllint %s: %s", path, r.err);
    cmd_free(&r);
}
