/*
 * mat.c - the matrix type: allocation with size checks, reference counting,
 * views that share a parent's buffer, shared axis labels, and provenance.
 *
 * Lifetime: a Mat holds references to its provenance operands (prov.a,
 * prov.b, prov.parts); a view's prov.a is its parent, which owns the buffer
 * the view points into. Dropping the last reference releases those in turn.
 * The release walks an explicit work list rather than recursing, so a chain
 * of a million operations frees without growing the C stack.
 */
#include "alloc.h"
#include "mat.h"
#include "mat_make.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- size checks and allocation ------------------------------------ */

attn_status mat_check_size(int rows, int cols, AttnError *err)
{
    if (rows <= 0 || cols <= 0)
        return attn_fail(err, ATTN_E_ARG,
                         "a matrix needs at least one row and one column, not %dx%d",
                         rows, cols);
    int64_t elems = (int64_t)rows * (int64_t)cols;
    if (elems > (int64_t)MAT_MAX_ELEMS)
        return attn_fail(err, ATTN_E_TOO_BIG,
                         "a %dx%d matrix would hold %lld numbers; the limit is %lld",
                         rows, cols, (long long)elems, (long long)MAT_MAX_ELEMS);
    return ATTN_OK;
}

/* The last serial given (threads make matrices too: attn bench, a class). */
static atomic_ulong last_serial;

/* A zeroed Mat header with one reference, no data and a new serial. */
static Mat *mat_header(int rows, int cols, AttnError *err)
{
    Mat *m = attn_calloc(1, sizeof *m);
    if (!m) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory for a %dx%d matrix", rows, cols);
        return NULL;
    }
    m->serial = atomic_fetch_add(&last_serial, 1) + 1;
    m->refs = 1;
    m->rows = rows;
    m->cols = cols;
    m->ld = cols;
    m->prov.op = OP_INPUT;
    return m;
}

Mat *mat_new(int rows, int cols, AttnError *err)
{
    if (mat_check_size(rows, cols, err) != ATTN_OK)
        return NULL;
    Mat *m = mat_header(rows, cols, err);
    if (!m)
        return NULL;
    m->buf = attn_calloc((size_t)rows * (size_t)cols, sizeof *m->buf);
    if (!m->buf) {
        free(m);
        attn_fail(err, ATTN_E_NOMEM, "out of memory for a %dx%d matrix", rows, cols);
        return NULL;
    }
    m->data = m->buf;
    attn_error_clear(err);
    return m;
}

Mat *mat_from(int rows, int cols, const float *values, AttnError *err)
{
    if (!values) {
        attn_fail(err, ATTN_E_ARG, "no values given for a %dx%d matrix", rows, cols);
        return NULL;
    }
    Mat *m = mat_new(rows, cols, err);
    if (m)
        memcpy(m->buf, values, (size_t)rows * (size_t)cols * sizeof *m->buf);
    return m;
}

Mat *mat_view(const Mat *parent, MatOp op, int r0, int c0, int rows, int cols, AttnError *err)
{
    if (!parent) {
        attn_fail(err, ATTN_E_ARG, "no matrix to take a view of");
        return NULL;
    }
    if (rows <= 0 || cols <= 0 || r0 < 0 || c0 < 0 ||
        r0 > parent->rows - rows || c0 > parent->cols - cols) {
        attn_fail(err, ATTN_E_RANGE, "a %dx%d view at (%d, %d) does not fit in a %dx%d matrix",
                  rows, cols, r0, c0, parent->rows, parent->cols);
        return NULL;
    }
    Mat *v = mat_header(rows, cols, err);
    if (!v)
        return NULL;
    v->ld = parent->ld;
    v->data = parent->data + (size_t)r0 * (size_t)parent->ld + (size_t)c0;
    v->buf = NULL;
    mat_set_prov(v, op, parent, NULL);  /* keeps the buffer's owner alive */
    attn_error_clear(err);
    return v;
}

