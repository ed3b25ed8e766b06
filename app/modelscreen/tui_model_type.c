/*
 * tui_model_type.c - a line of text typed on a model as people expect a
 * line to be edited, one way for t's new text and P's second text. The
 * old text comes selected, so typing replaces it (an arrow or Home or End
 * keeps it and moves); Backspace and Delete, Ctrl-U (all before the
 * cursor), Ctrl-W (the word before it), Ctrl-A and Ctrl-E; a newline with
 * Alt-Enter, or typed as \n; and as it is typed, its tokens counted
 * against what the field needs: the model's context for t, the text's own
 * count for P (a patch needs as many).
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

/* The tokens the typed text makes as Enter would take it, its \n a newline
 * (-1: more than the model reads, or no tokenizer). */
static void count_tokens(ModelScreen *m)
{
    LineEdit *e = &m->typed;
    int room = m->look.md.cfg.context < MODEL_LOOK_MAX_TOKENS ? m->look.md.cfg.context : MODEL_LOOK_MAX_TOKENS;
    int *ids = malloc((size_t)room * sizeof *ids);
    char *text = malloc(sizeof e->text);
    AttnError err = { 0 };
    e->tokens = -1;
    if (ids && text && m->look.md.bpe) {
        memcpy(text, e->text, sizeof e->text);
        newlines(text);
        e->tokens = bpe_encode(m->look.md.bpe, text, strlen(text), ids, room, &err);
    }
    free(ids);
    free(text);
}

