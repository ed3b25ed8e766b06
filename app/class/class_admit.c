/*
 * class_admit.c - who may join a class (HELLO): the protocol's version, the
 * code (wrong codes slowed per address and in total, so it cannot be
 * guessed), the name (owned by the student who took it: taking it again
 * needs its secret, proved with PROVE), the class's limits (students, the
 * bytes held for those who do not read); then the welcome, the secret,
 * the lesson and where the class stands.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "class_server_internal.h"

#define CLASS_WRONG_FREE 3              /* wrong codes an address may make at once   */
#define CLASS_WRONG_WAIT_MAX 60.0       /* then it waits 1, 2, 4 ... up to this, s   */
#define CLASS_WRONG_PER_SECOND 1.0      /* and then per second, from everyone        */

static void send_state(ClassServer *s, int c)
{
    if (s->step >= 0)
        class_peer_line(s, c, "STEP %d %d %s", s->step, s->n_steps, s->title);
    if (s->exercise > 0)
        class_peer_line(s, c, "EXERCISE %d %s", s->exercise, lesson_exercise_at(session_lesson(s->ses), s->exercise - 1)->question);
}

static int student_named(ClassServer *s, const char *name)
{
    for (int i = 0; i < s->n_students; i++)
        if (strcmp(s->students[i].name, name) == 0)
            return i;
    return -1;
}

/* A new student's secret: CLASS_SECRET_LEN hex digits from the kernel's
 * random source (never guessed from the name or the time). */
static void new_secret(char *out)
{
    unsigned char raw[CLASS_SECRET_LEN / 2];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", got == sizeof raw ? raw[i] : (unsigned)rand() & 0xff);
}

/* The wrong codes from address from, or NULL. */
static WrongFrom *wrong_from(ClassServer *s, const char *from)
{
    for (int i = 0; i < WRONG_FROM_MAX; i++)
        if (s->wrong[i].from[0] && strcmp(s->wrong[i].from, from) == 0)
            return &s->wrong[i];
    return NULL;
}

/* A record for address from: a free one, else the one whose wait ended
 * longest ago (a table of fixed size, whatever the peers send). */
static WrongFrom *wrong_add(ClassServer *s, const char *from)
{
    WrongFrom *pick = &s->wrong[0];
    for (int i = 0; i < WRONG_FROM_MAX; i++) {
        if (!s->wrong[i].from[0]) {
            pick = &s->wrong[i];
            break;
        }
        if (s->wrong[i].until < pick->until)
            pick = &s->wrong[i];
    }
    memset(pick, 0, sizeof *pick);
    snprintf(pick->from, sizeof pick->from, "%s", from);
    return pick;
}

int class_joined_count(const ClassServer *s)
{
    int n = 0;
    for (int i = 0; i < s->n_students; i++)
        n += s->students[i].conn >= 0;
    return n;
}

