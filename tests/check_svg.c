/*
 * check_svg.c - the pictures attn writes for slides and papers, read back
 * as a reader reads them: every SVG parses as XML (the small reader here,
 * and xmllint when it is installed); a lesson's pane (`attn run --svg`)
 * has rows x columns cells, each holding the lesson's number at the shown
 * decimals, its colour's lightness monotone in the value (in |v| for
 * signed values), its axes labelled with the tokens (a token "<&\"" escaped),
 * the colour bar's ends; --no-answers keeps the asked cells as "?", --set
 * moves the numbers, NO_COLOR makes every colour a grey; the folder is
 * made when absent and refused when it holds a file attn did not write.
 * A model's every head (`attn model --svg`): layers x heads heatmaps, each
 * under its kind and score, the tokens along the edges; one head (--head
 * L.H): its weights at 2 decimals, the tokens on both axes. `w` on the
 * screens writes what is under the cursor, in --present too. The heat
 * scale's two ends stay apart for a deuteranope.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_read.h"
#include "numfmt.h"
#include "ramp.h"
#include "svg.h"
#include "testutil.h"
#include "tiny_model.h"
#include "tmux.h"
#include "xml_fixtures.h"

static int is_class(const XEl *e, const char *cls)
{
    const char *c = xml_attr(e, "class");
    return c && strcmp(c, cls) == 0;
}

/* The SVG at path read, or the test fails: well-formed, attn's mark, a
 * viewBox (sizes in its own units). */
static void svg_load(const char *path, Xml *x)
{
    xml_expect_file(path, x);
    char *text = slurp(path);
    ck_assert_msg(strstr(text, "<!-- written by attn") != NULL, "%s has no mark", path);
    free(text);
    ck_assert_str_eq(x->el[0].name, "svg");
    ck_assert_msg(xml_attr(&x->el[0], "viewBox") != NULL, "%s: no viewBox", path);
}

static Rgb fill_of(const XEl *e)
{
    const char *f = xml_attr(e, "fill");
    unsigned v = 0;
    ck_assert_msg(f && sscanf(f, "#%6x", &v) == 1, "<%s> has no #rrggbb fill", e->name);
    Rgb c = { (float)((v >> 16) & 0xff) / 255.0f, (float)((v >> 8) & 0xff) / 255.0f, (float)(v & 0xff) / 255.0f };
    return c;
}

/* The elements of class cls, in document order, into out (at most max). */
static int with_class(const Xml *x, const char *cls, const XEl **out, int max)
{
    int n = 0;
    for (int i = 0; i < x->n; i++)
        if (is_class(&x->el[i], cls) && n < max)
            out[n++] = &x->el[i];
    return n;
}

/* Each cell (rect.cell) and the number drawn in it (the text.num after it,
 * before the next cell; NULL when none). */
static int cells_of(const Xml *x, const XEl **cell, const XEl **num, int max)
{
    int n = 0;
    for (int i = 0; i < x->n; i++) {
        if (is_class(&x->el[i], "cell") && n < max) {
            cell[n] = &x->el[i];
            num[n++] = NULL;
        } else if (is_class(&x->el[i], "num") && n > 0 && !num[n - 1]) {
            num[n - 1] = &x->el[i];
        }
    }
    return n;
}


/* ---- a lesson's panes ---------------------------------------------------- */

/* Two heatmaps on the tokens x1 <&" x3: signed scores and their weights; a
 * knob divides the scores; an exercise asks A[1,2]; a second step shows
 * the weights again, as numbers. */
static const char *pane_lesson =
    "lesson Pictures\n"
    "about Panes as pictures.\n"
    "tokens x1 <&\" x3\n"
    "knob T = 1 from 0.5 to 4 step 0.5\n"
    "let S = [ 1 -2 0.5 ; 0.25 3 -1 ; 2 0 -0.75 ] / T\n"
    "labels S rows x1 <&\" x3\n"
    "labels S cols x1 <&\" x3\n"
    "step Scores and weights\n"
    "  let A = softmax_rows(S)\n"
    "  let N = S * 2\n"
    "  show S A N\n"
    "  heatmap S A\n"
    "  exercise What weight does the first token put on the second?\n"
    "    answer A[1,2] = 0.0301 within 1e-3\n"
    "  end\n"
    "step The weights again\n"
    "  show A\n";