Mat *mat_copy(const Mat *m, AttnError *err)
{
    if (!m) {
        attn_fail(err, ATTN_E_ARG, "no matrix to copy");
        return NULL;
    }
    Mat *c = mat_new(m->rows, m->cols, err);
    if (!c)
        return NULL;
    for (int i = 0; i < m->rows; i++)
        memcpy(mat_row(c, i), mat_row(m, i), (size_t)m->cols * sizeof(float));
    if (m->masked) {
        int lines = mat_masked_len(m);
        c->masked = attn_malloc((size_t)lines);
        if (!c->masked) {
            mat_free(c);
            attn_fail(err, ATTN_E_NOMEM, "out of memory copying a %dx%d matrix", m->rows, m->cols);
            return NULL;
        }
        memcpy(c->masked, m->masked, (size_t)lines);
        c->n_masked = m->n_masked;
        c->masked_cols = m->masked_cols;
    }
    memcpy(c->name, m->name, sizeof c->name);
    c->row_labels = labels_retain(m->row_labels);
    c->col_labels = labels_retain(m->col_labels);
    mat_set_prov(c, OP_COPY, m, NULL);
    return c;
}

Mat *mat_retain(const Mat *m)
{
    Mat *mm = (Mat *)m;  /* the count is not part of the value */
    if (mm)
        mm->refs++;
    return mm;
}

/* ---- release without recursion -------------------------------------- */

/* A stack of matrices whose count reached zero, waiting to be freed. */
typedef struct {
    Mat *local[64];
    Mat **items;
    int n, cap;
} DeadList;

static void mat_destroy_list(DeadList *dl);

/* Drop one reference of m; if it was the last, queue m on dl. If the queue
 * cannot grow (no memory), free m's subtree by recursion instead. */
static void mat_drop(DeadList *dl, Mat *m)
{
    if (!m || --m->refs > 0)
        return;
    if (dl->n == dl->cap) {
        int cap = dl->cap * 2;
        Mat **grown = dl->items == dl->local ? attn_malloc((size_t)cap * sizeof *grown)
                                             : attn_realloc(dl->items, (size_t)cap * sizeof *grown);
        if (!grown) {
            DeadList sub = { .n = 0, .cap = 64 };
            sub.items = sub.local;
            sub.items[sub.n++] = m;
            mat_destroy_list(&sub);
            return;
        }
        if (dl->items == dl->local)
            memcpy(grown, dl->local, sizeof dl->local);
        dl->items = grown;
        dl->cap = cap;
    }
    dl->items[dl->n++] = m;
}

/* Release a provenance's operands into dl and clear it. */
static void prov_release(DeadList *dl, Prov *p)
{
    mat_drop(dl, p->a);
    mat_drop(dl, p->b);
    for (int i = 0; i < p->n_parts; i++)
        mat_drop(dl, p->parts[i]);
    free(p->parts);
    memset(p, 0, sizeof *p);
}

static void mat_destroy_list(DeadList *dl)
{
    while (dl->n > 0) {
        Mat *m = dl->items[--dl->n];
        prov_release(dl, &m->prov);
        labels_free(m->row_labels);
        labels_free(m->col_labels);
        free(m->masked);
        free(m->buf);
        free(m);
    }
    if (dl->items != dl->local)
        free(dl->items);
}

void mat_free(Mat *m)
{
    DeadList dl = { .n = 0, .cap = 64 };
    dl.items = dl.local;
    mat_drop(&dl, m);
    mat_destroy_list(&dl);
}

/* ---- names, shapes ------------------------------------------------------ */

void mat_set_name(Mat *m, const char *name)
{
    if (!m)
        return;
    snprintf(m->name, sizeof m->name, "%s", name ? name : "");
}

const char *mat_shape_str(const Mat *m, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    if (m)
        snprintf(buf, size, "%dx%d", m->rows, m->cols);
    else
        snprintf(buf, size, "(none)");
    return buf;
}

/* ---- labels --------------------------------------------------------------- */

Labels *labels_new(int n, const char *const *names)
{
    if (n <= 0 || !names)
        return NULL;
    Labels *l = attn_calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->names = attn_calloc((size_t)n, sizeof *l->names);
    if (!l->names) {
        free(l);
        return NULL;
    }
    l->refs = 1;
    l->n = n;
    for (int i = 0; i < n; i++) {
        const char *s = names[i] ? names[i] : "";
        size_t len = strlen(s) + 1;
        l->names[i] = attn_malloc(len);
        if (!l->names[i]) {
            labels_free(l);
            return NULL;
        }
        memcpy(l->names[i], s, len);
    }
    return l;
}

Labels *labels_retain(Labels *l)
{
    if (l)
        l->refs++;
    return l;
}

