/*
 * tui_model_type.c - t on a model: a new text typed as people expect a
 * line to be edited. The old text comes selected, so typing replaces it
 * (an arrow or Home or End keeps it and moves); Backspace and Delete,
 * Ctrl-U (all before the cursor), Ctrl-W (the word before it), Ctrl-A and
 * Ctrl-E; a newline with Alt-Enter, or typed as \n; and as it is typed,
 * its tokens counted against the model's context. And the one way a
 * line of text takes a key (model_text_key), which the patch's second
 * text (tui_model_effect.c) types with too.
 */
#include "tui_model_view.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "minmax.h"
#include "tui_term.h"

#define KEY_ESC 27
#define CTRL(c) ((c) & 0x1f)

/* The tokens the typed text makes (-1: more than the model reads, or no
 * tokenizer). */
static void count_tokens(ModelScreen *m)
{
    int room = m->look.md.cfg.context < MODEL_LOOK_MAX_TOKENS ? m->look.md.cfg.context : MODEL_LOOK_MAX_TOKENS;
    int *ids = malloc((size_t)room * sizeof *ids);
    AttnError err = { 0 };
    m->typed_tokens = ids && m->look.md.bpe ? bpe_encode(m->look.md.bpe, m->typed, strlen(m->typed), ids, room, &err)
                                            : -1;
    free(ids);
}

void model_type_start(ModelScreen *m)
{
    m->typing = 1;
    snprintf(m->typed, sizeof m->typed, "%s", m->text);
    m->typed_at = strlen(m->typed);
    m->typed_all = 1;
    count_tokens(m);
}

/* The start of the character before byte at (UTF-8). */
static size_t char_before(const char *s, size_t at)
{
    if (at == 0)
        return 0;
    at--;
    while (at > 0 && ((unsigned char)s[at] & 0xc0) == 0x80)
        at--;
    return at;
}

static size_t char_after(const char *s, size_t at)
{
    size_t len = strlen(s);
    if (at >= len)
        return len;
    at++;
    while (at < len && ((unsigned char)s[at] & 0xc0) == 0x80)
        at++;
    return at;
}

/* Bytes [from, to) of the typed text taken out, the cursor at from. */
static void cut(ModelScreen *m, size_t from, size_t to)
{
    memmove(m->typed + from, m->typed + to, strlen(m->typed + to) + 1);
    m->typed_at = from;
}

static void insert(ModelScreen *m, const char *bytes, size_t n)
{
    size_t len = strlen(m->typed);
    if (len + n + 1 > sizeof m->typed)
        return;
    memmove(m->typed + m->typed_at + n, m->typed + m->typed_at, len - m->typed_at + 1);
    memcpy(m->typed + m->typed_at, bytes, n);
    m->typed_at += n;
}

