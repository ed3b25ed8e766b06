/*
 * csv.c - the CSV reader (see csv.h). Two passes over the bytes: the first
 * counts lines and fields and decides where the labels are, so the shape
 * is checked against the limit before anything is allocated; the second
 * reads the numbers and the labels.
 */
#include "csv.h"

#include "alloc.h"
#include "numfmt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The longest label kept, in bytes (a label is shown in a pane's margin). */
#define CSV_MAX_LABEL 64

/* A line of the file: its bytes (without the line end) and its number. */
typedef struct {
    const char *p, *end;    /* the whole file                               */
    const char *start, *stop; /* the current line                          */
    int row;                /* its number, from 1                           */
} Lines;

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The next line that is not blank; 0 at the end. */
static int next_line(Lines *l)
{
    while (l->p < l->end) {
        const char *nl = memchr(l->p, '\n', (size_t)(l->end - l->p));
        l->start = l->p;
        l->stop = nl ? nl : l->end;
        l->p = nl ? nl + 1 : l->end;
        l->row++;
        while (l->stop > l->start && is_blank(l->stop[-1]))
            l->stop--;
        const char *q = l->start;
        while (q < l->stop && is_blank(*q))
            q++;
        if (q < l->stop)
            return 1;
    }
    return 0;
}

/* The field at *p before e into buf (cut at size - 1; its whole length in
 * *full), unquoted and trimmed; *p moves past it and its comma. Returns 1
 * when a comma followed (another field comes), 0 at the line's end, -1 on
 * a quote never closed. */
static int read_field(const char **p, const char *e, char *buf, size_t size, size_t *full)
{
    const char *q = *p;
    size_t n = 0;
    while (q < e && is_blank(*q))
        q++;
    if (q < e && *q == '"') {
        for (q++;; q++) {
            if (q >= e)
                return -1;
            if (*q == '"') {
                if (q + 1 < e && q[1] == '"')
                    q++;
                else
                    break;
            }
            if (n + 1 < size)
                buf[n] = *q;
            n++;
        }
        q++;
        while (q < e && *q != ',')   /* blanks after the closing quote */
            q++;
    } else {
        const char *s = q;
        while (q < e && *q != ',')
            q++;
        const char *t = q;
        while (t > s && is_blank(t[-1]))
            t--;
        for (const char *c = s; c < t; c++, n++)
            if (n + 1 < size)
                buf[n] = *c;
    }
    buf[n < size ? n : size - 1] = '\0';
    *full = n;
    if (q < e && *q == ',') {
        *p = q + 1;
        return 1;
    }
    *p = q;
    return 0;
}

/* Is the field text a number for this reader? Decimal digits, or the
 * words inf and -inf. A decimal too large for a float32 (1e400 as much as
 * 1e39) is still a number: read_line refuses it by name, as the lesson
 * language refuses it as a literal. nan, 0x10 and 1e5f are not numbers. */
static int as_number(const char *s, double *v)
{
    const char *t = s + (*s == '+' || *s == '-');
    if (strcasecmp(t, "inf") == 0 || strcasecmp(t, "infinity") == 0) {
        *v = *s == '-' ? -INFINITY : INFINITY;
        return 1;
    }
    if (!*s || strspn(s, "0123456789.eE+-") != strlen(s) || !strpbrk(s, "0123456789"))
        return 0;
    char *stop;
    *v = strtod(s, &stop);
    if (*stop != '\0' || stop == s)
        return 0;
    if (isinf(*v))      /* a decimal that overflowed, not the word inf */
        *v = *v > 0 ? HUGE_VAL : -HUGE_VAL;
    return 1;
}

/* Does the field text look like a number someone meant, though this reader
 * does not take it (nan, 0x10, 1e5f)? Then it is refused, never taken as a
 * label: a matrix never loses a column silently. */
static int looks_numeric(const char *s)
{
    const char *t = s + (*s == '+' || *s == '-');
    return strcasecmp(t, "nan") == 0 || ((t[0] >= '0' && t[0] <= '9') || (t[0] == '.' && t[1] >= '0' && t[1] <= '9'));
}

