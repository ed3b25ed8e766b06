/*
 * lesson_diagnose.c - naming the mistake behind a wrong answer. The judge
 * rewrites the exercise's own answer with the mistakes students make, from
 * the provenance of the matrix it asks about (the scale left out or done
 * twice, softmax along the other axis, a transposed matrix or operand, an
 * index off by one, the mask left out, softmax twice, the bias left out, e
 * taken as 3), plus the author's `mistake` lines, a sign slip and rounding
 * too early; the first rewrite whose value the student's answer matches is
 * named. The messages never give the right value away.
 */
#include "explain.h"
#include "lesson.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    double got, tol, want;
    char *msg;
    size_t size;
    int found;
} Hunt;

/* got matches v (and v is not the right answer itself): say why. */
static void candidate(Hunt *h, double v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void candidate(Hunt *h, double v, const char *fmt, ...)
{
    if (h->found || !isfinite(v) || lesson_judge_distance(v, h->want) <= h->tol
        || lesson_judge_distance(h->got, v) > h->tol)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->msg, h->size, fmt, ap);
    va_end(ap);
    h->found = 1;
}

/* What a softmax line is made of: z_k = x[k] * f + mask[k], in base b. */
typedef struct {
    const Mat *x;           /* the scores                                    */
    double f;               /* the scale applied to them                     */
    const Mat *mask;        /* added after scaling, or NULL                  */
} SoftIn;

static int has_neg_inf(const Mat *m)
{
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++)
            if (mat_get(m, i, j) == -INFINITY)
                return 1;
    return 0;
}

static int is_scalar(const Mat *m) { return m && m->rows == 1 && m->cols == 1; }

/* Follow copies to the matrix that was computed. */
static const Mat *source(const Mat *m)
{
    while (m && m->prov.op == OP_COPY && m->prov.a)
        m = m->prov.a;
    return m;
}

/* Take y apart into scores, scale and mask: y = x / c + mask, y = x * c,
 * ... as far as its provenance shows. */
static SoftIn soft_input(const Mat *y)
{
    SoftIn in = { y, 1.0, NULL };
    y = source(y);
    in.x = y;
    if (y->prov.op == OP_ADD && y->prov.a && y->prov.b) {
        if (has_neg_inf(y->prov.b)) {
            in.mask = y->prov.b;
            y = source(y->prov.a);
        } else if (has_neg_inf(y->prov.a)) {
            in.mask = y->prov.a;
            y = source(y->prov.b);
        }
        in.x = y;
    }
    if (y->prov.op == OP_DIV && is_scalar(y->prov.b) && y->prov.a) {
        in.x = y->prov.a;
        in.f = 1.0 / mat_get(y->prov.b, 0, 0);
    } else if (y->prov.op == OP_MUL && is_scalar(y->prov.b) && y->prov.a) {
        in.x = y->prov.a;
        in.f = mat_get(y->prov.b, 0, 0);
    }
    return in;
}

/* Broadcast read: a row vector or a 1x1 stands for every row/cell. */
static double at(const Mat *m, int i, int j)
{
    return mat_get(m, m->rows == 1 ? 0 : i, m->cols == 1 ? 0 : j);
}

/* Softmax of the line through (i, j) of in, along rows (over j) or columns
 * (over i), at (i, j): with scale f, the mask or not, in base `base`. */
static double soft_at(const SoftIn *in, int i, int j, int along_rows, double f, int with_mask, double base)
{
    const Mat *x = in->x;
    int n = along_rows ? x->cols : x->rows;
    double z[4096], hi = -INFINITY;
    if (n > 4096)
        return NAN;
    for (int k = 0; k < n; k++) {
        int r = along_rows ? i : k, c = along_rows ? k : j;
        z[k] = mat_get(x, r, c) * f + (with_mask && in->mask ? at(in->mask, r, c) : 0);
        hi = fmax(hi, z[k]);
    }
    if (!isfinite(hi))
        return NAN;
    double sum = 0, lb = log(base);
    for (int k = 0; k < n; k++)
        sum += exp((z[k] - hi) * lb);
    return exp((z[along_rows ? j : i] - hi) * lb) / sum;
}

