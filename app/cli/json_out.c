/*
 * json_out.c - the JSON object of `attn run --json FILE`: strings escaped,
 * numbers with 9 significant digits (enough to read every float back
 * exactly), non-finite values as the strings "inf", "-inf" and "nan".
 */
#include "json_out.h"

#include <math.h>

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, float v)
{
    if (isnan(v))
        fputs("\"nan\"", out);
    else if (isinf(v))
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", out);
    else
        fprintf(out, "%.9g", (double)v);
}

static void json_names(FILE *out, char **names, int n)
{
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", out);
        json_string(out, names[i]);
    }
    fputc(']', out);
}

void json_print(FILE *out, const Lesson *l, const LessonState *s)
{
    fputs("{\"lesson\": ", out);
    json_string(out, lesson_title(l));
    fprintf(out, ", \"layout\": \"%s\",\n \"steps\": [", lesson_layout(l) == LAYOUT_ROWS ? "rows" : "columns");
    for (int k = 0; k < lesson_n_steps(l); k++) {
        const LessonStep *st = lesson_step(l, k);
        fputs(k ? ",\n  {\"title\": " : "\n  {\"title\": ", out);
        json_string(out, st->title);
        fputs(", \"show\": ", out);
        json_names(out, st->show, st->n_show);
        fputs(", \"heatmap\": ", out);
        json_names(out, st->heatmap, st->n_heatmap);
        fputc('}', out);
    }
    fputs("],\n \"matrices\": {", out);
    for (int i = 0; i < lesson_state_count(s); i++) {
        const Mat *m = lesson_state_at(s, i);
        fputs(i ? ",\n  " : "\n  ", out);
        json_string(out, m->name);
        fprintf(out, ": {\"rows\": %d, \"cols\": %d, \"data\": [", m->rows, m->cols);
        for (int r = 0; r < m->rows; r++) {
            fputs(r ? ", [" : "[", out);
            for (int c = 0; c < m->cols; c++) {
                if (c)
                    fputs(", ", out);
                json_number(out, mat_get(m, r, c));
            }
            fputc(']', out);
        }
        fputs("]}", out);
    }
    fputs("}}\n", out);
}

