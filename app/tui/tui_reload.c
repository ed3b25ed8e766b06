/*
 * tui_reload.c - file stamps and the edits that survive a reload (see
 * tui_reload.h). The screen's live reload (tui_live.c) is built on these.
 */
#include "tui_reload.h"

#include <string.h>
#include <sys/stat.h>

FileStamp file_stamp(const char *path)
{
    FileStamp f;
    memset(&f, 0, sizeof f);
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return f;
    f.exists = 1;
    f.dev = (unsigned long long)st.st_dev;
    f.ino = (unsigned long long)st.st_ino;
    f.size = (long long)st.st_size;
    f.mtime_s = (long long)st.st_mtim.tv_sec;
    f.mtime_ns = (long long)st.st_mtim.tv_nsec;
    return f;
}

int file_stamp_same(const FileStamp *a, const FileStamp *b)
{
    return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino && a->size == b->size
        && a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns;
}

int edits_still_apply(LessonEdit *edits, int n, const LessonState *s)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        const Mat *m = s ? lesson_state_get(s, edits[i].name) : NULL;
        int ok = m && (m->prov.op == OP_INPUT || m->prov.op == OP_RANDN) && edits[i].row >= 0
            && edits[i].row < m->rows && edits[i].col >= 0 && edits[i].col < m->cols;
        if (ok)
            edits[kept++] = edits[i];
    }
    return kept;
}
