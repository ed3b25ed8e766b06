/*
 * check_optable.c - the operation table is the one list of operations:
 * lessons/README.md's table of functions and the fuzz dictionary name
 * exactly its functions; every row has a kernel for its kind of arguments,
 * an arity, an explainer (and a step back when it only moves numbers), a
 * spelling and a line of documentation; the
 * MatOp rows sit at their own index; and a shape refusal reads the same from
 * ops.c and from the lesson evaluator, since both use the row's rule.
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_internal.h"
#include "lesson.h"
#include "ops.h"
#include "optable.h"
#include "testutil.h"

/* A set of names, as one string " a b c " for strstr. */
typedef struct {
    char s[2048];
    int n;
} NameSet;

static void set_add(NameSet *set, const char *name, size_t len)
{
    char key[80];
    snprintf(key, sizeof key, " %.*s ", (int)len, name);
    if (strstr(set->s, key))
        return;
    size_t used = strlen(set->s);
    snprintf(set->s + used, sizeof set->s - used, "%s", used ? key + 1 : key);
    set->n++;
}

static int set_has(const NameSet *set, const char *name)
{
    char key[80];
    snprintf(key, sizeof key, " %s ", name);
    return strstr(set->s, key) != NULL;
}

/* The functions of the table. */
static NameSet table_functions(void)
{
    NameSet set = { "", 0 };
    for (int i = 0; i < OPT_COUNT; i++)
        if (optable_is_fn(i))
            set_add(&set, optable_at(i)->name, strlen(optable_at(i)->name));
    return set;
}

/* Every `name(` in the first column of the table under "## Functions" in
 * lessons/README.md. */
static NameSet readme_functions(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/README.md", lessons_dir());
    char *readme = slurp(path);
    ck_assert_msg(readme != NULL, "cannot read %s", path);
    char *at = strstr(readme, "\n## Functions\n");
    ck_assert_msg(at != NULL, "%s has no '## Functions' section", path);
    char *end = strstr(at + 1, "\n## ");
    if (end)
        *end = '\0';
    NameSet set = { "", 0 };
    for (char *line = at; line && *line; line = strchr(line + 1, '\n')) {
        if (strncmp(line, "\n| `", 4) != 0)
            continue;
        char *cell_end = strstr(line + 2, " |");
        for (char *p = line + 3; cell_end && p < cell_end; p++) {
            if (!isalpha((unsigned char)*p) || isalnum((unsigned char)p[-1]) || p[-1] == '_')
                continue;
            char *q = p;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            if (*q == '(')
                set_add(&set, p, (size_t)(q - p));
            p = q;
        }
    }
    free(readme);
    return set;
}

/* Every "name(" entry of the fuzz dictionary. */
static NameSet dict_functions(void)
{
    char *dict = slurp("tests/fuzz/lesson.dict");
    ck_assert_msg(dict != NULL, "cannot read tests/fuzz/lesson.dict");
    NameSet set = { "", 0 };
    for (char *line = dict; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (len > 3 && line[0] == '"' && line[len - 2] == '(' && line[len - 1] == '"')
            set_add(&set, line + 1, len - 3);
    }
    free(dict);
    return set;
}

/* Each of a is in b and each of b in a; the difference for the message. */
static void assert_same(const NameSet *want, const NameSet *got, const char *where)
{
    char missing[512] = "", extra[512] = "";
    char copy[sizeof want->s];
    for (int k = 0; k < 2; k++) {
        const NameSet *from = k ? got : want, *in = k ? want : got;
        char *out = k ? extra : missing;
        snprintf(copy, sizeof copy, "%s", from->s);
        for (char *w = strtok(copy, " "); w; w = strtok(NULL, " "))
            if (!set_has(in, w))
                snprintf(out + strlen(out), 512 - strlen(out), " %s", w);
    }
    ck_assert_msg(!missing[0] && !extra[0], "%s lacks the table's functions:%s; and names functions the table has not:%s",
                  where, missing[0] ? missing : " (none)", extra[0] ? extra : " (none)");
}

START_TEST(readme_lists_the_table)
{
    NameSet table = table_functions(), readme = readme_functions();
    ck_assert_int_eq(table.n, 33);
    assert_same(&table, &readme, "lessons/README.md's table of functions");
}
END_TEST

START_TEST(fuzz_dictionary_lists_the_table)
{
    NameSet table = table_functions(), dict = dict_functions();
    assert_same(&table, &dict, "tests/fuzz/lesson.dict");
}
END_TEST

