/*
 * check_house.c - the house rules, measured on the tree: no source file of
 * the program (engine/, app/) over 600 lines, no folder of it with more
 * than 15 .c files, no screen header included by more than 8 files of the
 * program, the main loop naming no screen, ARCHITECTURE.md naming every
 * top-level folder, and one clock and one hash in engine/base. The project
 * as it stands passes; a planted tree with one of each breach fails with
 * each named. (The walls between folders are check_layers.c's.)
 *
 * Screen headers are those of the screens' rooms (app/tui,
 * app/lessonscreen, app/modelscreen): a screen's state and its parts,
 * which the limit keeps from becoming what every file reaches through.
 * app/canvas is the floor every screen draws on (the terminal, the canvas
 * and its text, the key table, the screen object itself), as app/present
 * is the floor of paper and screen alike: a floor is there to be included
 * by every room above it, and splitting tui_put.h or tui_screen.h by count
 * would split one job in two, so its headers have no limit. Every folder
 * of app/ with a screen's header (tui_*.h) is one or the other: a new one
 * that is neither is named, so no room escapes the limit by being left
 * off a list.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "strbuf.h"
#include "testutil.h"

#define HOUSE_MAX_LINES 600
#define HOUSE_MAX_C_FILES 15
#define HOUSE_MAX_INCLUDERS 8

static const char *const screen_folders[] = { "app/tui", "app/lessonscreen", "app/modelscreen" };
static const char *const floor_folders[] = { "app/canvas" };

/* The main loop (tui_loop) and what it holds (tui_state): no screen named
 * there. A screen object is tui_screen_NAME (tui_screen.h); a screen's
 * state is one of these types; its functions begin with these. */
static const char *const tui_loop = "app/tui/tui.c";
static const char *const tui_state = "app/tui/tui_state.h";
static const char *const screen_types[] = { "MenuView", "LessonScreen", "LessonView", "OverlayView", "CostView",
                                            "ModelScreen", "TrainScreen", "HelpView", "TextView" };
static const char *const screen_calls[] = { "lv_", "menu_", "cost_", "model_screen_", "train_screen_",
                                            "tui_class_", "tui_help_" };

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), k = strlen(end);
    return n >= k && strcmp(s + n - k, end) == 0;
}

static long count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long n = 0;
    int c, last = '\n';
    while ((c = getc(f)) != EOF) {
        n += c == '\n';
        last = c;
    }
    fclose(f);
    return n + (last != '\n');
}

/* The breaches in one folder of the program (root/top/name), into out. */
static void check_folder(const char *root, const char *folder, StrBuf *out)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", root, folder);
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    int c_files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!ends_with(e->d_name, ".c") && !ends_with(e->d_name, ".h"))
            continue;
        c_files += ends_with(e->d_name, ".c");
        char file[4096];
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        long n = count_lines(file);
        if (n > HOUSE_MAX_LINES)
            strbuf_add(out, "%s/%s: %ld lines, over %d\n", folder, e->d_name, n, HOUSE_MAX_LINES);
    }
    closedir(d);
    if (c_files > HOUSE_MAX_C_FILES)
        strbuf_add(out, "%s: %d .c files, over %d\n", folder, c_files, HOUSE_MAX_C_FILES);
}

/* Does the file at path include "header"? */
static int includes(const char *path, const char *header)
{
    char *text = slurp(path), want[300];
    snprintf(want, sizeof want, "#include \"%s\"", header);
    int yes = text && strstr(text, want) != NULL;
    free(text);
    return yes;
}

#define APP_FOLDERS_MAX 64

/* The folders of app/ under root (their names), and how many. */
static int app_folders(const char *root, char (*names)[256])
{
    int n = 0;
    char app[2048];
    snprintf(app, sizeof app, "%s/app", root);
    DIR *d = opendir(app);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d)) && n < APP_FOLDERS_MAX) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", app, e->d_name);
        if (e->d_name[0] != '.' && is_dir(dir))
            snprintf(names[n++], sizeof names[0], "%s", e->d_name);
    }
    closedir(d);
    return n;
}

