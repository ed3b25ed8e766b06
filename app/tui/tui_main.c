/*
 * tui_main.c - the screen's start (tui.h): what is checked before the
 * terminal changes (a lesson named, a class opened or joined, a model
 * named, a training run), the screens the loop starts on, and the table of
 * screens a screen asks for by action and cannot make itself, since it
 * cannot see their room (tui_screen.h's TuiAsk): a lesson at a path (the
 * menu's, a model's head), the cost view, the real models. This is the one
 * file of the loop's room that names screens; the loop (tui.c) runs them.
 */
#include "tui.h"
#include "escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class_client.h"
#include "class_pack.h"
#include "class_server.h"
#include "lessonfile.h"
#include "text.h"
#include "tui_chrome.h"
#include "tui_class.h"
#include "tui_cost.h"
#include "tui_lesson.h"
#include "tui_menu.h"
#include "tui_model.h"
#include "tui_state.h"
#include "tui_train.h"

/* ---- the screens made by action ------------------------------------------ */

/* A lesson at path on a lesson screen of its own, with the presenter's
 * settings kept from lesson to lesson (ctx); Esc on it goes back to the
 * screen it opened over. */
static TuiAsk open_lesson(TuiTerm *term, void *ctx, const char *path)
{
    char msg[1024];
    LessonScreen *ls = lesson_screen_new(ctx);
    if (!ls)
        tui_fatal("out of memory");
    if (lv_open(term, ls, path, msg, sizeof msg) < 0) {
        char *nl = strchr(msg, '\n');
        if (nl)
            *nl = '\0';
        tui_message(term, 1, "%s", msg);
        tui_screen_lesson.close(ls);
        return tui_ask(ACT_NONE);
    }
    return tui_ask_open(&tui_screen_lesson, ls);
}

static TuiAsk open_cost(TuiTerm *term, void *ctx, const char *arg)
{
    (void)term;
    (void)ctx;
    (void)arg;
    CostView *c = cost_new();
    if (!c)
        tui_fatal("out of memory");
    return tui_ask_open(&tui_screen_cost, c);
}

static TuiAsk open_models(TuiTerm *term, void *ctx, const char *arg)
{
    (void)term;
    (void)ctx;
    (void)arg;
    ModelScreen *m = model_screen_new();
    if (!m)
        tui_fatal("out of memory");
    return tui_ask_open(&tui_screen_models, m);
}

static const TuiOpener openers[] = {
    { ACT_OPEN_LESSON, open_lesson },
    { ACT_COST, open_cost },
    { ACT_MODELS, open_models },
    { ACT_NONE, NULL },
};

/* ---- the start ---------------------------------------------------------------- */

/* The menu a lesson opened by name goes back to: its folder's, with it
 * selected. */
static MenuView *menu_of_lesson(const char *path)
{
    char dir[1024];
    const char *slash = path ? strrchr(path, '/') : NULL;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    return menu_new(dir[0] ? dir : "/", path ? (slash ? slash + 1 : path) : NULL);
}

/* Put s with state self on the stack; leaves when there is no state. */
static void start_on(Tui *t, const TuiScreen *s, void *self)
{
    if (!self)
        tui_fatal("out of memory");
    tui_push(t, s, self);
}

/* Leaving before the terminal changes: what was made let go, status
 * given back (the lesson screen has not adopted the session yet). */
static int refused(LessonScreen *ls, Session *ses, int status)
{
    if (ls)
        tui_screen_lesson.close(ls);
    session_free(ses);
    return status;
}