void labels_free(Labels *l)
{
    if (!l || --l->refs > 0)
        return;
    for (int i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
    free(l);
}

Labels *labels_slice(const Labels *l, int lo, int hi)
{
    if (!l || lo < 0 || hi > l->n || lo >= hi)
        return NULL;
    return labels_new(hi - lo, (const char *const *)l->names + lo);
}

void mat_set_row_labels(Mat *m, Labels *l)
{
    if (!m || (l && l->n != m->rows))
        return;
    labels_retain(l);
    labels_free(m->row_labels);
    m->row_labels = l;
}

void mat_set_col_labels(Mat *m, Labels *l)
{
    if (!m || (l && l->n != m->cols))
        return;
    labels_retain(l);
    labels_free(m->col_labels);
    m->col_labels = l;
}

const char *mat_row_label(const Mat *m, int i)
{
    if (!m || !m->row_labels || i < 0 || i >= m->row_labels->n)
        return NULL;
    return m->row_labels->names[i];
}

const char *mat_col_label(const Mat *m, int j)
{
    if (!m || !m->col_labels || j < 0 || j >= m->col_labels->n)
        return NULL;
    return m->col_labels->names[j];
}

/* ---- provenance ----------------------------------------------------------- */

/* A view's data lives in the buffer of its prov.a. Before a view's
 * provenance is replaced it takes its own copy of the data; returns 0 when
 * that copy cannot be made (the provenance is then left as it was). */
static int view_detach(Mat *m)
{
    if (m->buf || !m->prov.a)
        return 1;
    float *buf = attn_malloc((size_t)m->rows * (size_t)m->cols * sizeof *buf);
    if (!buf)
        return 0;
    for (int i = 0; i < m->rows; i++)
        memcpy(buf + (size_t)i * (size_t)m->cols, mat_row(m, i), (size_t)m->cols * sizeof *buf);
    m->buf = buf;
    m->data = buf;
    m->ld = m->cols;
    return 1;
}

void mat_set_prov(Mat *m, MatOp op, const Mat *a, const Mat *b)
{
    if (!m || !view_detach(m))
        return;
    Mat *ra = mat_retain(a), *rb = mat_retain(b);  /* before releasing: a may be the old operand */
    DeadList dl = { .n = 0, .cap = 64 };
    dl.items = dl.local;
    prov_release(&dl, &m->prov);
    mat_destroy_list(&dl);
    m->prov.op = op;
    m->prov.a = ra;
    m->prov.b = rb;
}

attn_status mat_set_prov_parts(Mat *m, MatOp op, Mat *const *parts, int n, AttnError *err)
{
    if (!m || n <= 0 || !parts)
        return attn_fail(err, ATTN_E_ARG, "no parts to record");
    Mat **copy = attn_malloc((size_t)n * sizeof *copy);
    if (!copy)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory recording %d parts", n);
    for (int i = 0; i < n; i++)
        copy[i] = mat_retain(parts[i]);
    mat_set_prov(m, op, NULL, NULL);
    m->prov.parts = copy;
    m->prov.n_parts = n;
    return ATTN_OK;
}

int mat_cell_masked(const Mat *m, int i, int j)
{
    if (!m || (m->prov.op != OP_SOFTMAX_ROWS && m->prov.op != OP_SOFTMAX_COLS) || !m->prov.a)
        return 0;
    const Mat *s = m->prov.a;
    if (i < 0 || j < 0 || i >= m->rows || j >= m->cols || i >= s->rows || j >= s->cols)
        return 0;
    float score = mat_get(s, i, j);
    return isinf(score) && score < 0 && mat_get(m, i, j) == 0.0f;
}

int mat_line_masked(const Mat *m, int line, int by_rows)
{
    if (!m || !m->masked || m->n_masked <= 0 || by_rows == m->masked_cols)
        return 0;
    return line >= 0 && line < (by_rows ? m->rows : m->cols) && m->masked[line];
}

const char *mat_op_name(MatOp op)
{
#define MAT_OP_SPELLING(id, spelling) [OP_##id] = spelling,
    static const char *const spelling[OP_COUNT] = { MAT_OPS(MAT_OP_SPELLING) };
#undef MAT_OP_SPELLING
    return (int)op >= 0 && op < OP_COUNT ? spelling[op] : "unknown";
}