/* A typed \n made a newline (Alt-Enter's other way). */
static void newlines(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] == 'n') {
            *w++ = '\n';
            r++;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

int model_type_key(TuiTerm *term, ModelScreen *m, int ch)
{
    (void)term;
    size_t len = strlen(m->typed);
    int alt_enter = 0;
    if (ch == KEY_ESC) {
        /* Alt-Enter comes as Esc and then Enter, at once */
        int delay = wgetdelay(stdscr), next;
        timeout(0);
        next = getch();
        timeout(delay);
        if (next == '\n' || next == '\r' || next == KEY_ENTER)
            alt_enter = 1;
        else if (next != ERR)
            ungetch(next);
        if (!alt_enter) {
            m->typing = 0;
            return 0;
        }
    }
    if (m->typed_all && (alt_enter || ch == KEY_BACKSPACE || ch == 127 || ch == 8 || ch == KEY_DC || ch == CTRL('U')
                         || ch == CTRL('W') || (ch >= 0x20 && ch < 0x100 && ch != 0x7f))) {
        m->typed[0] = '\0';     /* the old text selected: replaced */
        m->typed_at = 0;
        len = 0;
        if (ch == KEY_BACKSPACE || ch == 127 || ch == 8 || ch == KEY_DC || ch == CTRL('U') || ch == CTRL('W')) {
            m->typed_all = 0;
            count_tokens(m);
            return 0;
        }
    }
    m->typed_all = 0;
    if (alt_enter) {
        insert(m, "\n", 1);
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        newlines(m->typed);
        m->typing = 0;
        return 1;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        cut(m, char_before(m->typed, m->typed_at), m->typed_at);
    } else if (ch == KEY_DC) {
        cut(m, m->typed_at, char_after(m->typed, m->typed_at));
    } else if (ch == CTRL('U')) {
        cut(m, 0, m->typed_at);
    } else if (ch == CTRL('W')) {
        size_t at = m->typed_at;
        while (at > 0 && (m->typed[at - 1] == ' ' || m->typed[at - 1] == '\n'))
            at--;
        while (at > 0 && m->typed[at - 1] != ' ' && m->typed[at - 1] != '\n')
            at--;
        cut(m, at, m->typed_at);
    } else if (ch == KEY_LEFT) {
        m->typed_at = char_before(m->typed, m->typed_at);
    } else if (ch == KEY_RIGHT) {
        m->typed_at = char_after(m->typed, m->typed_at);
    } else if (ch == KEY_HOME || ch == CTRL('A')) {
        m->typed_at = 0;
    } else if (ch == KEY_END || ch == CTRL('E')) {
        m->typed_at = len;
    } else if (ch >= 0x20 && ch < 0x100 && ch != 0x7f) {
        char c = (char)ch;
        insert(m, &c, 1);
    }
    count_tokens(m);
    return 0;
}

void model_type_draw(TuiTerm *term, ModelScreen *m)
{
    int y = term->rows - 1, w = term->cols;
    int context = m->look.md.cfg.context;
    /* the row above: the count, the limit and the keys */
    char count[96];
    if (m->typed_tokens >= 0)
        snprintf(count, sizeof count, "%d tokens of %d", m->typed_tokens, context);
    else
        snprintf(count, sizeof count, "more tokens than the %d the model reads", context);
    ui_fill(&term->cv, y - 1, 0, w, tui_attr(term, C_KEYBAR));
    ui_putf(&term->cv, y - 1, 1, w - 2, m->typed_tokens < 0 || m->typed_tokens > context ? tui_attr(term, C_ERROR)
            : tui_attr(term, C_KEYBAR), "%s %s ^U clears %s ^W a word %s Alt-Enter or \\n: new line %s Esc leaves",
            count, ui_glyph(&term->cv, "·", "-"), ui_glyph(&term->cv, "·", "-"), ui_glyph(&term->cv, "·", "-"),
            ui_glyph(&term->cv, "·", "-"));
    /* the text, a newline as a return arrow, the cursor kept in view */
    ui_fill(&term->cv, y, 0, w, tui_attr(term, C_KEYBAR));
    const char *label = "text: ";
    ui_put(&term->cv, y, 1, w - 2, tui_attr(term, C_KEYBAR), label);
    int x0 = 1 + (int)strlen(label), room = w - x0 - 2;
    /* the columns each character takes, to find where the cursor is */
    size_t len = strlen(m->typed), from = 0;
    int at_col = 0;
    for (size_t i = 0; i < m->typed_at; i = char_after(m->typed, i))
        at_col++;
    int first = imax(0, at_col - room + 1), col = 0;
    for (size_t i = 0; i < len && col < first; i = char_after(m->typed, i), col++)
        from = char_after(m->typed, i);
    int x = x0, attr = m->typed_all ? tui_attr(term, C_SELECTED) : tui_attr(term, C_KEYBAR);
    for (size_t i = from; i < len && x < w - 1;) {
        size_t next = char_after(m->typed, i);
        char ch[8];
        if (m->typed[i] == '\n')
            snprintf(ch, sizeof ch, "%s", ui_glyph(&term->cv, "↵", "/"));
        else if ((unsigned char)m->typed[i] < 0x20)
            snprintf(ch, sizeof ch, "?");
        else
            snprintf(ch, sizeof ch, "%.*s", (int)(next - i), m->typed + i);
        ui_put(&term->cv, y, x, 1, i == m->typed_at ? tui_attr(term, C_CURSOR) : attr, ch);
        x++;
        i = next;
    }
    if (m->typed_at >= len && x < w - 1)
        ui_fill(&term->cv, y, x, 1, tui_attr(term, C_CURSOR));
}

void model_text_key(char *buf, size_t size, int ch)
{
    size_t len = strlen(buf);
    if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        while (len > 0 && ((unsigned char)buf[len - 1] & 0xc0) == 0x80)
            len--;      /* a whole character */
        if (len > 0)
            len--;
        buf[len] = '\0';
    } else if (ch >= 0x20 && ch < 0x100 && ch != 0x7f && len + 1 < size) {
        buf[len] = (char)ch;
        buf[len + 1] = '\0';
    }
}