/* A fresh folder name under /tmp (not made). */
static const char *fresh_dir(char *buf, size_t size)
{
    static int serial;
    snprintf(buf, size, "/tmp/attn-svg-%d-%d", (int)getpid(), serial++);
    return buf;
}

/* dir/NN-name.svg read into x: its cells and their numbers; how many. */
static int pane_cells(const char *dir, int k, const char *name, Xml *x, const XEl **cell, const XEl **num)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%02d-%s.svg", dir, k, name);
    svg_load(path, x);
    return cells_of(x, cell, num, 16);
}

static void remove_tree(const char *dir)
{
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}

/* `attn run --svg DIR [opts] lesson`, asserted to succeed. */
static void run_svg(const char *env, const char *opts, const char *dir, const char *lesson)
{
    CmdResult r = cmd_runf("%s %s run --svg %s %s %s", env, attn_bin(), dir, opts, lesson);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char want[600];
    snprintf(want, sizeof want, "%s/01-A.svg\n", dir);
    ck_assert_msg(strstr(r.out, want), "the files written are listed: %s", r.out);
    cmd_free(&r);
}

/* The pictures of pane_lesson (with env and opts) in a fresh folder, dir. */
static const char *pictures(const char *env, const char *opts, char *dir, size_t size)
{
    const char *lesson = write_temp(".lesson", pane_lesson);
    run_svg(env, opts, fresh_dir(dir, size), lesson);
    return lesson;
}

/* Cell [i,j] (0-based) of matrix name in a JSON handout. */
static double json_cell(const JVal *doc, const char *name, int i, int j)
{
    const JVal *m = json_get(json_get(doc, "matrices"), name);
    ck_assert_ptr_nonnull(m);
    return json_get(m, "data")->items[i].items[j].num;
}

/* The cells of pane name in dir's picture of step k against the lesson's
 * numbers: rows x cols cells, each number at 4 decimals, the axes the
 * tokens. Returns the cells' (value, lightness) into v and l. */
static void check_pane(const char *dir, int k, const char *name, const JVal *doc, float *v, float *l)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%02d-%s.svg", dir, k, name);
    Xml x;
    const XEl *cell[16], *num[16], *lab[16];
    ck_assert_int_eq(pane_cells(dir, k, name, &x, cell, num), 9);
    for (int c = 0; c < 9; c++) {
        char want[64];
        float val = (float)json_cell(doc, name, c / 3, c % 3);
        num_format(want, sizeof want, val, NUM_DECIMALS_DEFAULT, 1);
        ck_assert_msg(num[c] != NULL, "%s: cell %d has no number", path, c);
        ck_assert_msg(strcmp(num[c]->text, want) == 0, "%s: cell [%d,%d] reads %s, the lesson has %s", path,
                      c / 3 + 1, c % 3 + 1, num[c]->text, want);
        v[c] = val;
        l[c] = ramp_lightness(fill_of(cell[c]));
    }
    static const char *const tokens[] = { "x1", "<&\"", "x3" };
    for (int by_rows = 0; by_rows < 2; by_rows++) {
        ck_assert_int_eq(with_class(&x, by_rows ? "row-label" : "col-label", lab, 16), 3);
        for (int t = 0; t < 3; t++)
            ck_assert_str_eq(lab[t]->text, tokens[t]);
    }
    char *raw = slurp(path);
    ck_assert_msg(strstr(raw, ">&lt;&amp;&quot;</text>"), "%s: the token <&\" is not escaped", path);
    free(raw);
    xml_free(&x);
}

