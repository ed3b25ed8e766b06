/*
 * check_load.c - load("file") in the lesson language: the .npy reader
 * (engine/io/npy.c) and the CSV reader (engine/io/csv.c) on good files and on
 * every kind of bad one, each with its exact message; the round trip of the
 * files scripts/make-npy wrote (tests/data/); errors at the load's
 * FILE:LINE:COL through the loader hook; the file name as a string token;
 * and live reload noticing a changed data file.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "csv.h"
#include "escape.h"
#include "lesson.h"
#include "lessonfile.h"
#include "npy.h"
#include "session.h"

/* ---- building .npy bytes ---- */

typedef struct {
    char b[32768];
    size_t n;
} Bytes;

/* A .npy of version major with header dict and n data bytes from data
 * (data NULL: zeros). */
static Bytes npy(int major, const char *dict, const void *data, size_t n)
{
    static Bytes out;
    memset(&out, 0, sizeof out);
    size_t h = strlen(dict) + 1, p = major == 1 ? 10 : 12;
    memcpy(out.b, "\x93NUMPY", 6);
    out.b[6] = (char)major;
    out.b[7] = 0;
    for (size_t i = 0; i < p - 8; i++)
        out.b[8 + i] = (char)(h >> (8 * i));
    memcpy(out.b + p, dict, h - 1);
    out.b[p + h - 1] = '\n';
    ck_assert(p + h + n <= sizeof out.b);
    if (data)
        memcpy(out.b + p + h, data, n);
    out.n = p + h + n;
    return out;
}

/* npy_read must refuse b with exactly msg. */
static void npy_refuses(Bytes b, const char *msg)
{
    Mat *m = (Mat *)1;
    AttnError err = { 0 };
    attn_status st = npy_read(&m, b.b, b.n, 1L << 22, &err);
    ck_assert_msg(st != ATTN_OK, "accepted; wanted \"%s\"", msg);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(err.msg, msg);
}

static Mat *npy_ok(Bytes b)
{
    Mat *m = NULL;
    AttnError err = { 0 };
    ck_assert_msg(npy_read(&m, b.b, b.n, 1L << 22, &err) == ATTN_OK, "refused: %s", err.msg);
    return m;
}

static void expect_cells(const Mat *m, int rows, int cols, const float *want)
{
    ck_assert_int_eq(m->rows, rows);
    ck_assert_int_eq(m->cols, cols);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            ck_assert_msg(mat_get(m, i, j) == want[i * cols + j], "[%d,%d] is %.9g, want %.9g", i + 1, j + 1,
                          mat_get(m, i, j), want[i * cols + j]);
}