/* How many files of the program (the .c and .h of each folder of app/) include header. */
static int includers(const char *root, const char *header)
{
    char names[APP_FOLDERS_MAX][256];
    int n = 0, folders = app_folders(root, names);
    char app[2048];
    snprintf(app, sizeof app, "%s/app", root);
    for (int i = 0; i < folders; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%.255s", app, names[i]);
        DIR *f = opendir(dir);
        struct dirent *g;
        while (f && (g = readdir(f))) {
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, g->d_name);
            if ((ends_with(g->d_name, ".c") || ends_with(g->d_name, ".h")) && includes(path, header))
                n++;
        }
        if (f)
            closedir(f);
    }
    return n;
}

/* A screen header included by more files than the house allows. */
static void check_screen_headers(const char *root, StrBuf *out)
{
    for (size_t i = 0; i < sizeof screen_folders / sizeof *screen_folders; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", root, screen_folders[i]);
        DIR *d = opendir(path);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            int n = ends_with(e->d_name, ".h") ? includers(root, e->d_name) : 0;
            if (n > HOUSE_MAX_INCLUDERS)
                strbuf_add(out, "%s/%s: included by %d files, over %d\n", screen_folders[i], e->d_name, n,
                           HOUSE_MAX_INCLUDERS);
        }
        closedir(d);
    }
}

/* Is folder (app/NAME) in list? */
static int listed(const char *const *list, size_t n, const char *folder)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], folder) == 0)
            return 1;
    return 0;
}

/* A folder of app/ with a screen's header (tui_*.h) that is neither a
 * screen's room nor the floor. */
static void check_screen_rooms(const char *root, StrBuf *out)
{
    char names[APP_FOLDERS_MAX][256];
    int folders = app_folders(root, names);
    char app[2048];
    snprintf(app, sizeof app, "%s/app", root);
    for (int i = 0; i < folders; i++) {
        char dir[4096], folder[600];
        snprintf(dir, sizeof dir, "%s/%.255s", app, names[i]);
        snprintf(folder, sizeof folder, "app/%.255s", names[i]);
        if (listed(screen_folders, sizeof screen_folders / sizeof *screen_folders, folder)
            || listed(floor_folders, sizeof floor_folders / sizeof *floor_folders, folder))
            continue;
        DIR *f = opendir(dir);
        struct dirent *g;
        int screens = 0;
        while (f && (g = readdir(f)))
            screens += strncmp(g->d_name, "tui_", 4) == 0 && ends_with(g->d_name, ".h");
        if (f)
            closedir(f);
        if (screens)
            strbuf_add(out, "%s: screen headers in a folder neither a screen's room nor the floor\n", folder);
    }
}

/* The text of a C file with its comments and its strings blanked, so
 * only code is read. The caller frees. */
static char *code_of(const char *path)
{
    char *t = slurp(path);
    for (char *p = t; p && *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            end = end ? end + 2 : p + strlen(p);
            memset(p, ' ', (size_t)(end - p));
            p = end - 1;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
            p--;
        } else if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q; p++)
                if (*p == '\\' && p[1])
                    *p++ = ' ';
                else
                    *p = ' ';
            if (!*p)
                break;
        }
    }
    return t;
}