START_TEST(a_pane_as_the_screen_draws_it)
{
    char dir[128], path[700];
    const char *lesson = pictures("", "", dir, sizeof dir);
    JVal doc;
    char why[300];
    ck_assert_msg(lesson_json(lesson, &doc, why, sizeof why) == 0, "%s", why);
    float v[9], l[9];
    /* the weights: lightness rises with the value */
    check_pane(dir, 1, "A", &doc, v, l);
    for (int a = 0; a < 9; a++)
        for (int b = 0; b < 9; b++)
            if (v[a] < v[b] - 1e-3f)
                ck_assert_msg(l[a] < l[b] + 0.5f, "A: %.4f is lighter (L* %.1f) than %.4f (L* %.1f)", v[a], l[a],
                              v[b], l[b]);
    /* the signed scores: lighter the nearer to 0, either side */
    check_pane(dir, 1, "S", &doc, v, l);
    for (int a = 0; a < 9; a++)
        for (int b = 0; b < 9; b++)
            if (fabsf(v[a]) < fabsf(v[b]) - 1e-3f)
                ck_assert_msg(l[a] > l[b] - 0.5f, "S: |%.4f| is darker (L* %.1f) than |%.4f| (L* %.1f)", v[a],
                              l[a], v[b], l[b]);
    /* the title and the colour bar's ends, symmetric for signed values */
    snprintf(path, sizeof path, "%s/01-S.svg", dir);
    Xml x;
    svg_load(path, &x);
    const XEl *e[40];
    ck_assert_int_eq(with_class(&x, "title", e, 40), 1);
    ck_assert_str_eq(e[0]->text, "S 3x3 = [3x3] / T");
    ck_assert_int_eq(with_class(&x, "bar-lo", e, 40), 1);
    ck_assert_str_eq(e[0]->text, "-3.00");
    ck_assert_int_eq(with_class(&x, "bar-hi", e, 40), 1);
    ck_assert_str_eq(e[0]->text, "3.00");
    ck_assert_int_eq(with_class(&x, "bar", e, 40), 32);
    xml_free(&x);
    snprintf(path, sizeof path, "%s/01-A.svg", dir);
    svg_load(path, &x);
    ck_assert_int_eq(with_class(&x, "title", e, 40), 1);
    ck_assert_str_eq(e[0]->text, "A 3x3 = softmax_rows(S)");
    with_class(&x, "bar-lo", e, 40);
    ck_assert_str_eq(e[0]->text, "0.00");
    with_class(&x, "bar-hi", e, 40);
    ck_assert_str_eq(e[0]->text, "1.00");
    xml_free(&x);
    /* a pane of numbers: no colours, no bar */
    const XEl *cell[16], *num[16];
    ck_assert_int_eq(pane_cells(dir, 1, "N", &x, cell, num), 9);
    for (int c = 0; c < 9; c++)
        ck_assert_str_eq(xml_attr(cell[c], "fill"), "#ffffff");
    ck_assert_int_eq(with_class(&x, "bar", e, 40), 0);
    xml_free(&x);
    /* the set-up is screen 00 */
    snprintf(path, sizeof path, "%s/00-S.svg", dir);
    svg_load(path, &x);
    xml_free(&x);
    json_free(&doc);
    remove_tree(dir);
}
END_TEST

START_TEST(a_students_picture_keeps_the_asked_cell)
{
    char dir[128];
    const char *lesson = pictures("", "--no-answers", dir, sizeof dir);
    Xml x;
    const XEl *cell[16], *num[16];
    /* A[1,2] is "?" on the step that asks it, as the handout without
     * answers has it (sheet_hidden: an exercise is open on its step and
     * before); every other cell a number, and on the step after, the
     * exercise behind it, A[1,2] too */
    for (int k = 1; k <= 2; k++) {
        ck_assert_int_eq(pane_cells(dir, k, "A", &x, cell, num), 9);
        for (int c = 0; c < 9; c++) {
            ck_assert_ptr_nonnull(num[c]);
            if (c == 1 && k == 1) {
                ck_assert_str_eq(num[c]->text, "?");
                ck_assert_str_eq(xml_attr(cell[c], "fill"), "#eeeeee");   /* no colour gives it away */
            } else {
                ck_assert_msg(strcmp(num[c]->text, "?") != 0, "cell %d is hidden too", c);
            }
        }
        xml_free(&x);
    }
    /* with the answers, the number */
    remove_tree(dir);
    run_svg("", "", dir, lesson);
    pane_cells(dir, 1, "A", &x, cell, num);
    ck_assert_str_eq(num[1]->text, "0.0301");
    xml_free(&x);
    remove_tree(dir);
}
END_TEST