START_TEST(npy_byte_orders_and_fortran_order)
{
    float le[6] = { 1, 2, 3, 4, 5, 6 };
    Mat *m = npy_ok(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", le, sizeof le));
    expect_cells(m, 2, 3, le);
    mat_free(m);
    /* the same six numbers big-endian, and stored column by column */
    unsigned char be[24];
    for (int k = 0; k < 6; k++) {
        uint32_t u;
        memcpy(&u, &le[k], 4);
        for (int i = 0; i < 4; i++)
            be[4 * k + i] = (unsigned char)(u >> (24 - 8 * i));
    }
    m = npy_ok(npy(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", be, sizeof be));
    expect_cells(m, 2, 3, le);
    mat_free(m);
    float cm[6] = { 1, 4, 2, 5, 3, 6 };
    m = npy_ok(npy(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", cm, sizeof cm));
    expect_cells(m, 2, 3, le);
    mat_free(m);
    /* 1-D is one row; 0-D one cell; keys in any order, version 2 */
    m = npy_ok(npy(2, "{'shape': (6,), 'fortran_order': False, 'descr': '<f4'}", le, sizeof le));
    expect_cells(m, 1, 6, le);
    mat_free(m);
    double d = -0.75;
    m = npy_ok(npy(3, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", &d, sizeof d));
    float want = -0.75f;
    expect_cells(m, 1, 1, &want);
    mat_free(m);
}
END_TEST

START_TEST(npy_bad_files_say_what_is_wrong)
{
    const char *f4 = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }";
    Bytes b = npy(1, f4, NULL, 64);
    b.n -= 4;
    npy_refuses(b, "truncated: the header says 4x4 float32 (64 bytes) but 60 follow");
    b.n += 8;
    npy_refuses(b, "the shape does not match the data: the header says 4x4 float32 (64 bytes) but 68 follow");
    b = npy(1, f4, NULL, 64);
    b.b[1] = 'X';
    npy_refuses(b, "wrong magic: a .npy file starts with \\x93NUMPY");
    Bytes zip = { "PK\x03\x04", 4 };
    npy_refuses(zip, "wrong magic: a .npy file starts with \\x93NUMPY");
    Bytes cut = { "\x93NUMPY\x01", 7 };
    npy_refuses(cut, "truncated: the file ends after 7 bytes, inside its preamble");
    b = npy(1, f4, NULL, 64);
    b.b[6] = 4;
    npy_refuses(b, "version 4.0 is not read (1.0 to 3.0 are)");
    b = npy(2, f4, NULL, 64);
    b.b[8] = (char)0x20, b.b[9] = (char)0x4e;   /* 20000 */
    npy_refuses(b, "the header is 20000 bytes, over the limit of 10000");
    b = npy(1, f4, NULL, 0);
    b.n = 40;
    npy_refuses(b, "truncated: the header should be 60 bytes but 30 follow");
    npy_refuses(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }", NULL, 96),
                "a 3-D array (2x3x4): load reads 1-D and 2-D arrays");
    npy_refuses(npy(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", NULL, 16),
                "the data type '<c8' is not read: load reads float32, float64, int8..int64 and uint8..uint64");
    npy_refuses(npy(1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", NULL, 4),
                "the data type '<f2' is not read: load reads float32, float64, int8..int64 and uint8..uint64");
    npy_refuses(npy(1, "{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }", NULL, 8),
                "the data type '|f4' has no byte order ('|'), but its elements have 4 bytes");
    npy_refuses(npy(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", NULL, 8),
                "the header does not parse: 'descr' is not a string (structured arrays are not read)");
    npy_refuses(npy(1, "{'descr': '<f4', 'shape': (2,), }", NULL, 8),
                "the header does not parse: it has no 'fortran_order'");
    npy_refuses(npy(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }", NULL, 8),
                "the header does not parse: 'fortran_order' is neither True nor False");
    npy_refuses(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", NULL, 8),
                "the header does not parse: unknown key 'x'");
    npy_refuses(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", NULL, 8),
                "the header does not parse: 'shape' is not a tuple");
    npy_refuses(npy(1, "'descr': '<f4'", NULL, 8), "the header does not parse: it is not a dict ('{' missing)");
    npy_refuses(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 3), }", NULL, 0),
                "the array is empty (0x3): a matrix needs at least one value");
}
END_TEST

START_TEST(npy_values_and_limits)
{
    float v[2] = { 1, NAN };
    npy_refuses(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", v, sizeof v),
                "row 1, column 2 is NaN: a loaded matrix holds numbers or +-inf");
    double big[2] = { 1, 1e300 };
    npy_refuses(npy(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 1), }", big, sizeof big),
                "row 2, column 1 (1e+300) is beyond float32 (about 3.4e38)");
    float inf[2] = { -INFINITY, 2 };
    Mat *m = npy_ok(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", inf, sizeof inf));
    expect_cells(m, 1, 2, inf);
    mat_free(m);
    /* the shape alone is refused: no data, nothing allocated */
    npy_refuses(npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (5000, 5000), }", NULL, 0),
                "a 5000x5000 array is over the limit of 4194304 elements per matrix");
    npy_refuses(npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", NULL, 0),
                "a 99999999999x99999999999 array is over the limit of 4194304 elements per matrix");
    npy_refuses(npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", NULL, 0),
                "a dimension of the shape is too large");
}
END_TEST

/* ---- the files scripts/make-npy wrote, read through a lesson ---- */

START_TEST(npy_round_trip_of_the_script_files)
{
    LessonError err;
    Lesson *l = lessonfile_load("tests/data/roundtrip.lesson", &err);
    char buf[1024];
    ck_assert_msg(l != NULL, "%s", term_lesson_error(&err, buf, sizeof buf));
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(s != NULL, "%s", term_lesson_error(&err, buf, sizeof buf));
    static const float M[6] = { 1.5f, -2.25f, 3.0f, 0.125f, -0.5f, 1024.0f };
    static const char *const same[] = { "f32_le", "f32_be", "f64_le", "f64_be", "f32_fortran", "f64_be_fortran",
                                        "f32_v2", "f32_v3" };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        expect_cells(lesson_state_get(s, same[i]), 2, 3, M);
    static const float vec[4] = { 0.1f, 0.2f, 0.3f, 0.4f }, sc = 2.5f;
    expect_cells(lesson_state_get(s, "vector"), 1, 4, vec);
    expect_cells(lesson_state_get(s, "scalar"), 1, 1, &sc);
    static const struct {
        const char *name;
        float want[4];
    } ints[] = {
        { "i8", { -128, -1, 0, 127 } },
        { "u8", { 0, 1, 128, 255 } },
        { "i16_be", { -32768, -2, 3, 32767 } },
        { "u16_le", { 0, 1, 256, 65535 } },
        { "i32_le", { -2147483648.0f, -7, 7, (float)2147483647.0 } },
        { "u32_be", { 0, 1, 65536, (float)4294967295.0 } },
        { "i64_be", { -1099511627776.0f, -3, 3, 9007199254740992.0f } },
        { "u64_le", { 0, 5, 4294967296.0f, 9223372036854775808.0f } },
    };
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        expect_cells(lesson_state_get(s, ints[i].name), 2, 2, ints[i].want);
    ck_assert_int_eq(lesson_n_loads(l), 18);
    ck_assert_str_eq(lesson_load_path(l, 0), "f32-le.npy");
    ck_assert_str_eq(lesson_load_path(l, 17), "u64-le.npy");
    ck_assert_ptr_null(lesson_load_path(l, 18));
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

/* ---- CSV ---- */

static Mat *csv_ok(const char *text)
{
    Mat *m = NULL;
    AttnError err = { 0 };
    ck_assert_msg(csv_read(&m, text, strlen(text), 1L << 22, NULL, &err) == ATTN_OK, "refused: %s", err.msg);
    return m;
}

static void csv_refuses(const char *text, long max, const char *msg)
{
    Mat *m = (Mat *)1;
    AttnError err = { 0 };
    ck_assert_msg(csv_read(&m, text, strlen(text), max, NULL, &err) != ATTN_OK, "accepted; wanted \"%s\"", msg);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(err.msg, msg);
}

static void expect_labels(const Mat *m, const char *rows, const char *cols)
{
    char got[2][128] = { "", "" };
    for (int axis = 0; axis < 2; axis++)
        for (int i = 0; i < (axis ? m->cols : m->rows); i++) {
            const char *lab = axis ? mat_col_label(m, i) : mat_row_label(m, i);
            size_t u = strlen(got[axis]);
            snprintf(got[axis] + u, sizeof got[axis] - u, "%s%s", i ? "|" : "", lab ? lab : "-");
        }
    ck_assert_str_eq(got[0], rows);
    ck_assert_str_eq(got[1], cols);
}

START_TEST(csv_with_and_without_labels)
{
    static const float want[4] = { 1, 2, 3, 4.5f };
    Mat *m = csv_ok("1,2\n3,4.5\n");
    expect_cells(m, 2, 2, want);
    expect_labels(m, "-|-", "-|-");
    mat_free(m);
    m = csv_ok("a,b\n1,2\n3,4.5");
    expect_cells(m, 2, 2, want);
    expect_labels(m, "-|-", "a|b");
    mat_free(m);
    m = csv_ok("x,1,2\ny,3,4.5\n");
    expect_cells(m, 2, 2, want);
    expect_labels(m, "x|y", "-|-");
    mat_free(m);
    /* pandas' to_csv: an empty corner; a BOM, CRLF, blanks, a blank line, quotes */
    m = csv_ok("\xEF\xBB\xBF,\"a, b\",\"say \"\"hi\"\"\"\r\n\r\n  sky , 1 ,2\r\nis,3, 4.5 \r\n");
    expect_cells(m, 2, 2, want);
    expect_labels(m, "sky|is", "a, b|say \"hi\"");
    mat_free(m);
    static const float infs[3] = { -INFINITY, 0, INFINITY };
    m = csv_ok("-inf,0,inf\n");
    expect_cells(m, 1, 3, infs);
    mat_free(m);
    static const float col[2] = { 5, 6 };
    m = csv_ok("w\n5\n6\n");
    expect_cells(m, 2, 1, col);
    expect_labels(m, "-|-", "w");
    mat_free(m);
}
END_TEST

START_TEST(csv_bad_files_say_where)
{
    long max = 1L << 22;
    csv_refuses("1,2\n3,abc\n", max, "row 2, column 2 ('abc') is not a number");
    csv_refuses("a,b\n\n1,2\n3,0x10\n", max, "row 4, column 2 ('0x10') is not a number");
    csv_refuses("1,nan\n", max, "row 1, column 2 ('nan') is not a number");
    csv_refuses("10,x\n3,4\n", max, "row 1, column 2 ('x') is not a number");   /* a number: no header */
    csv_refuses("1,2,3\n4,5\n", max, "row 2 has 2 fields, but row 1 has 3");
    csv_refuses("1,,3\n", max, "row 1, column 2 is empty");
    csv_refuses("1,2\n3,1e39\n", max, "row 2, column 2 (1e39) is beyond float32 (about 3.4e38)");
    csv_refuses("\"a,1\n", max, "row 1: a quote is never closed");
    csv_refuses("", max, "the file holds no numbers");
    csv_refuses(" \n\n", max, "the file holds no numbers");
    csv_refuses("a,b\n", max, "the file has a header but no rows of numbers");
    csv_refuses("1,2,3\n4,5,6\n", 5, "a 2x3 matrix is over the limit of 5 elements per matrix");
    csv_refuses("x,1\n"
                "a-label-that-goes-on-and-on-and-on-far-longer-than-any-margin-can-show,2\n",
                max, "row 2, column 1: a label of 70 bytes; the limit is 64");
}
END_TEST

/* Every allocation of the readers failing in turn: ATTN_E_NOMEM with a
 * message, no matrix, nothing leaked (make asan), until none fails. */
START_TEST(readers_survive_allocation_failure)
{
    const char *text = ",a,b\nx,1,2\ny,3,4\n";
    float v[4] = { 1, 2, 3, 4 };
    Bytes b = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", v, sizeof v);
    for (int reader = 0; reader < 2; reader++) {
        attn_status st = ATTN_E_NOMEM;
        long k;
        for (k = 0; st == ATTN_E_NOMEM && k < 100; k++) {
            Mat *m = (Mat *)1;
            AttnError err = { 0 };
            attn_alloc_fail_after(k);
            st = reader ? csv_read(&m, text, strlen(text), 100, NULL, &err) : npy_read(&m, b.b, b.n, 100, &err);
            attn_alloc_fail_after(-1);
            if (st == ATTN_E_NOMEM) {
                ck_assert_ptr_null(m);
                ck_assert_msg(err.msg[0] != '\0', "reader %d, allocation %ld: no message", reader, k);
            } else {
                ck_assert_msg(st == ATTN_OK, "reader %d, allocation %ld: %s", reader, k, err.msg);
                mat_free(m);
            }
        }
        ck_assert_int_eq(st, ATTN_OK);
        ck_assert_int_gt(k, 1);
    }
}
END_TEST

/* ---- through the lesson: the loader hook, positions, the string token ---- */

typedef struct {
    const char *name;
    const char *bytes;
    size_t len;
} MemFile;

static MemFile mem_files[4];

static int mem_loader(void *ctx, const char *lesson_file, const char *path, char **bytes, size_t *len, char *why,
                      size_t n)
{
    (void)ctx;
    ck_assert_str_eq(lesson_file, "t.lesson");
    for (size_t i = 0; i < sizeof mem_files / sizeof *mem_files; i++)
        if (mem_files[i].name && strcmp(mem_files[i].name, path) == 0) {
            *bytes = malloc(mem_files[i].len + 1);
            memcpy(*bytes, mem_files[i].bytes, mem_files[i].len);
            *len = mem_files[i].len;
            return 1;
        }
    snprintf(why, n, "no such file in the test");
    return 0;
}

/* Evaluate text with the in-memory files; the formatted error's first line,
 * or "" when it evaluates. */
static const char *lesson_error(const char *text)
{
    static char buf[1024];
    LessonError err;
    buf[0] = '\0';
    Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
    lesson_set_loader(l, mem_loader, NULL);
    LessonState *s = l ? lesson_eval(l, NULL, 0, &err) : NULL;
    if (!s)
        term_lesson_error(&err, buf, sizeof buf);
    buf[strcspn(buf, "\n")] = '\0';
    lesson_state_free(s);
    lesson_free(l);
    return buf;
}

START_TEST(lesson_errors_name_the_load_and_the_file)
{
    Bytes b = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", NULL, 60);
    static char trunc[256];
    memcpy(trunc, b.b, b.n);
    mem_files[0] = (MemFile){ "weights.npy", trunc, b.n };
    mem_files[1] = (MemFile){ "s.csv", ",a,b\nx,1,2\ny,3,zz\n", 18 };
    mem_files[3] = (MemFile){ "s.txt", "1\n", 2 };
    mem_files[2] = (MemFile){ "bad.csv", ",a,\x1b[31m\nx,1,2\n", 15 };
    ck_assert_str_eq(lesson_error("lesson T\nlet A = [1]\nlet W = A + load(\"weights.npy\")\n"),
                     "t.lesson:3:13: error: weights.npy: truncated: the header says 4x4 float32 (64 bytes) but 60 "
                     "follow");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\n  \"s.csv\")\n"),
                     "t.lesson:2:9: error: s.csv: row 3, column 3 ('zz') is not a number");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\"bad.csv\")\n"),
                     "t.lesson:2:9: error: bad.csv: row 1, column 3: the label holds a control character, a "
                     "bidirectional control or bytes that are not UTF-8");
    /* right-to-left words in a label keep the marks they need (a lesson's
     * own text may hold them too); an override is still refused */
    static const char rtl[] = ",\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d\xe2\x80\x8f,b\nx,1,2\n";
    static const char over[] = ",a\xe2\x80\xae" "b,c\nx,1,2\n";
    mem_files[2] = (MemFile){ "rtl.csv", rtl, sizeof rtl - 1 };
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\"rtl.csv\")\n"), "");
    mem_files[2] = (MemFile){ "over.csv", over, sizeof over - 1 };
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\"over.csv\")\n"),
                     "t.lesson:2:9: error: over.csv: row 1, column 2: the label holds a control character, a "
                     "bidirectional control or bytes that are not UTF-8");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\"gone.npy\")\n"),
                     "t.lesson:2:9: error: gone.npy: no such file in the test");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\"s.txt\")\n"),
                     "t.lesson:2:9: error: s.txt: load reads .npy and .csv files; this name ends in neither");
    /* the parser: a string only as load's one argument */
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(s.csv)\n"),
                     "t.lesson:2:14: error: load takes a file name in double quotes: load(\"weights.npy\")");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load()\n"),
                     "t.lesson:2:9: error: load takes a file name in double quotes: load(\"weights.npy\")");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\"a.csv\", \"b.csv\")\n"),
                     "t.lesson:2:21: error: expected ')': load takes one file, found ','");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\"\")\n"), "t.lesson:2:14: error: the file name is empty");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = \"s.csv\"\n"),
                     "t.lesson:2:9: error: a string in double quotes is a file name, as in load(\"weights.npy\")");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = load(\"s.csv)\n"),
                     "t.lesson:2:14: error: this string is never closed (a '\"' is missing on its line)");
    ck_assert_str_eq(lesson_error("lesson T\nlet S = loadd(\"s.csv\")\n"),
                     "t.lesson:2:9: error: unknown function 'loadd'; did you mean 'load'?");
    memset(mem_files, 0, sizeof mem_files);
}
END_TEST