START_TEST(every_row_is_complete)
{
    for (int i = 0; i < OPT_COUNT; i++) {
        const OpInfo *op = optable_at(i);
        ck_assert_msg(op && op->name && op->name[0], "row %d has no name", i);
        if (i < OP_COUNT)
            ck_assert_msg((int)op->prov == i, "row %d (%s) records MatOp %d", i, op->name, (int)op->prov);
        if (i < OP_COUNT) {
            const ExplainRow *how = explain_row((MatOp)i);
            ck_assert_msg(how && how->cell != NULL, "%s has no explanation", op->name);
            ck_assert_msg((how->cell == explain_gather) == (how->back != NULL) &&
                              (how->back != NULL) == (op->moves != 0),
                          "%s moves numbers but cannot follow them back, or the reverse", op->name);
        }
        ck_assert_msg(op->doc && op->doc[0], "%s has no documentation", op->name);
        ck_assert_msg(op->min_args >= 0 && (op->max_args == -1 || op->max_args >= op->min_args),
                      "%s has arity %d..%d", op->name, op->min_args, op->max_args);
        int kernels = !!op->unary + !!op->binary + !!op->matmul + !!op->parts + !!op->range + !!op->make + !!op->read +
                      !!op->with;
        switch (op->args) {
        case OPARGS_NONE:
            ck_assert_msg(kernels == 0 && !optable_is_fn(i), "%s is internal but callable", op->name);
            break;
        case OPARGS_MATS:
            ck_assert_msg(kernels == 1 && !op->range && !op->make, "%s needs one kernel of matrices", op->name);
            ck_assert_msg(op->min_args >= 1, "%s takes no matrix", op->name);
            break;
        case OPARGS_SIZES:
            ck_assert_msg(kernels == 1 && op->make && op->size_what[0], "%s needs a kernel of sizes", op->name);
            ck_assert_int_eq(op->min_args, op->size_what[1] ? 2 : 1);
            break;
        case OPARGS_RANGE:
            ck_assert_msg(kernels == 1 && op->range && op->size_what[0], "%s needs a kernel of a range", op->name);
            break;
        case OPARGS_FILE:
            ck_assert_msg(kernels == 1 && op->read, "%s needs a reader of a file", op->name);
            break;
        case OPARGS_PARAMS: {
            /* one kind per argument: a matrix first or none, then numbers, each named */
            const char *k = op->param_kinds;
            ck_assert_msg(kernels == 1 && op->with && k, "%s needs a kernel with numbers", op->name);
            ck_assert_int_eq((int)strlen(k), op->max_args);
            ck_assert_msg(strspn(k + (k[0] == 'M'), "nir") == strlen(k) - (k[0] == 'M'), "%s: kinds %s", op->name, k);
            for (size_t a = k[0] == 'M'; a < strlen(k); a++)
                ck_assert_msg(op->size_what[a - (k[0] == 'M')], "%s: argument %zu has no name", op->name, a + 1);
            break;
        }
        }
        if (optable_is_fn(i)) {
            ck_assert_msg(op->min_args >= 1 && op->params[0] == '(', "function %s: arity or parameters", op->name);
            ck_assert_int_eq(optable_fn_lookup(op->name, strlen(op->name)), i);
        }
    }
    ck_assert_ptr_null(optable_at(OPT_COUNT));
    ck_assert_ptr_null(optable_at(-1));
    ck_assert_int_eq(optable_fn_lookup("@", 1), -1);     /* an operator is not a function */
    ck_assert_int_eq(optable_fn_lookup("input", 5), -1); /* nor is an internal step */
    ck_assert_str_eq(mat_op_name(OP_MATMUL), optable_op(OP_MATMUL)->name);
}
END_TEST

/* The evaluator's refusal of A @ B and op_matmul's on matrices named A and
 * B come from the one rule: the same words. */
START_TEST(one_shape_message_for_engine_and_lesson)
{
    static const struct {
        const char *expr;
        int op;
    } cases[] = { { "A @ B", OP_MATMUL }, { "A + [1 2]", OP_ADD }, { "cosine(A, B)", OP_COSINE } };
    float va[6] = { 1, 2, 3, 4, 5, 6 }, vb[3] = { 1, 2, 3 };
    Mat *a = mat_from(2, 3, va, NULL), *b = mat_from(1, 3, vb, NULL);
    mat_set_name(a, "A");
    mat_set_name(b, "B");
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char text[256];
        snprintf(text, sizeof text, "lesson T\nlet A = [ 1 2 3 ; 4 5 6 ]\nlet B = [ 1 2 3 ]\nlet C = %s\n",
                 cases[k].expr);
        LessonError lerr;
        Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &lerr);
        ck_assert_msg(l != NULL, "%s", lerr.msg);
        LessonState *s = lesson_eval(l, NULL, 0, &lerr);
        ck_assert_msg(s == NULL, "%s evaluated", cases[k].expr);
        Mat *o = NULL, *bb = b;
        AttnError err;
        if (cases[k].op == OP_ADD) {
            float v2[2] = { 1, 2 };
            bb = mat_from(1, 2, v2, NULL);
            mat_set_name(bb, "[1 2]");
        }
        const OpInfo *op = optable_op((MatOp)cases[k].op);
        attn_status st = op->matmul ? op->matmul(&o, a, 0, bb, 0, &err) : op->binary(&o, a, bb, &err);
        ck_assert_int_eq(st, ATTN_E_SHAPE);
        ck_assert_ptr_null(o);
        ck_assert_str_eq(lerr.msg, err.msg);
        if (bb != b)
            mat_free(bb);
        lesson_free(l);
    }
    mat_free(a);
    mat_free(b);
}
END_TEST

Suite *optable_suite(void)
{
    Suite *s = suite_create("optable");
    TCase *core = tcase_create("core");
    tcase_add_test(core, readme_lists_the_table);
    tcase_add_test(core, fuzz_dictionary_lists_the_table);
    tcase_add_test(core, every_row_is_complete);
    tcase_add_test(core, one_shape_message_for_engine_and_lesson);
    suite_add_tcase(s, core);
    return s;
}