/* What one pass over the current line finds. */
typedef struct {
    int fields;             /* how many                                     */
    int numbers;            /* of them numbers                              */
    int first_number;       /* field 1 is a number                          */
    int first_numeric;      /* field 1 looks like one (nan, 0x10, 12abc)    */
} LineSurvey;

/* Walk the current line once (the survey is linear in the file); -1 on a
 * quote never closed. */
static int survey_line(const Lines *l, LineSurvey *ls)
{
    const char *p = l->start;
    char buf[72];
    size_t full;
    int more;
    memset(ls, 0, sizeof *ls);
    do {
        more = read_field(&p, l->stop, buf, sizeof buf, &full);
        if (more < 0)
            return -1;
        double v;
        int number = full < sizeof buf && as_number(buf, &v);
        ls->numbers += number;
        if (ls->fields == 0) {
            ls->first_number = number;
            ls->first_numeric = !number && full < sizeof buf && looks_numeric(buf);
        }
        ls->fields++;
    } while (more);
    return 0;
}

typedef struct {
    int header;             /* the first line is a header                   */
    int row_labels;         /* the first column is labels                   */
    int fields;             /* per line                                     */
    long long rows;         /* lines of numbers                             */
} Layout;

static attn_status survey(const char *bytes, size_t len, Layout *lay, AttnError *err)
{
    Lines l = { bytes, bytes + len, NULL, NULL, 0 };
    memset(lay, 0, sizeof *lay);
    int first_row = 0, first_data = 1;
    while (next_line(&l)) {
        LineSurvey ls;
        if (survey_line(&l, &ls) < 0)
            return attn_fail(err, ATTN_E_ARG, "row %d: a quote is never closed", l.row);
        int n = ls.fields;
        if (!first_row) {
            first_row = l.row;
            lay->fields = n;
            lay->header = ls.numbers == 0 && !ls.first_numeric;
            if (lay->header)
                continue;
        } else if (n != lay->fields) {
            return attn_fail(err, ATTN_E_SHAPE, "row %d has %d field%s, but row %d has %d", l.row, n,
                             n == 1 ? "" : "s", first_row, lay->fields);
        }
        if (first_data) {
            /* a first field that is meant as a number (nan, 0x10) is
             * refused where it stands, not taken for a label */
            lay->row_labels = n > 1 && !ls.first_number && !ls.first_numeric;
            first_data = 0;
        }
        lay->rows++;
    }
    if (!first_row)
        return attn_fail(err, ATTN_E_SHAPE, "the file holds no numbers");
    if (lay->rows == 0)
        return attn_fail(err, ATTN_E_SHAPE, "the file has a header but no rows of numbers");
    return ATTN_OK;
}