/* The softmax mistakes, for m = softmax_rows(y) or softmax_cols(y). */
static void softmax_mistakes(Hunt *h, const Mat *m, int i, int j)
{
    int rows = m->prov.op == OP_SOFTMAX_ROWS;
    SoftIn in = soft_input(m->prov.a);
    if (in.x->rows != m->rows || in.x->cols != m->cols)
        return;
    const char *line = rows ? "row" : "column", *other = rows ? "column" : "row";
    int k = rows ? i + 1 : j + 1, ko = rows ? j + 1 : i + 1;
    candidate(h, soft_at(&in, i, j, !rows, in.f, 1, M_E),
              "that is softmax down %s %d; here each %s is a distribution: softmax along %s %d", other, ko, line,
              line, k);
    if (in.f != 1.0) {
        candidate(h, soft_at(&in, i, j, rows, 1.0, 1, M_E),
                  "the scores went into softmax unscaled: divide by sqrt(d_k) first");
        candidate(h, soft_at(&in, i, j, rows, in.f * in.f, 1, M_E),
                  "the scores were scaled twice (or divided by d_k): divide by sqrt(d_k) once");
    }
    if (in.mask)
        candidate(h, soft_at(&in, i, j, rows, in.f, 0, M_E),
                  "the mask was left out (or added after the softmax): add it to the scores before the softmax");
    candidate(h, soft_at(&in, i, j, rows, in.f, 1, 3.0),
              "that is softmax with 3 in place of e: e is 2.71828..., and the shortcut shifts every weight");
    SoftIn twice = { m, 1.0, NULL };
    candidate(h, soft_at(&twice, i, j, rows, 1.0, 0, M_E), "softmax was applied twice: once is enough");
}

/* The mistakes the operation that made m invites. */
static void operation_mistakes(Hunt *h, const Mat *m, int i, int j)
{
    const Prov *p = &m->prov;
    switch (p->op) {
    case OP_SOFTMAX_ROWS: case OP_SOFTMAX_COLS:
        softmax_mistakes(h, m, i, j);
        break;
    case OP_DIV: case OP_MUL:
        if (is_scalar(p->b) && p->a && !is_scalar(p->a)) {
            double c = mat_get(p->b, 0, 0), x = at(p->a, i, j);
            char cell[64];
            explain_cell_name(p->a, p->a->rows == 1 ? 0 : i, p->a->cols == 1 ? 0 : j, cell, sizeof cell);
            candidate(h, x, "that is %s, before the %s by %.4g: the scaling was left out", cell,
                      p->op == OP_DIV ? "division" : "multiplication", c);
            if (p->op == OP_MUL)
                c = 1.0 / c;
            candidate(h, x / (c * c), "the scaling was applied twice (or d_k used for sqrt(d_k)): once is enough");
            candidate(h, x * c, "that multiplies where it should divide");
        }
        break;
    case OP_ADD:
        /* a bias row added to every row */
        if (p->a && p->b && p->b->rows == 1 && m->rows > 1 && !has_neg_inf(p->b))
            candidate(h, at(p->a, i, j), "the bias was left out: add its entry %d", j + 1);
        else if (p->a && p->b && p->b->cols == 1 && m->cols > 1 && !has_neg_inf(p->b))
            candidate(h, at(p->a, i, j), "the bias was left out: add its entry %d", i + 1);
        break;
    case OP_MATMUL: {
        /* an operand used the other way round, where the shapes allow it */
        const Mat *a = p->a, *b = p->b;
        if (!a || !b)
            break;
        int k_n = p->trans_a ? a->rows : a->cols;
        for (int which = 0; which < 2; which++) {
            int ta = p->trans_a ^ (which == 0), tb = p->trans_b ^ (which == 1);
            int ka = ta ? a->rows : a->cols, kb = tb ? b->cols : b->rows;
            if (ka != kb || ka != k_n)
                continue;
            double s = 0;
            for (int k = 0; k < ka; k++)
                s += (double)(ta ? mat_get(a, k, i) : mat_get(a, i, k)) * (tb ? mat_get(b, j, k) : mat_get(b, k, j));
            candidate(h, s, "one operand of the product was taken transposed: row %d of the left times column %d "
                            "of the right, as written", i + 1, j + 1);
        }
        break;
    }
    default:
        break;
    }
}