START_TEST(loaded_matrices_in_a_lesson)
{
    mem_files[0] = (MemFile){ "s.csv", ",a,b\nx,1,2\ny,3,4\n", 17 };
    mem_files[1] = (MemFile){ "p.csv", "1,2\n3,4\n", 8 };
    const char *text = "lesson T\ntokens t1 t2\nlet S = load(\"s.csv\")\nlet P = load(\"p.csv\")\n"
                       "let R = P @ load(\"s.csv\")\n";
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
    ck_assert_ptr_nonnull(l);
    /* without a loader (a lesson given as text) load is refused */
    ck_assert_ptr_null(lesson_eval(l, NULL, 0, &err));
    ck_assert_str_eq(err.msg, "load() cannot read files here: this lesson was not opened from a file");
    lesson_set_loader(l, mem_loader, NULL);
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    const Mat *S = lesson_state_get(s, "S"), *P = lesson_state_get(s, "P"), *R = lesson_state_get(s, "R");
    expect_labels(S, "x|y", "a|b");        /* the file's labels, not the tokens */
    expect_labels(P, "t1|t2", "-|-");      /* an input of 2 rows gets the tokens */
    static const float r[4] = { 7, 10, 15, 22 };
    expect_cells(R, 2, 2, r);
    expect_labels(R, "t1|t2", "a|b");
    ck_assert_int_eq(lesson_n_loads(l), 2);
    ck_assert_str_eq(lesson_load_path(l, 0), "s.csv");
    ck_assert_str_eq(lesson_load_path(l, 1), "p.csv");
    /* an expression against the state cannot read files */
    Mat *m = lesson_eval_expr(s, "load(\"s.csv\")", &err);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(err.msg, "load() reads files in let lines only: let a name hold the file's matrix");
    lesson_state_free(s);
    lesson_free(l);
    memset(mem_files, 0, sizeof mem_files);
}
END_TEST