static int ident_char(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/* Every identifier of file (root/rel) that names a screen, once each: a
 * screen object, a screen's state type, a screen's function. */
static void check_names_no_screen(const char *root, const char *rel, StrBuf *out)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    char *code = code_of(path);
    if (!code)
        return;
    StrBuf seen = { 0 };
    strbuf_add(&seen, "%s", " ");
    for (char *p = code; *p;) {
        if (!ident_char(*p) || (p > code && ident_char(p[-1]))) {
            p++;
            continue;
        }
        char id[128];
        size_t n = 0;
        while (ident_char(p[n]) && n + 1 < sizeof id) {
            id[n] = p[n];
            n++;
        }
        id[n] = '\0';
        p += n;
        int screen = strncmp(id, "tui_screen_", 11) == 0 && id[11] >= 'a' && id[11] <= 'z';
        for (size_t i = 0; i < sizeof screen_types / sizeof *screen_types; i++)
            screen |= strcmp(id, screen_types[i]) == 0;
        for (size_t i = 0; i < sizeof screen_calls / sizeof *screen_calls; i++)
            screen |= strncmp(id, screen_calls[i], strlen(screen_calls[i])) == 0;
        char key[140];
        snprintf(key, sizeof key, " %s ", id);
        if (screen && !strstr(seen.s, key)) {
            strbuf_add(&seen, "%s ", id);
            strbuf_add(out, "%s: names %s, a screen's (or a feature's)\n", rel, id);
        }
    }
    strbuf_free(&seen);
    free(code);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every breach of the house rules under root, one line each, sorted;
 * "" when there is none. The caller frees. */
static char *house_breaches(const char *root)
{
    StrBuf out = { 0 }, lines = { 0 };
    static const char *const program[] = { "engine", "app" };
    for (size_t p = 0; p < 2; p++) {
        char top[2048];
        snprintf(top, sizeof top, "%s/%s", root, program[p]);
        DIR *d = opendir(top);
        ck_assert_ptr_nonnull(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            char folder[512], path[4096];
            snprintf(folder, sizeof folder, "%s/%s", program[p], e->d_name);
            snprintf(path, sizeof path, "%s/%s", root, folder);
            if (e->d_name[0] != '.' && is_dir(path))
                check_folder(root, folder, &lines);
        }
        closedir(d);
    }
    check_screen_headers(root, &lines);
    check_screen_rooms(root, &lines);
    check_names_no_screen(root, tui_loop, &lines);
    check_names_no_screen(root, tui_state, &lines);
    /* the top-level folders (not hidden, not a build's output) */
    char arch_path[2048];
    snprintf(arch_path, sizeof arch_path, "%s/ARCHITECTURE.md", root);
    char *arch = slurp(arch_path);
    DIR *d = opendir(root);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[4096], named[300];
        snprintf(path, sizeof path, "%s/%s", root, e->d_name);
        if (e->d_name[0] == '.' || strncmp(e->d_name, "build", 5) == 0 || !is_dir(path))
            continue;
        snprintf(named, sizeof named, "`%s/`", e->d_name);
        if (!arch || !strstr(arch, named))
            strbuf_add(&lines, "ARCHITECTURE.md: names no %s\n", named);
    }
    closedir(d);
    free(arch);
    /* sorted, so the message does not depend on the directory's order */
    char *all = strbuf_take(&lines);
    char *v[256];
    int n = 0;
    for (char *save = NULL, *l = all ? strtok_r(all, "\n", &save) : NULL; l && n < 256; l = strtok_r(NULL, "\n", &save))
        v[n++] = l;
    qsort(v, (size_t)n, sizeof *v, by_name);
    strbuf_add(&out, "%s", "");
    for (int i = 0; i < n; i++)
        strbuf_add(&out, "%s\n", v[i]);
    free(all);
    return strbuf_take(&out);
}

START_TEST(the_project_keeps_the_house_rules)
{
    char *b = house_breaches(".");
    ck_assert_msg(b && b[0] == '\0', "the house rules are broken:\n%s", b ? b : "(no memory)");
    free(b);
}
END_TEST

START_TEST(a_planted_breach_of_each_rule_is_named)
{
    char dir[] = "/tmp/attn-house-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    CmdResult r = cmd_runf("cd %s && mkdir -p engine/base app/tui app/canvas app/newscreen lessons tests && "
                           "for i in $(seq 16); do echo 'int x;' > app/tui/f$i.c; done && "
                           "echo 'int s;' > app/tui/tui_state.h && "
                           "for i in $(seq 9); do echo '#include \"tui_state.h\"' >> app/tui/f$i.c; done && "
                           "echo 'int c;' > app/canvas/tui_put.h && echo 'int n;' > app/newscreen/tui_new.h && "
                           "for i in $(seq 9); do echo '#include \"tui_put.h\"' >> app/tui/f$i.c; done && "
                           "printf '/* tui_screen_menu LessonScreen */\\nstatic const char *s = \"lv_close\";\\n"
                           "void f(Tui *t) { tui_push(t, &tui_screen_menu, menu_new(s)); tui_screen_menu.key; }\\n"
                           "void g(Tui *t) { tui_top_self(t); tui_push(t, &tui_screen_blank, 0); }\\n' > app/tui/tui.c && "
                           "seq 601 > engine/base/long.c && seq 600 > engine/base/full.h && "
                           "printf '`engine/` `app/` `tests/`\\n' > ARCHITECTURE.md && mkdir build-asan",
                           dir);
    ck_assert_int_eq(r.status, 0);
    cmd_free(&r);
    char *b = house_breaches(dir);
    ck_assert_str_eq(b, "ARCHITECTURE.md: names no `lessons/`\n"
                        "app/newscreen: screen headers in a folder neither a screen's room nor the floor\n"
                        "app/tui/tui.c: names menu_new, a screen's (or a feature's)\n"
                        "app/tui/tui.c: names tui_screen_blank, a screen's (or a feature's)\n"
                        "app/tui/tui.c: names tui_screen_menu, a screen's (or a feature's)\n"
                        "app/tui/tui_state.h: included by 9 files, over 8\n"
                        "app/tui: 17 .c files, over 15\n"
                        "engine/base/long.c: 601 lines, over 600\n");
    free(b);
    r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