static void free_names(char **names, long long n)
{
    if (!names)
        return;
    for (long long i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

typedef struct {
    Mat *m;
    char **rl, **cl;        /* labels being read (NULL: none)              */
    CsvLabelCheck ok;
} Reading;

/* Keep field (row r, column c of the file) as label *slot. */
static attn_status keep_label(Reading *rd, char **slot, const char *text, size_t full, int r, int c,
                              AttnError *err)
{
    if (full > CSV_MAX_LABEL)
        return attn_fail(err, ATTN_E_LIMIT, "row %d, column %d: a label of %zu bytes; the limit is %d", r, c, full,
                         CSV_MAX_LABEL);
    if (rd->ok && !rd->ok(text))
        return attn_fail(err, ATTN_E_ARG,
                         "row %d, column %d: the label holds a control character, a bidirectional control or "
                         "bytes that are not UTF-8", r, c);
    *slot = attn_malloc(full + 1);
    if (*slot)
        memcpy(*slot, text, full + 1);
    return *slot ? ATTN_OK : attn_fail(err, ATTN_E_NOMEM, "out of memory reading the CSV");
}

/* Read the current line's fields: labels or numbers of matrix row i
 * (-1: the header). */
static attn_status read_line(Reading *rd, const Lines *l, const Layout *lay, long long i, AttnError *err)
{
    const char *p = l->start;
    char buf[CSV_MAX_LABEL + 8];
    size_t full;
    for (int k = 0; k < lay->fields; k++) {
        read_field(&p, l->stop, buf, sizeof buf, &full);
        int j = k - lay->row_labels;    /* the matrix column; -1: the label */
        if (i < 0) {
            if (j >= 0) {
                attn_status st = keep_label(rd, &rd->cl[j], buf, full, l->row, k + 1, err);
                if (st != ATTN_OK)
                    return st;
            }
            continue;
        }
        if (j < 0) {
            attn_status st = keep_label(rd, &rd->rl[i], buf, full, l->row, k + 1, err);
            if (st != ATTN_OK)
                return st;
            continue;
        }
        double v;
        if (full == 0)
            return attn_fail(err, ATTN_E_ARG, "row %d, column %d is empty", l->row, k + 1);
        if (full >= sizeof buf || !as_number(buf, &v))
            return attn_fail(err, ATTN_E_ARG, "row %d, column %d ('%.24s%s') is not a number", l->row, k + 1, buf,
                             full > 24 ? "..." : "");
        if (!isinf(v) || !strpbrk(buf, "iI")) {
            if (!num_fits_float(v))     /* 1e39, 1e400: the lesson language refuses them too */
                return attn_fail(err, ATTN_E_ARG, "row %d, column %d (%s) is beyond float32 (about 3.4e38)", l->row,
                                 k + 1, buf);
        }
        mat_set(rd->m, (int)i, j, (float)v);
    }
    return ATTN_OK;
}

/* Put the labels read on the matrix. */
static attn_status attach(Reading *rd, AttnError *err)
{
    Mat *m = rd->m;
    Labels *rl = rd->rl ? labels_new(m->rows, (const char *const *)rd->rl) : NULL;
    Labels *cl = rd->cl ? labels_new(m->cols, (const char *const *)rd->cl) : NULL;
    int ok = (!rd->rl || rl) && (!rd->cl || cl);
    if (ok) {
        mat_set_row_labels(m, rl);
        mat_set_col_labels(m, cl);
    }
    labels_free(rl);
    labels_free(cl);
    return ok ? ATTN_OK : attn_fail(err, ATTN_E_NOMEM, "out of memory reading the CSV");
}

attn_status csv_read(Mat **out, const char *bytes, size_t len, long max_elems, CsvLabelCheck label_ok,
                     AttnError *err)
{
    *out = NULL;
    if (len >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0) {   /* a byte-order mark */
        bytes += 3;
        len -= 3;
    }
    Layout lay;
    attn_status st = survey(bytes, len, &lay, err);
    if (st != ATTN_OK)
        return st;
    long long cols = lay.fields - lay.row_labels;
    if (lay.rows > max_elems || lay.rows * cols > max_elems)
        return attn_fail(err, ATTN_E_LIMIT, "a %lldx%lld matrix is over the limit of %ld elements per matrix",
                         lay.rows, cols, max_elems);
    Reading rd = { mat_new((int)lay.rows, (int)cols, err), NULL, NULL, label_ok };
    if (!rd.m)
        return err ? err->code : ATTN_E_NOMEM;
    if (lay.row_labels)
        rd.rl = attn_calloc((size_t)lay.rows, sizeof *rd.rl);
    if (lay.header)
        rd.cl = attn_calloc((size_t)cols, sizeof *rd.cl);
    if ((lay.row_labels && !rd.rl) || (lay.header && !rd.cl))
        st = attn_fail(err, ATTN_E_NOMEM, "out of memory reading the CSV");
    Lines l = { bytes, bytes + len, NULL, NULL, 0 };
    for (long long i = lay.header ? -1 : 0; st == ATTN_OK && next_line(&l); i++)
        st = read_line(&rd, &l, &lay, i, err);
    if (st == ATTN_OK)
        st = attach(&rd, err);
    free_names(rd.rl, lay.rows);
    free_names(rd.cl, cols);
    if (st != ATTN_OK) {
        mat_free(rd.m);
        return st;
    }
    *out = rd.m;
    return ATTN_OK;
}