int class_admit_hello(ClassServer *s, int c, ClassMsg *m)
{
    long version;
    char name[4 * CLASS_NAME_MAX + 1], why[200];
    if (m->n < 3 || class_field_int(m->field[0], 0, 1000000, &version) || version != CLASS_PROTO_VERSION) {
        char says[120];
        snprintf(says, sizeof says, "this class speaks version %d of the protocol: update attn", CLASS_PROTO_VERSION);
        class_peer_refuse(s, c, says);
        return 0;
    }
    /* a guess is refused unread while its address waits, or while the
     * class has taken its share of wrong codes: a right code then too, or
     * waiting would not slow the guessing */
    double now = class_now_seconds();
    s->wrong_tokens += (now - s->wrong_at) * CLASS_WRONG_PER_SECOND;
    s->wrong_at = now;
    if (s->wrong_tokens > CLASS_WRONG_BURST)
        s->wrong_tokens = CLASS_WRONG_BURST;
    WrongFrom *w = wrong_from(s, s->conns[c].from);
    if ((w && w->until > now) || s->wrong_tokens < 1) {
        char says[200];
        snprintf(says, sizeof says, "too many wrong codes %s: try again in %d seconds",
                 w && w->until > now ? "from here" : "in this class just now",
                 w && w->until > now ? (int)ceil(w->until - now) : 2);
        class_peer_refuse(s, c, says);
        return 0;
    }
    if (strcmp(m->field[1], s->code) != 0) {
        s->wrong_tokens -= 1;
        if (!w)
            w = wrong_add(s, s->conns[c].from);
        if (w && ++w->fails >= CLASS_WRONG_FREE)
            w->until = now + fmin(CLASS_WRONG_WAIT_MAX, pow(2.0, w->fails - CLASS_WRONG_FREE));
        class_peer_refuse(s, c, "wrong code: ask the instructor for the code on the screen");
        return 0;
    }
    if (class_name_clean(m->field[2], name, sizeof name, why, sizeof why) != 0) {
        class_peer_refuse(s, c, why);
        return 0;
    }
    int st = student_named(s, name);
    /* a name belongs to the student who took it: taking it again needs its
     * secret (a second HELLO under a name once dropped that student without
     * a word and replaced their counted answers) */
    if (st >= 0 && strcmp(s->conns[c].proof, s->students[st].secret) != 0) {
        char says[300];
        snprintf(says, sizeof says, "the name %s is taken in this class: choose another with --name", name);
        class_peer_refuse(s, c, says);
        return 0;
    }
    /* the lesson waits in this peer's buffer until it reads it: refused
     * with a reason while the buffers of those not reading are full */
    size_t lesson_bytes = s->pack.len;
    for (int i = 0; i < s->pack.n_files; i++)
        lesson_bytes += s->pack.files[i].len;
    if (class_peer_held(s) + 2 * lesson_bytes > (size_t)OUT_TOTAL) {
        class_peer_refuse(s, c, "the class is busy sending the lesson to others: try again in a moment");
        return 0;
    }
    if (st < 0 && class_joined_count(s) >= CLASS_MAX_STUDENTS) {
        char says[120];
        snprintf(says, sizeof says, "the class is full (%d students)", CLASS_MAX_STUDENTS);
        class_peer_refuse(s, c, says);
        return 0;
    }
    if (st < 0) {
        Student *more = realloc(s->students, (size_t)(s->n_students + 1) * sizeof *more);
        Answer *answers = calloc((size_t)(s->n_ex > 0 ? s->n_ex : 1), sizeof *answers);
        if (!more || !answers) {
            if (more)
                s->students = more;
            free(answers);
            class_peer_refuse(s, c, "the server is out of memory");
            return 0;
        }
        s->students = more;
        st = s->n_students++;
        snprintf(s->students[st].name, sizeof s->students[st].name, "%s", name);
        new_secret(s->students[st].secret);
        s->students[st].conn = -1;
        s->students[st].answers = answers;
    } else if (s->students[st].conn >= 0) {
        class_peer_drop(s, s->students[st].conn);      /* the same student again: the old line is dead */
    }
    s->students[st].conn = c;
    s->conns[c].student = st;
    s->conns[c].hello_by = 0;
    class_peer_line(s, c, "WELCOME %d %s", CLASS_PROTO_VERSION, name);
    class_peer_line(s, c, "SECRET %s", s->students[st].secret);
    class_peer_line(s, c, "JUDGES shown");     /* SHOWN D before an answer is understood */
    class_peer_line(s, c, "FILE lesson %zu %s", s->pack.len, s->pack.name);
    class_peer_send(s, c, s->pack.text, s->pack.len);
    for (int i = 0; i < s->pack.n_files; i++) {
        class_peer_line(s, c, "FILE data %zu %s", s->pack.files[i].len, s->pack.files[i].path);
        class_peer_send(s, c, s->pack.files[i].bytes, s->pack.files[i].len);
    }
    /* where the class is, then READY: the student's answers wait for both */
    send_state(s, c);
    class_peer_line(s, c, "READY");
    return 1;
}