void model_type_start(ModelScreen *m, Typing what, const char *text)
{
    LineEdit *e = &m->typed;
    m->typing = what;
    snprintf(e->text, sizeof e->text, "%s", text);
    e->at = strlen(e->text);
    e->all = 1;
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
static void cut(LineEdit *e, size_t from, size_t to)
{
    memmove(e->text + from, e->text + to, strlen(e->text + to) + 1);
    e->at = from;
}

static void insert(LineEdit *e, const char *bytes, size_t n)
{
    size_t len = strlen(e->text);
    if (len + n + 1 > sizeof e->text)
        return;
    memmove(e->text + e->at + n, e->text + e->at, len - e->at + 1);
    memcpy(e->text + e->at, bytes, n);
    e->at += n;
}

/* Esc: 1 when it was Alt-Enter (Esc and then Enter, at once), else 0 (a
 * key that came after it put back). */
static int alt_enter_after_esc(void)
{
    int delay = wgetdelay(stdscr), next;
    timeout(0);
    next = getch();
    timeout(delay);
    if (next == '\n' || next == '\r' || next == KEY_ENTER)
        return 1;
    if (next != ERR)
        ungetch(next);
    return 0;
}

static int is_erase(int ch)
{
    return ch == KEY_BACKSPACE || ch == 127 || ch == 8 || ch == KEY_DC || ch == CTRL('U') || ch == CTRL('W');
}

static int is_char(int ch) { return ch >= 0x20 && ch < 0x100 && ch != 0x7f; }

int model_type_key(TuiTerm *term, ModelScreen *m, int ch)
{
    (void)term;
    LineEdit *e = &m->typed;
    size_t len = strlen(e->text);
    int alt_enter = 0;
    if (ch == KEY_ESC) {
        alt_enter = alt_enter_after_esc();
        if (!alt_enter) {
            m->typing = TYPING_NONE;
            return 0;
        }
    }
    if (e->all && (alt_enter || is_erase(ch) || is_char(ch))) {
        e->text[0] = '\0';      /* the old text selected: replaced */
        e->at = 0;
        len = 0;
        if (is_erase(ch)) {
            e->all = 0;
            count_tokens(m);
            return 0;
        }
    }
    e->all = 0;
    if (alt_enter) {
        insert(e, "\n", 1);
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        newlines(e->text);
        m->typing = TYPING_NONE;
        return 1;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        cut(e, char_before(e->text, e->at), e->at);
    } else if (ch == KEY_DC) {
        cut(e, e->at, char_after(e->text, e->at));
    } else if (ch == CTRL('U')) {
        cut(e, 0, e->at);
    } else if (ch == CTRL('W')) {
        size_t at = e->at;
        while (at > 0 && (e->text[at - 1] == ' ' || e->text[at - 1] == '\n'))
            at--;
        while (at > 0 && e->text[at - 1] != ' ' && e->text[at - 1] != '\n')
            at--;
        cut(e, at, e->at);
    } else if (ch == KEY_LEFT) {
        e->at = char_before(e->text, e->at);
    } else if (ch == KEY_RIGHT) {
        e->at = char_after(e->text, e->at);
    } else if (ch == KEY_HOME || ch == CTRL('A')) {
        e->at = 0;
    } else if (ch == KEY_END || ch == CTRL('E')) {
        e->at = len;
    } else if (is_char(ch)) {
        char c = (char)ch;
        insert(e, &c, 1);
    }
    count_tokens(m);
    return 0;
}

/* The row above the field: its tokens against what it needs (the context
 * for t, the text's count for P), and the keys. */
static void draw_count(TuiTerm *term, const ModelScreen *m, int y)
{
    const LineEdit *e = &m->typed;
    int context = m->look.md.cfg.context, patch = m->typing == TYPING_PATCH, bad;
    const char *dot = ui_glyph(&term->cv, "·", "-");
    char count[128], enter[32] = "";
    if (patch) {
        snprintf(enter, sizeof enter, "Enter patches %s ", dot);
        if (e->tokens >= 0)
            snprintf(count, sizeof count, "%d tokens of the %d a patch needs", e->tokens, m->look.n);
        else
            snprintf(count, sizeof count, "more tokens than the %d the model reads, and a patch needs %d", context,
                     m->look.n);
        bad = e->tokens != m->look.n;
    } else {
        if (e->tokens >= 0)
            snprintf(count, sizeof count, "%d tokens of %d", e->tokens, context);
        else
            snprintf(count, sizeof count, "more tokens than the %d the model reads", context);
        bad = e->tokens < 0 || e->tokens > context;
    }
    ui_fill(&term->cv, y, 0, term->cols, tui_attr(term, C_KEYBAR));
    ui_putf(&term->cv, y, 1, term->cols - 2, bad ? tui_attr(term, C_ERROR) : tui_attr(term, C_KEYBAR),
            "%s %s ^U clears %s ^W a word %s Alt-Enter or \\n: new line %s %sEsc leaves", count, dot, dot, dot, dot,
            enter);
}

void model_type_draw(TuiTerm *term, ModelScreen *m)
{
    const LineEdit *e = &m->typed;
    int y = term->rows - 1, w = term->cols;
    draw_count(term, m, y - 1);
    /* the text, a newline as a return arrow, the cursor kept in view */
    ui_fill(&term->cv, y, 0, w, tui_attr(term, C_KEYBAR));
    char label[64];
    if (m->typing == TYPING_PATCH)
        snprintf(label, sizeof label, "patch L%dH%d from: ", m->layer + 1, m->head + 1);
    else
        snprintf(label, sizeof label, "text: ");
    ui_put(&term->cv, y, 1, w - 2, tui_attr(term, C_KEYBAR), label);
    int x0 = 1 + fmt_display_width(label), room = w - x0 - 2;
    /* the columns each character takes, to find where the cursor is */
    size_t len = strlen(e->text), from = 0;
    int at_col = 0;
    for (size_t i = 0; i < e->at; i = char_after(e->text, i))
        at_col++;
    int first = imax(0, at_col - room + 1), col = 0;
    for (size_t i = 0; i < len && col < first; i = char_after(e->text, i), col++)
        from = char_after(e->text, i);
    int x = x0, attr = e->all ? tui_attr(term, C_SELECTED) : tui_attr(term, C_KEYBAR);
    for (size_t i = from; i < len && x < w - 1;) {
        size_t next = char_after(e->text, i);
        char ch[8];
        if (e->text[i] == '\n')
            snprintf(ch, sizeof ch, "%s", ui_glyph(&term->cv, "↵", "/"));
        else if ((unsigned char)e->text[i] < 0x20)
            snprintf(ch, sizeof ch, "?");
        else
            snprintf(ch, sizeof ch, "%.*s", (int)(next - i), e->text + i);
        ui_put(&term->cv, y, x, 1, i == e->at ? tui_attr(term, C_CURSOR) : attr, ch);
        x++;
        i = next;
    }
    if (e->at >= len && x < w - 1)
        ui_fill(&term->cv, y, x, 1, tui_attr(term, C_CURSOR));
}