START_TEST(set_moves_the_numbers_and_no_color_is_grey)
{
    char dir[128];
    pictures("NO_COLOR=1", "--set T=2", dir, sizeof dir);
    Xml x;
    const XEl *cell[16], *num[16];
    pane_cells(dir, 1, "S", &x, cell, num);
    ck_assert_str_eq(num[1]->text, "-1.0000");     /* -2 / T at T = 2 */
    ck_assert_str_eq(num[4]->text, "1.5000");
    /* every colour in the picture a grey */
    for (int i = 0; i < x.n; i++)
        if (xml_attr(&x.el[i], "fill")) {
            Rgb c = fill_of(&x.el[i]);
            ck_assert_msg(c.r == c.g && c.g == c.b, "<%s class=%s> is not grey: %s", x.el[i].name,
                          xml_attr(&x.el[i], "class"), xml_attr(&x.el[i], "fill"));
        }
    xml_free(&x);
    remove_tree(dir);
}
END_TEST

START_TEST(a_folder_of_someone_elses_files_is_refused)
{
    const char *lesson = write_temp(".lesson", pane_lesson);
    char dir[128], path[700];
    fresh_dir(dir, sizeof dir);
    /* made when absent (with the folders above it), written again in place */
    snprintf(path, sizeof path, "%s/slides", dir);
    run_svg("", "", path, lesson);
    run_svg("", "", path, lesson);
    /* a file attn did not write: refused, and it is still there */
    snprintf(path, sizeof path, "%s/slides/notes.txt", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("my notes\n", f);
    fclose(f);
    CmdResult r = cmd_runf("%s run --svg %s/slides %s", attn_bin(), dir, lesson);
    ck_assert_int_eq(r.status, 2);
    char want[1200];
    snprintf(want, sizeof want,
             "attn: --svg %s/slides: it holds notes.txt, which attn did not write: name a new or empty folder\n", dir);
    ck_assert_str_eq(r.err, want);
    ck_assert_str_eq(r.out, "");
    cmd_free(&r);
    char *kept = slurp(path);
    ck_assert_str_eq(kept, "my notes\n");
    free(kept);
    /* a file, not a folder */
    r = cmd_runf("%s run --svg %s %s", attn_bin(), path, lesson);
    ck_assert_int_eq(r.status, 2);
    snprintf(want, sizeof want, "attn: --svg %s: it is a file, not a folder\n", path);
    ck_assert_str_eq(r.err, want);
    cmd_free(&r);
    /* with another handout, or a bug */
    r = cmd_runf("%s run --svg %s --json %s", attn_bin(), dir, lesson);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "attn: --json, --markdown, --svg and --explain do not go together\n"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s run --svg %s --bug 1 %s", attn_bin(), dir, lesson);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "attn: --bug goes with the plain handout or --json\n"), "%s", r.err);
    cmd_free(&r);
    remove_tree(dir);
}
END_TEST

/* ---- a model ---------------------------------------------------------------- */

#define MODEL_TEXT "a<&\"b"
#define MODEL_N 5       /* a byte a token */

static const char *const model_tokens[MODEL_N] = { "a", "<", "&", "\"", "b" };

/* The screen's few letters for a kind (model_look_kind_short). */
static const char *short_kind(const char *kind)
{
    return strcmp(kind, "previous-token") == 0 ? "prev" : strcmp(kind, "first-token") == 0 ? "sink"
         : strcmp(kind, "induction") == 0      ? "ind"  : kind;
}

/* The labels of class cls, the first n of them, are the text's tokens. */
static void labels_are_tokens(const Xml *x, const char *cls, int at_least)
{
    const XEl *lab[256];
    int n = with_class(x, cls, lab, 256);
    ck_assert_msg(n >= at_least, "%d labels of class %s, want %d", n, cls, at_least);
    for (int k = 0; k < n; k++)
        ck_assert_msg(strcmp(lab[k]->text, model_tokens[k % MODEL_N]) == 0, "%s %d reads '%s', the token is '%s'", cls,
                      k, lab[k]->text, model_tokens[k % MODEL_N]);
}

START_TEST(every_head_and_one_head)
{
    char *dir = make_dir(), path[700], want[800];
    tiny_gpt2_dir(dir);
    CmdResult r = cmd_runf("%s model %s --text '" MODEL_TEXT "' --json --attention-out %s/att.npy", attn_bin(), dir,
                           dir);
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal doc;
    char why[200];
    ck_assert_msg(json_parse(r.out, &doc, why, sizeof why) == 0, "%s", why);
    cmd_free(&r);
    /* every head: a heatmap each, under the kind and score the JSON gives */
    snprintf(path, sizeof path, "%s/heads.svg", dir);
    r = cmd_runf("%s model %s --text '" MODEL_TEXT "' --svg %s", attn_bin(), dir, path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    snprintf(want, sizeof want, "%s\n", path);
    ck_assert_str_eq(r.out, want);
    cmd_free(&r);
    Xml x;
    svg_load(path, &x);
    const XEl *kinds[LAYERS * HEADS + 1];
    const JVal *heads = json_get(&doc, "heads");
    ck_assert_int_eq(heads->n, LAYERS * HEADS);
    ck_assert_int_eq(with_class(&x, "head", kinds, LAYERS * HEADS + 1), LAYERS * HEADS);
    ck_assert_int_eq(with_class(&x, "kind", kinds, LAYERS * HEADS + 1), LAYERS * HEADS);
    for (int i = 0; i < heads->n; i++) {
        snprintf(want, sizeof want, "%s %.2f", short_kind(json_get(&heads->items[i], "kind")->str),
                 json_get(&heads->items[i], "score")->num);
        ck_assert_msg(strcmp(kinds[i]->text, want) == 0, "head %d reads '%s', the JSON '%s'", i + 1, kinds[i]->text,
                      want);
    }
    /* a head's weights on and under the diagonal, one cell each */
    const XEl *cell[LAYERS * HEADS * MODEL_N * MODEL_N], *num[LAYERS * HEADS * MODEL_N * MODEL_N];
    int cells = 0;
    for (int i = 0; i < x.n; i++)
        cells += is_class(&x.el[i], "cell");
    ck_assert_int_eq(cells, LAYERS * HEADS * MODEL_N * (MODEL_N + 1) / 2);
    /* the tokens along the top (keys) and the left (queries) */
    labels_are_tokens(&x, "key-label", HEADS * MODEL_N);
    labels_are_tokens(&x, "query-label", LAYERS * MODEL_N);
    char *raw = slurp(path);
    ck_assert_msg(strstr(raw, ">&lt;</text>") && strstr(raw, ">&amp;</text>") && strstr(raw, ">&quot;</text>"),
                  "the tokens < & \" are not escaped");
    free(raw);
    xml_free(&x);
    /* one head: its weights at 2 decimals, the tokens on both axes */
    snprintf(path, sizeof path, "%s/head.svg", dir);
    r = cmd_runf("%s model %s --text '" MODEL_TEXT "' --svg %s --head 2.3", attn_bin(), dir, path);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cmd_free(&r);
    svg_load(path, &x);
    ck_assert_int_eq(cells_of(&x, cell, num, MODEL_N * MODEL_N), MODEL_N * (MODEL_N + 1) / 2);
    snprintf(want, sizeof want, "%s/att.npy", dir);
    size_t len;
    char *npy = slurp_n(want, &len);
    ck_assert_ptr_nonnull(npy);
    size_t hlen = (size_t)((unsigned char)npy[8] | (unsigned char)npy[9] << 8);
    const float *att = (const float *)(npy + 10 + hlen) + (size_t)(1 * HEADS + 2) * MODEL_N * MODEL_N;
    for (int i = 0, c = 0; i < MODEL_N; i++)
        for (int j = 0; j <= i; j++, c++) {
            char w2[32];
            num_format(w2, sizeof w2, att[i * MODEL_N + j], 2, 1);
            ck_assert_msg(num[c] && strcmp(num[c]->text, w2) == 0, "A[%d,%d] reads %s, the model has %s", i + 1,
                          j + 1, num[c] ? num[c]->text : "nothing", w2);
        }
    free(npy);
    labels_are_tokens(&x, "row-label", MODEL_N);
    labels_are_tokens(&x, "col-label", MODEL_N);
    const XEl *e[4];
    ck_assert_int_eq(with_class(&x, "title", e, 4), 1);
    ck_assert_msg(strstr(e[0]->text, "layer 2, head 3"), "%s", e[0]->text);
    xml_free(&x);
    /* a head the model has not; --head without a picture */
    r = cmd_runf("%s model %s --text ab --svg %s --head 3.1", attn_bin(), dir, path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "attn: --head: the model has no such layer or head\n"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s model %s --text ab --head 1.1", attn_bin(), dir);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "attn: --head L.H picks the head of a picture: --svg FILE --head 5.1\n"), "%s", r.err);
    cmd_free(&r);
    json_free(&doc);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* ---- w on the screens ------------------------------------------------------- */

/* What tmux_start puts before attn so that it runs in folder dir (and
 * writes there), after env. */
static const char *in_folder(char *buf, size_t size, const char *env, const char *dir)
{
    snprintf(buf, size, "%s sh -c \"cd %s && exec \\\"\\$0\\\" \\\"\\$@\\\"\"", env, dir);
    return buf;
}

/* The file the message line says w wrote ("wrote NAME: ..."), in dir. */
static const char *written(Tmux *t, const char *dir, char *path, size_t size)
{
    WAIT_FOR(t, "wrote ");
    const char *at = strstr(t->last, "wrote ") + 6;
    snprintf(path, size, "%s/%.*s", dir, (int)strcspn(at, ":\n"), at);
    return path;
}

/* Press keys (ending in w), see the screen say it wrote file, read
 * dir/file into x: its cells and their numbers; how many. */
static int press_w(Tmux *t, const char *keys, const char *dir, const char *file, Xml *x, const XEl **cell,
                   const XEl **num)
{
    char want[200], path[700];
    tmux_keys(t, keys);
    snprintf(want, sizeof want, "wrote %s: ", file);
    WAIT_FOR(t, want);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    svg_load(path, x);
    return cells_of(x, cell, num, 16);
}

START_TEST(w_writes_the_pane_under_the_cursor)
{
    if (!have_tmux())
        return;
    const char *lesson = write_temp(".lesson", pane_lesson);
    char dir[128], env[600];
    fresh_dir(dir, sizeof dir);
    CmdResult r = cmd_runf("mkdir -p %s", dir);
    cmd_free(&r);
    Tmux t;
    tmux_start(&t, 80, 24, in_folder(env, sizeof env, "", dir), lesson);
    WAIT_FOR(&t, "Set-up, then 2 steps");
    Xml x;
    const XEl *cell[16], *num[16];
    /* as the screen shows it: the asked cell kept, the rest at 4 decimals */
    ck_assert_int_eq(press_w(&t, "n Tab w", dir, "01-A.svg", &x, cell, num), 9);
    WAIT_FOR(&t, "wrote 01-A.svg: A as shown");
    ck_assert_str_eq(num[1]->text, "?");
    ck_assert_str_eq(num[0]->text, "0.6037");
    xml_free(&x);
    /* again: a new file beside it, and - then w: the decimals shown */
    press_w(&t, "- w", dir, "01-A-2.svg", &x, cell, num);
    ck_assert_str_eq(num[0]->text, "0.604");
    xml_free(&x);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    /* presenter mode: nothing shown yet is "?"; once revealed, the
     * decimals that tell the numbers apart; without colour, grey */
    remove_tree(dir);
    r = cmd_runf("mkdir -p %s", dir);
    cmd_free(&r);
    char args[700];
    snprintf(args, sizeof args, "--present %s", lesson);
    tmux_start(&t, 80, 24, in_folder(env, sizeof env, "NO_COLOR=1", dir), args);
    WAIT_FOR(&t, "Set-up");
    ck_assert_int_eq(press_w(&t, "Tab w", dir, "00-S.svg", &x, cell, num), 9);
    for (int c = 0; c < 9; c++)
        ck_assert_str_eq(num[c]->text, "?");
    xml_free(&x);
    press_w(&t, "Space w", dir, "00-S-2.svg", &x, cell, num);
    ck_assert_str_eq(num[0]->text, "1.00");
    ck_assert_str_eq(num[1]->text, "-2.00");
    for (int c = 0; c < 9; c++) {
        Rgb g = fill_of(cell[c]);
        ck_assert_msg(g.r == g.g && g.g == g.b, "cell %d is not grey: %s", c, xml_attr(cell[c], "fill"));
    }
    xml_free(&x);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    remove_tree(dir);
}
END_TEST

START_TEST(w_writes_every_head_or_the_head)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), env[800], args[800], path[900];
    tiny_gpt2_dir(dir);
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    tmux_start(&t, 80, 24, in_folder(env, sizeof env, "", dir), args);
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_keys(&t, "w");
    written(&t, dir, path, sizeof path);
    ck_assert_msg(strstr(path, "-heads.svg"), "%s", t.last);
    WAIT_FOR(&t, "-heads.svg: every head");
    Xml x;
    svg_load(path, &x);
    const XEl *e[LAYERS * HEADS + 1];
    ck_assert_int_eq(with_class(&x, "head", e, LAYERS * HEADS + 1), LAYERS * HEADS);
    xml_free(&x);
    tmux_keys(&t, "Down Right Right Enter");
    WAIT_FOR(&t, "layer 2, head 3");
    tmux_keys(&t, "w");
    WAIT_FOR(&t, "-L2H3.svg: this head");
    written(&t, dir, path, sizeof path);
    svg_load(path, &x);
    const XEl *cell[200], *num[200];
    ck_assert_int_eq(cells_of(&x, cell, num, 200), 13 * 14 / 2);
    xml_free(&x);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* ---- the writer ------------------------------------------------------------- */

START_TEST(every_text_is_escaped)
{
    /* a control byte and a bidirectional override go (as on the screen), the
     * markup characters are references, what XML may not hold is one '?' */
    const char *hostile = "a\x01<&\"'>\xe2\x80\xae" "b\xed\xa0\x80" "c\xef\xbf\xbe" "d\xff" "e -- f";
    Svg s;
    svg_begin(&s, 100, 50, 0, hostile);
    svg_text(&s, &(SvgFont){ "t", 10, SVG_START, { 0, 0, 0 }, 0, 0 }, 1, 1, hostile);
    char *doc = svg_end(&s);
    ck_assert_ptr_nonnull(doc);
    ck_assert_msg(strstr(doc, ">a&lt;&amp;&quot;&apos;&gt;b?c?d?e -- f</text>"), "%s", doc);
    ck_assert_msg(strstr(doc, "<!-- written by attn: a<&\"'>b?c?d?e -  f -->"), "%s", doc);
    Xml x;
    ck_assert_msg(xml_read(&x, doc), "%s\n%s", x.err, doc);
    ck_assert_int_eq(x.n, 3);
    ck_assert_str_eq(x.el[2].text, "a<&\"'>b?c?d?e -- f");
    xml_free(&x);
    free(doc);
}
END_TEST

/* ---- the heat scale ------------------------------------------------------- */

/* c as a deuteranope sees it (Machado, Oliveira and Fernandes 2009,
 * severity 1, on linear RGB), in CIELAB's distance to d's. */
static double linear(double v)
{
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double srgb(double v)
{
    v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

static Rgb deuteranope(Rgb c)
{
    static const double m[3][3] = { { 0.367322, 0.860646, -0.227968 },
                                     { 0.280085, 0.672501, 0.047413 },
                                     { -0.011820, 0.042940, 0.968881 } };
    double in[3] = { linear(c.r), linear(c.g), linear(c.b) }, out[3];
    for (int k = 0; k < 3; k++)
        out[k] = srgb(m[k][0] * in[0] + m[k][1] * in[1] + m[k][2] * in[2]);
    return (Rgb){ (float)out[0], (float)out[1], (float)out[2] };
}

/* The distance in sRGB that a reader can tell apart: the channels' largest
 * difference. */
static float apart(Rgb a, Rgb b)
{
    return fmaxf(fabsf(a.r - b.r), fmaxf(fabsf(a.g - b.g), fabsf(a.b - b.b)));
}

START_TEST(the_scales_ends_stay_apart)
{
    /* the weights' scale: its ends apart in grey (lightness) and for a
     * deuteranope, its lightness monotone (check_ramp holds each step) */
    Rgb lo = ramp_sequential(0), hi = ramp_sequential(1);
    ck_assert_msg(ramp_lightness(hi) - ramp_lightness(lo) > 60, "grey: L* %.1f and %.1f", ramp_lightness(lo),
                  ramp_lightness(hi));
    ck_assert_msg(ramp_lightness(deuteranope(hi)) - ramp_lightness(deuteranope(lo)) > 60, "deuteranope");
    /* the signed scale: its ends share a lightness by design (it shows
     * size), so their hue tells the sign: still apart for a deuteranope */
    Rgb neg = ramp_diverging(-1), pos = ramp_diverging(1);
    ck_assert_msg(apart(deuteranope(neg), deuteranope(pos)) > 0.25f, "the signed ends merge for a deuteranope");
    ck_assert_msg(ramp_lightness(ramp_diverging(0)) - ramp_lightness(pos) > 40, "zero stands apart in grey");
    /* a grey is the lightness of its colour */
    for (int k = 0; k <= 10; k++) {
        Rgb c = ramp_sequential((float)k / 10), g = ramp_grey(c);
        ck_assert_msg(g.r == g.g && g.g == g.b && fabsf(ramp_lightness(g) - ramp_lightness(c)) < 0.5f,
                      "the grey of %d/10", k);
    }
}
END_TEST

Suite *svg_suite(void)
{
    Suite *s = suite_create("svg");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_test(core, a_pane_as_the_screen_draws_it);
    tcase_add_test(core, a_students_picture_keeps_the_asked_cell);
    tcase_add_test(core, set_moves_the_numbers_and_no_color_is_grey);
    tcase_add_test(core, the_scales_ends_stay_apart);
    tcase_add_test(core, every_text_is_escaped);
    suite_add_tcase(s, core);
    TCase *model = tcase_create("model");
    tcase_set_timeout(model, 60);
    tcase_add_test(model, every_head_and_one_head);
    suite_add_tcase(s, model);
    TCase *screen = tcase_create("screen");
    tcase_set_timeout(screen, 120);
    tcase_add_test(screen, w_writes_the_pane_under_the_cursor);
    tcase_add_test(screen, w_writes_every_head_or_the_head);
    suite_add_tcase(s, screen);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, a_folder_of_someone_elses_files_is_refused);
    suite_add_tcase(s, limits);
    return s;
}