int tui_main(const char *file, const TuiOptions *opt)
{
    Tui t;
    memset(&t, 0, sizeof t);
    t.term.utf8 = text_locale_utf8();
    /* the presenter's settings, for every lesson opened */
    LessonLook look = { opt->present, opt->present, 0 };   /* read from the back of the room */
    t.openers = openers;
    t.open_ctx = &look;
    /* a lesson named on the command line is checked before the terminal
     * changes, so its error prints plainly */
    Session *ses = NULL;
    if (file) {
        LessonError err;
        ses = session_open(file, &err);
        if (!ses) {
            char buf[2048];
            fputs(term_lesson_error(&err, buf, sizeof buf), stderr);
            return 2;
        }
        /* the bug is planted before the progress is read: the hunt's
         * record is the one taken in */
        if (opt->bug && (session_plant_bug(ses, opt->bug_seed) & SESSION_REFUSED)) {
            char shown[1400];
            fprintf(stderr, "attn: %s: %s\n", term_escape(file, shown, sizeof shown), session_message(ses));
            session_free(ses);
            return 2;
        }
    }
    /* the lesson screen of a lesson named or sent by a class, made now: a
     * class runs beside it */
    LessonScreen *ls = NULL;
    if ((file || opt->join_addr) && !(ls = lesson_screen_new(&look))) {
        fputs("attn: out of memory\n", stderr);
        session_free(ses);
        return 2;
    }
    if (opt->join_addr) {
        /* a student: the lesson comes from the class, before the terminal changes */
        char why[1200];
        ClientMsg m;
        ClassClient *student = class_client_connect(opt->join_addr, opt->join_code, opt->join_name, why, sizeof why);
        if (!student) {
            char shown[4800];   /* the address and the name, as typed */
            fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
            return refused(ls, NULL, 1);
        }
        if (class_client_wait_ready(student, CLASS_READY_SECONDS * 1000, &m) != 0) {
            char shown[CLASS_LINE_MAX * 4];
            fprintf(stderr, m.what == CLIENT_REFUSED ? "attn: the class refused to let you in: %s\n" : "attn: %s\n",
                    term_escape(m.text, shown, sizeof shown));
            class_client_free(student);
            return refused(ls, NULL, 1);
        }
        LessonError err;
        ClassPack *pack = class_client_take_pack(student);
        Lesson *l = pack ? class_pack_lesson(pack, &err) : NULL;
        ses = l ? session_open_lesson(l, &err) : NULL;
        if (!ses || !(t.plug = tui_class_student(student, pack, ls))) {
            char buf[2048];
            fprintf(stderr, "attn: the class's lesson does not open here: %s",
                    ses ? "out of memory\n" : term_lesson_error(&err, buf, sizeof buf));
            session_free(ses);      /* before the pack its lesson came from */
            class_client_free(student);
            if (pack)
                class_pack_free(pack);
            free(pack);
            return refused(ls, NULL, 1);
        }
        file = "";      /* the lesson screen, not the menu */
    }
    if (opt->class_mode) {
        /* the class is open before the terminal changes: its errors print plainly */
        ClassOptions co = { opt->listen, opt->code, opt->log, 0 };
        char why[1200];
        ClassServer *server = class_server_open(ses, &co, why, sizeof why);
        if (!server || !(t.plug = tui_class_instructor(server, ls))) {
            char shown[4800];   /* --listen, --log and the file, as typed */
            fprintf(stderr, "attn: %s\n", server ? "out of memory" : term_escape(why, shown, sizeof shown));
            class_server_free(server);
            return refused(ls, ses, 2);
        }
    }
    TrainScreen *train = NULL;
    if (opt->trainer && !(train = train_screen_new(opt->trainer))) {
        fputs("attn: out of memory\n", stderr);
        trainer_free(opt->trainer);
        return refused(ls, ses, 2);
    }
    ModelScreen *models = NULL;
    if (opt->model_dir) {
        /* a model named on the command line opens before the terminal
         * changes, so its error prints plainly */
        char why[2048], shown[4200];
        if (!(models = model_screen_new())
            || model_screen_open(models, opt->model_dir, opt->model_text, why, sizeof why) != 0) {
            fprintf(stderr, "attn: %s\n", models ? term_escape(why, shown, sizeof shown) : "out of memory");
            model_screen_free(models);
            return refused(ls, ses, 2);
        }
        models->direct = 1;
    }
    tui_begin(&t, opt->no_color);
    if (file) {
        /* Esc on a lesson opened by name: the menu of its folder */
        start_on(&t, &tui_screen_menu, menu_of_lesson(session_path(ses)));
        ls->plug = t.plug;
        lv_adopt(&t.term, ls, ses);
        tui_push(&t, &tui_screen_lesson, ls);
    } else {
        start_on(&t, &tui_screen_menu, menu_new(lessonfile_default_dir(), NULL));
        if (models)
            tui_push(&t, &tui_screen_models, models);
        if (train)
            tui_push(&t, &tui_screen_train, train);
    }
    int status = tui_run(&t);
    tui_class_free(t.plug);     /* after the lesson that reads its pack */
    return status;
}
