/*
 * join.c - `attn join ADDR CODE [--name NAME]` as a line client, for
 * scripts, screen readers and tests (and for any student whose stdin or
 * stdout is not a terminal). It prints
 *
 *   joined TITLE as NAME
 *   step N/M: TITLE          each step the instructor shows (0: the set-up)
 *   exercise K: QUESTION     an exercise opens
 *   closed K                 it closes
 *   ended                    the class ended (exit 0)
 *
 * and reads lines `K: ANSWER` from stdin: each is judged here through a
 * session of the class's lesson, the one judging path (session_judge_number)
 * the instructor's server uses too, and printed as `attn grade` prints it
 * (`K ✓ ANSWER: right`, `K ✗ ANSWER: MESSAGE`), then sent to the
 * instructor, who counts it for the tally. A refusal (a wrong code, a full class) prints
 * one line on stderr and exits 1; so does a connection lost.
 */
#include "cli.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "class_client.h"
#include "escape.h"
#include "session.h"
#include "lesson.h"
#include "teach.h"

static int join_usage(const char *why)
{
    char shown[2048];
    fprintf(stderr, "attn: %s\nusage: attn join ADDR CODE [--name NAME]\n"
                    "       ADDR is HOST:PORT or unix:PATH, as the instructor's screen shows it\n",
            term_escape(why, shown, sizeof shown));
    return 2;
}

typedef struct {
    ClassClient *c;
    ClassPack *pack;        /* what the class sent: the lesson reads its files (owned) */
    Session *ses;           /* the class's lesson, judging the answers (owned) */
    int open;               /* the exercise open now (0: none) */
} Joined;

static int ready(Joined *jn)
{
    LessonError err;
    jn->pack = class_client_take_pack(jn->c);
    if (!jn->pack) {
        fprintf(stderr, "attn: out of memory\n");
        return -1;
    }
    Lesson *l = class_pack_lesson(jn->pack, &err);
    if (l)
        jn->ses = session_open_lesson(l, &err);     /* takes l */
    if (!jn->ses) {
        char buf[1024];
        fprintf(stderr, "attn: the class's lesson does not open here: %s", term_lesson_error(&err, buf, sizeof buf));
        return -1;
    }
    char t[600], n[200];
    printf("joined %s as %s\n", term_escape(lesson_title(session_lesson(jn->ses)), t, sizeof t),
           term_escape(class_client_name(jn->c), n, sizeof n));
    return 0;
}

/* One line the student typed: `K: ANSWER`. */
static void answer_line(Joined *jn, char *line)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p || *p == '#')
        return;
    char *end;
    long k = strtol(p, &end, 10);
    if (end == p || *end != ':') {
        fprintf(stderr, "attn: write 'K: ANSWER', K the exercise's number\n");
        return;
    }
    char *ans = end + 1;
    while (*ans == ' ' || *ans == '\t')
        ans++;
    char shown[400];
    Judgement j;
    if (!jn->ses || k < 1 || k > lesson_n_exercises(session_lesson(jn->ses))
        || session_judge_number(jn->ses, (int)k, ans, 0, &j) != 0) {
        fprintf(stderr, "attn: there is no exercise %ld%s\n", k, jn->ses ? "" : " yet: the lesson has not arrived");
        return;
    }
    printf("%ld %s %s: %s\n", k, j.verdict == VERDICT_RIGHT ? "✓" : "✗", term_escape(ans, shown, sizeof shown),
           j.msg);
    if (k != jn->open)
        printf("%ld is not open in the class: your answer is yours, the instructor does not count it\n", k);
    else if (j.verdict != VERDICT_INVALID)
        class_client_answer(jn->c, (int)k, ans, 0);    /* judged here as written: 4 decimals */
    fflush(stdout);
}

/* One message from the class. 1 to go on, 0 when the class ended, -1 on a
 * refusal or a lost connection. */