/* ---- the app side: files beside the lesson, live reload ---- */

static char dir[64];

static void put(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void drop(const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
}

START_TEST(reload_watches_loaded_files)
{
    snprintf(dir, sizeof dir, "/tmp/attn-load-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    put("l.lesson", "lesson R\nlet S = load(\"data.csv\")\n");
    put("data.csv", "1,2\n3,4\n");
    char path[128], buf[1024];
    snprintf(path, sizeof path, "%s/l.lesson", dir);
    LessonError err;
    Session *s = session_open(path, &err);
    ck_assert_msg(s != NULL, "%s", term_lesson_error(&err, buf, sizeof buf));
    ck_assert_float_eq(mat_get(lesson_state_get(session_state(s), "S"), 0, 0), 1);
    ck_assert_int_eq(session_reload(s, 0), SESSION_NOTHING);
    put("data.csv", "10,2\n3,4\n");
    ck_assert(session_reload(s, 0) & SESSION_LESSON);
    ck_assert_float_eq(mat_get(lesson_state_get(session_state(s), "S"), 0, 0), 10);
    /* a bad version is refused once, with the load's position, and kept out */
    put("data.csv", "10,x\n3,4\n");
    ck_assert_int_eq(session_reload(s, 0), SESSION_RELOAD_FAILED);
    snprintf(buf, sizeof buf, "%s:2:9: error: data.csv: row 1, column 2 ('x') is not a number", path);
    ck_assert_msg(strncmp(session_reload_error(s), buf, strlen(buf)) == 0, "%s", session_reload_error(s));
    ck_assert_float_eq(mat_get(lesson_state_get(session_state(s), "S"), 0, 0), 10);
    ck_assert_int_eq(session_reload(s, 0), SESSION_NOTHING);
    put("data.csv", "7,2\n3,4\n");
    ck_assert(session_reload(s, 0) & SESSION_LESSON);
    ck_assert_float_eq(mat_get(lesson_state_get(session_state(s), "S"), 0, 0), 7);
    ck_assert_ptr_null(session_reload_error(s));
    /* a new version that loads a file not there yet: fixed by creating it */
    put("l.lesson", "lesson R\nlet S = load(\"data.csv\")\nlet T = load(\"more.csv\")\n");
    ck_assert_int_eq(session_reload(s, 0), SESSION_RELOAD_FAILED);
    ck_assert_msg(strstr(session_reload_error(s), "more.csv: cannot open ") != NULL, "%s", session_reload_error(s));
    ck_assert_int_eq(session_reload(s, 0), SESSION_NOTHING);
    put("more.csv", "5\n");
    ck_assert(session_reload(s, 0) & SESSION_LESSON);
    ck_assert_float_eq(mat_get(lesson_state_get(session_state(s), "T"), 0, 0), 5);
    session_free(s);
    drop("l.lesson");
    drop("data.csv");
    drop("more.csv");
    rmdir(dir);
}
END_TEST

Suite *load_suite(void)
{
    Suite *s = suite_create("load");
    TCase *core = tcase_create("core");
    tcase_add_test(core, npy_byte_orders_and_fortran_order);
    tcase_add_test(core, npy_round_trip_of_the_script_files);
    tcase_add_test(core, csv_with_and_without_labels);
    tcase_add_test(core, loaded_matrices_in_a_lesson);
    tcase_add_test(core, reload_watches_loaded_files);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, npy_bad_files_say_what_is_wrong);
    tcase_add_test(limits, npy_values_and_limits);
    tcase_add_test(limits, csv_bad_files_say_where);
    tcase_add_test(limits, readers_survive_allocation_failure);
    tcase_add_test(limits, lesson_errors_name_the_load_and_the_file);
    suite_add_tcase(s, limits);
    return s;
}