int lesson_answer_cell(const LessonExercise *ex, LessonCell *cell)
{
    const char *answer = ex->answer;
    int n = 0;
    while (isalnum((unsigned char)answer[n]) || answer[n] == '_')
        n++;
    if (n == 0 || (size_t)n >= sizeof cell->name || answer[n] != '[')
        return 0;
    int r, c, used = 0;
    if (sscanf(answer + n, "[%d ,%d ]%n", &r, &c, &used) != 2 || answer[n + used] != '\0')
        return 0;
    memcpy(cell->name, answer, (size_t)n);
    cell->name[n] = '\0';
    cell->row = r - 1;
    cell->col = c - 1;
    return 1;
}

/* Digits after the point in what was typed (the last number in it). */
static int typed_decimals(const char *typed)
{
    const char *dot = strrchr(typed, '.');
    if (!dot)
        return 0;
    int d = 0;
    while (isdigit((unsigned char)dot[1 + d]))
        d++;
    return d;
}

int lesson_diagnose(const LessonState *s, const LessonExercise *ex, const char *typed, double got, double want,
                    char *msg, size_t size)
{
    Hunt h = { got, ex->within, want, msg, size, 0 };
    msg[0] = '\0';
    /* the author knows their lesson best */
    for (int k = 0; k < ex->n_mistakes && !h.found; k++) {
        LessonError err;
        Mat *v = lesson_eval_expr(s, ex->mistakes[k].expr, &err);
        if (v && v->rows == 1 && v->cols == 1)
            candidate(&h, mat_get(v, 0, 0), "%s", ex->mistakes[k].message);
        mat_free(v);
    }
    LessonCell cell;
    const Mat *m = lesson_answer_cell(ex, &cell) ? lesson_state_get(s, cell.name) : NULL;
    const char *name = cell.name;
    int i = cell.row, j = cell.col;
    if (m && i >= 0 && j >= 0 && i < m->rows && j < m->cols) {
        const Mat *src = source(m);
        if (src->rows == m->rows && src->cols == m->cols)
            operation_mistakes(&h, src, i, j);
        if (j < m->rows && i < m->cols && !(i == j))
            candidate(&h, mat_get(m, j, i), "that is %s[%d,%d]: row and column swapped (the matrix transposed); "
                                            "the row comes first", name, j + 1, i + 1);
        static const int d[][2] = { { 1, 1 }, { -1, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };
        for (int k = 0; k < 6; k++) {
            int r = i + d[k][0], c = j + d[k][1];
            if (r >= 0 && c >= 0 && r < m->rows && c < m->cols)
                candidate(&h, mat_get(m, r, c), "that is %s[%d,%d], one off: rows and columns count from 1 here, "
                                                "so %s[%d,%d] is row %d, column %d", name, r + 1, c + 1, name,
                          i + 1, j + 1, i + 1, j + 1);
        }
    }
    candidate(&h, -want, "the sign is the wrong way round");
    int dec = typed_decimals(typed);
    if (!h.found && dec >= 1 && dec <= 3 && fabs(got - want) <= 0.6 * pow(10.0, -dec) && fabs(got - want) > ex->within
        && fabs(want) > ex->within)
        snprintf(msg, size, "close, but rounded too early: keep 4 decimals to the end (the answer must be within %g)",
                 ex->within);
    return h.found || msg[0] != '\0';
}