/* One home for what every room uses: the monotonic clock is read only in
 * engine/base/clock.c, and the FNV-1a hash (its prime) is written only in
 * engine/base/hash.c. Each file of the program (root/engine, root/app)
 * that has its own, one line each into out. */
static void check_one_home(const char *root, const char *top, StrBuf *out)
{
    static const struct { const char *mark, *home, *what; } homes[] = {
        { "CLOCK_MONOTONIC", "engine/base/clock.c", "a clock of its own" },
        { "1099511628211", "engine/base/hash.c", "an FNV-1a of its own" },
        { "100000001b3", "engine/base/hash.c", "an FNV-1a of its own" },
    };
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", root, top);
    DIR *d = opendir(path);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        char folder[1024], dir[4096];
        snprintf(folder, sizeof folder, "%s/%s", top, e->d_name);
        snprintf(dir, sizeof dir, "%s/%s", root, folder);
        DIR *f = e->d_name[0] != '.' && is_dir(dir) ? opendir(dir) : NULL;
        struct dirent *g;
        while (f && (g = readdir(f))) {
            if (!ends_with(g->d_name, ".c") && !ends_with(g->d_name, ".h"))
                continue;
            char file[8192], name[2048];
            snprintf(file, sizeof file, "%s/%s", dir, g->d_name);
            snprintf(name, sizeof name, "%s/%s", folder, g->d_name);
            char *text = slurp(file);
            for (size_t i = 0; text && i < sizeof homes / sizeof *homes; i++)
                if (strcmp(name, homes[i].home) != 0 && strstr(text, homes[i].mark))
                    strbuf_add(out, "%s: %s (%s is the one)\n", name, homes[i].what, homes[i].home);
            free(text);
        }
        if (f)
            closedir(f);
    }
    closedir(d);
}

START_TEST(one_clock_and_one_hash)
{
    StrBuf out = { 0 };
    strbuf_add(&out, "%s", "");
    check_one_home(".", "engine", &out);
    check_one_home(".", "app", &out);
    char *b = strbuf_take(&out);
    ck_assert_msg(b && b[0] == '\0', "%s", b ? b : "(no memory)");
    free(b);
    /* planted: a file with a clock and a hash of its own is named */
    char dir[] = "/tmp/attn-home-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    CmdResult r = cmd_runf("cd %s && mkdir -p engine/base app/measure && "
                           "echo 'clock_gettime(CLOCK_MONOTONIC, &t);' > app/measure/own.c && "
                           "echo 'h *= 1099511628211ull;' > engine/base/table.c && "
                           "echo 'clock_gettime(CLOCK_MONOTONIC, &t);' > engine/base/clock.c",
                           dir);
    ck_assert_int_eq(r.status, 0);
    cmd_free(&r);
    StrBuf planted = { 0 };
    check_one_home(dir, "engine", &planted);
    check_one_home(dir, "app", &planted);
    b = strbuf_take(&planted);
    ck_assert_str_eq(b, "engine/base/table.c: an FNV-1a of its own (engine/base/hash.c is the one)\n"
                        "app/measure/own.c: a clock of its own (engine/base/clock.c is the one)\n");
    free(b);
    r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

Suite *house_suite(void)
{
    Suite *s = suite_create("house");
    TCase *tc = tcase_create("house");
    tcase_add_test(tc, the_project_keeps_the_house_rules);
    tcase_add_test(tc, a_planted_breach_of_each_rule_is_named);
    tcase_add_test(tc, one_clock_and_one_hash);
    suite_add_tcase(s, tc);
    return s;
}