static int from_class(Joined *jn, const ClientMsg *m)
{
    char t[CLASS_LINE_MAX * 4];
    switch (m->what) {
    case CLIENT_NOTHING:
        return 1;
    case CLIENT_READY:
        return ready(jn) == 0 ? 1 : -1;
    case CLIENT_STEP:
        printf("step %ld/%ld: %s\n", m->n, m->m, term_escape(m->text, t, sizeof t));
        break;
    case CLIENT_EXERCISE:
        jn->open = (int)m->n;
        printf("exercise %ld: %s\n", m->n, term_escape(m->text, t, sizeof t));
        break;
    case CLIENT_CLOSED:
        if (jn->open == m->n)
            jn->open = 0;
        printf("closed %ld\n", m->n);
        break;
    case CLIENT_COUNTED:
        break;      /* judged here already, by the same judge */
    case CLIENT_ENDED:
        printf("ended\n");
        fflush(stdout);
        return 0;
    case CLIENT_REFUSED:
        fprintf(stderr, "attn: the class refused to let you in: %s\n", term_escape(m->text, t, sizeof t));
        return -1;
    case CLIENT_LOST:
        fprintf(stderr, "attn: %s\n", term_escape(m->text, t, sizeof t));
        return -1;
    case CLIENT_NOTE:
        fprintf(stderr, "attn: %s\n", term_escape(m->text, t, sizeof t));
        break;
    }
    fflush(stdout);
    return 1;
}

int cli_join(int argc, char **argv)
{
    const char *addr = NULL, *code = NULL, *name = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            name = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1])
            return join_usage("unknown option");
        else if (!addr)
            addr = argv[i];
        else if (!code)
            code = argv[i];
        else
            return join_usage("join takes an address and a code");
    }
    if (!addr || !code)
        return join_usage("join needs the class's address and code");
    if (!name)
        name = getenv("USER") && getenv("USER")[0] ? getenv("USER") : "student";
    char why[600];
    Joined jn = { 0 };
    jn.c = class_client_connect(addr, code, name, why, sizeof why);
    if (!jn.c) {
        char shown[2400];   /* the address and the name, as typed */
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        return 1;
    }
    int status = 1, stdin_open = 1, go = 1;
    char typed[4096];       /* what stdin gave, not yet a whole line */
    size_t held = 0;
    /* the lesson comes within a time limit, or the wait ends (a silent
     * server once held the line client for ever) */
    double ready_by = class_now_seconds() + CLASS_READY_SECONDS;
    while (go > 0) {
        ClientMsg m;
        class_client_next(jn.c, &m);
        if (m.what != CLIENT_NOTHING) {
            go = from_class(&jn, &m);
            status = go == 0 ? 0 : 1;
            continue;
        }
        struct pollfd fds[2] = { { class_client_fd(jn.c), POLLIN, 0 }, { STDIN_FILENO, POLLIN, 0 } };
        /* answers wait in stdin until the lesson that judges them is here */
        int wait_ms = class_client_wait_ms(jn.c);
        if (!jn.ses) {
            double left = ready_by - class_now_seconds();
            if (left <= 0) {
                fprintf(stderr, "attn: the class sent no lesson within %d seconds\n", CLASS_READY_SECONDS);
                break;
            }
            wait_ms = (int)(left * 1e3) + 1;
        }
        int ready_n = poll(fds, stdin_open && jn.ses ? 2 : 1, wait_ms);
        if (ready_n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (ready_n == 0)
            continue;
        if (fds[0].revents)
            class_client_read(jn.c);
        if (stdin_open && jn.ses && fds[1].revents) {
            /* read(2), not stdio: poll must see every line stdin still holds */
            ssize_t n = read(STDIN_FILENO, typed + held, sizeof typed - 1 - held);
            if (n <= 0) {
                stdin_open = 0;     /* nothing more to answer: keep following */
                if (held > 0) {
                    typed[held] = '\0';
                    answer_line(&jn, typed);
                    held = 0;
                }
                continue;
            }
            held += (size_t)n;
            char *nl;
            while ((nl = memchr(typed, '\n', held))) {
                *nl = '\0';
                answer_line(&jn, typed);
                held -= (size_t)(nl + 1 - typed);
                memmove(typed, nl + 1, held);
            }
            if (held == sizeof typed - 1) {
                fprintf(stderr, "attn: a line of more than %zu bytes is not an answer\n", sizeof typed - 1);
                held = 0;
            }
        }
    }
    session_free(jn.ses);     /* before the pack its lesson reads */
    if (jn.pack)
        class_pack_free(jn.pack);
    free(jn.pack);
    class_client_free(jn.c);
    return status;
}
