/*
 * class_client.c - a student's connection to a class (see class_client.h).
 */
#include "class_client.h"
#include "filewrite.h"
#include "progress.h"

#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct ClassClient {
    int fd;
    ClassReader in;
    int eof;                /* the server closed the connection             */
    char lost[200];
    ClassPack pack;
    char name[4 * CLASS_NAME_MAX + 1];
    char addr[300];         /* as typed: where the secret is kept for       */
    /* a file arriving: its bytes still to read */
    char *file, *file_path;
    size_t file_len, file_got;
    double file_moved;      /* when the file last grew: a stalled transfer ends */
    int file_is_lesson;
    int n_files;            /* files taken so far, and their bytes: bounded  */
    size_t files_bytes;     /* on this side too, whatever a server sends      */
    /* where the class stood when this student joined: told after READY */
    int ready;
    ClientMsg held[2];
    int n_held, next_held;
    int judges_shown;       /* the server judges with the decimals shown (JUDGES shown) */
};

/* ---- the secret that proves a name is this student's ----
 * The server gives each new student a secret (SECRET); the client keeps it
 * in its state directory, one line per class address and name, and proves
 * it (PROVE) before saying HELLO again under that name. */

static const char *secrets_path(char *buf, size_t size)
{
    char dir[1024];
    if (!progress_dir(dir, sizeof dir))
        return NULL;
    snprintf(buf, size, "%s/class-secrets", dir);
    return buf;
}

/* The secret kept for (addr, name) into out (CLASS_SECRET_LEN + 1), or 0. */
static int secret_kept(const char *addr, const char *name, char *out)
{
    char path[1100], line[1024];
    FILE *f = secrets_path(path, sizeof path) ? fopen(path, "r") : NULL;
    int found = 0;
    while (f && fgets(line, sizeof line, f)) {
        char *tab1 = strchr(line, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
        if (!tab2)
            continue;
        *tab1 = *tab2 = '\0';
        line[strcspn(line, "\n")] = '\0';
        tab2[1 + strcspn(tab2 + 1, "\n")] = '\0';
        if (strcmp(line, addr) == 0 && strcmp(tab1 + 1, name) == 0 && strlen(tab2 + 1) == CLASS_SECRET_LEN) {
            snprintf(out, CLASS_SECRET_LEN + 1, "%s", tab2 + 1);
            found = 1;      /* the latest line wins */
        }
    }
    if (f)
        fclose(f);
    return found;
}

/* Keep secret for (addr, name): appended, one whole line, in the state
 * directory (made with its parents: a new account has no ~/.local/state).
 * 0, or -1 with why: a student who drops could not rejoin under this name,
 * which they are told. */
static int secret_keep(const char *addr, const char *name, const char *secret, char *why, size_t size)
{
    char path[1100], dir[1024], line[1400];
    /* one line of three fields: a name or an address that could break it
     * (a server's WELCOME is not trusted) is not kept */
    if (strpbrk(addr, "\t\r\n") || strpbrk(name, "\t\r\n"))
        return 0;
    if (!secrets_path(path, sizeof path) || !progress_dir(dir, sizeof dir)) {
        snprintf(why, size, "no state folder (set HOME, XDG_STATE_HOME or ATTN_STATE_DIR)");
        return -1;
    }
    if (filewrite_dirs(dir) != 0) {
        snprintf(why, size, "cannot make %s: %s", dir, strerror(errno));
        return -1;
    }
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0600);
    if (fd < 0) {
        snprintf(why, size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    int n = snprintf(line, sizeof line, "%s\t%s\t%s\n", addr, name, secret);
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        snprintf(why, size, "cannot write %s: it is not a regular file", path);
    else if (n <= 0 || (size_t)n >= sizeof line || filewrite_append_whole(fd, line, (size_t)n) != 0)
        snprintf(why, size, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
    else
        rc = 0;
    close(fd);
    return rc;
}

static int connect_to(const ClassAddr *a, char *why, size_t size)
{
    if (a->is_unix) {
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        snprintf(sa.sun_path, sizeof sa.sun_path, "%s", a->path);
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            snprintf(why, size, "cannot reach the class at unix:%s: %s", a->path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        return fd;
    }
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res;
    char port[16];
    snprintf(port, sizeof port, "%d", a->port);
    int rc = getaddrinfo(a->host, port, &hints, &res);
    if (rc != 0) {
        snprintf(why, size, "cannot reach the class at %s:%d: %s", a->host, a->port, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *p = res; p && fd < 0; p = p->ai_next) {
        fd = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC, p->ai_protocol);
        if (fd >= 0 && connect(fd, p->ai_addr, p->ai_addrlen) != 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        snprintf(why, size, "cannot reach the class at %s:%d: %s", a->host, a->port, strerror(err));
    return fd;
}

static int send_all(ClassClient *c, const char *bytes, size_t n)
{
    while (n > 0) {
        ssize_t w = send(c->fd, bytes, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        bytes += w;
        n -= (size_t)w;
    }
    return 0;
}

ClassClient *class_client_over(int fd, const char *addr, const char *name)
{
    ClassClient *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = fd;
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    snprintf(c->name, sizeof c->name, "%s", name);
    return c;
}

ClassClient *class_client_connect(const char *addr, const char *code, const char *name, char *why, size_t size)
{
    ClassAddr a;
    char clean[4 * CLASS_NAME_MAX + 1], reason[200];
    if (class_addr_parse(addr, &a, why, size) != 0)
        return NULL;
    if (class_name_clean(name, clean, sizeof clean, reason, sizeof reason) != 0) {
        snprintf(why, size, "the name '%.60s' cannot be used: %s", name, reason);
        return NULL;
    }
    if (strchr(code, ' ') || strchr(code, '\n') || !code[0] || strlen(code) > 64) {
        snprintf(why, size, "a class code is letters and digits, as the instructor's screen shows it");
        return NULL;
    }
    ClassClient *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    if ((c->fd = connect_to(&a, why, size)) < 0) {
        free(c);
        return NULL;
    }
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    snprintf(c->name, sizeof c->name, "%s", clean);
    char hello[CLASS_LINE_MAX], secret[CLASS_SECRET_LEN + 1];
    int n = 0;
    if (secret_kept(addr, clean, secret))    /* this name was ours in this class before */
        n = snprintf(hello, sizeof hello, "PROVE %s\n", secret);
    snprintf(hello + n, sizeof hello - (size_t)n, "HELLO %d %s %s\n", CLASS_PROTO_VERSION, code, clean);
    if (send_all(c, hello, strlen(hello)) != 0) {
        snprintf(why, size, "the class closed the connection");
        class_client_free(c);
        return NULL;
    }
    return c;
}

int class_client_fd(const ClassClient *c) { return c->fd; }

int class_client_wait_ms(const ClassClient *c)
{
    if (!c->file || c->eof)
        return -1;
    double left = c->file_moved + CLASS_STALL_SECONDS - class_now_seconds();
    return left <= 0 ? 0 : (int)(left * 1e3) + 1;
}
const char *class_client_name(const ClassClient *c) { return c->name; }
ClassPack *class_client_take_pack(ClassClient *c)
{
    ClassPack *p = malloc(sizeof *p);
    if (!p)
        return NULL;
    *p = c->pack;
    memset(&c->pack, 0, sizeof c->pack);
    return p;
}

void class_client_read(ClassClient *c)
{
    if (c->eof)
        return;
    size_t room = sizeof c->in.buf - c->in.len;
    if (room == 0)
        return;         /* whole lines wait to be taken first */
    ssize_t n = recv(c->fd, c->in.buf + c->in.len, room, 0);
    if (n > 0) {
        c->in.len += (size_t)n;
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
        c->eof = 1;
        snprintf(c->lost, sizeof c->lost, "the connection to the class was lost%s%s", n == 0 ? "" : ": ",
                 n == 0 ? "" : strerror(errno));
    }
}

/* A FILE line: where its bytes go. 0, or -1 (a message to give up on). */
static int start_file(ClassClient *c, ClassMsg *msg)
{
    long len;
    if (msg->n < 3 || class_field_int(msg->field[1], 0, CLASS_FILE_MAX, &len))
        return -1;
    /* a hostile server repeating FILE once grew a student to 768 MB */
    if (c->n_files >= CLASS_FILES_MAX || c->files_bytes + (size_t)len > (size_t)CLASS_FILES_TOTAL)
        return -1;
    c->n_files++;
    c->files_bytes += (size_t)len;
    c->file = malloc((size_t)len + 1);
    c->file_path = strdup(msg->field[2]);
    if (!c->file || !c->file_path)
        return -1;
    c->file_len = (size_t)len;
    c->file_got = 0;
    c->file_moved = class_now_seconds();
    c->file_is_lesson = strcmp(msg->field[0], "lesson") == 0;
    return 0;
}

static int finish_file(ClassClient *c)
{
    int rc = 0;
    if (c->file_is_lesson) {
        free(c->pack.text);
        free(c->pack.name);
        c->pack.text = c->file;
        c->pack.len = c->file_len;
        c->pack.name = c->file_path;
    } else {
        rc = class_pack_add(&c->pack, c->file_path, c->file, c->file_len);
        free(c->file_path);
        if (rc != 0)
            free(c->file);
    }
    c->file = c->file_path = NULL;
    return rc;
}

static void lost(ClassClient *c, ClientMsg *m, const char *why)
{
    m->what = CLIENT_LOST;
    snprintf(m->text, sizeof m->text, "%s", why);
    c->eof = 1;
}

/* A message before READY waits for it (the step and exercise open when
 * the student joined); after READY it goes out at once. 1 when m is to be
 * returned now. */
static int deliver(ClassClient *c, ClientMsg *m)
{
    if (c->ready)
        return 1;
    if (c->n_held < 2)
        c->held[c->n_held++] = *m;
    m->what = CLIENT_NOTHING;
    return 0;
}

void class_client_next(ClassClient *c, ClientMsg *m)
{
    m->what = CLIENT_NOTHING;
    m->n = m->m = 0;
    m->text[0] = '\0';
    if (c->ready && c->next_held < c->n_held) {
        *m = c->held[c->next_held++];
        return;
    }
    for (;;) {
        if (c->file) {
            size_t got = class_reader_raw(&c->in, c->file + c->file_got, c->file_len - c->file_got);
            c->file_got += got;
            if (got > 0)
                c->file_moved = class_now_seconds();
            if (c->file_got < c->file_len) {
                if (c->eof) {
                    lost(c, m, c->lost);
                } else if (class_now_seconds() - c->file_moved >= CLASS_STALL_SECONDS) {
                    /* a server that sends part of a file and then nothing
                     * once held the line client for ever */
                    char why[CLASS_LINE_MAX];
                    snprintf(why, sizeof why, "the class stopped sending %.200s part way (%zu of %zu bytes, nothing "
                             "for %d seconds)", c->file_path, c->file_got, c->file_len, CLASS_STALL_SECONDS);
                    lost(c, m, why);
                }
                return;
            }
            if (finish_file(c) != 0) {
                lost(c, m, "out of memory");
                return;
            }
        }
        char line[CLASS_LINE_MAX];
        int got = class_reader_line(&c->in, line);
        if (got < 0) {
            lost(c, m, "the class sent a line too long for the protocol");
            return;
        }
        if (got == 0) {
            if (c->eof)
                lost(c, m, c->lost);
            return;
        }
        ClassMsg msg;
        if (class_msg_parse(line, 3, &msg) != 0)
            continue;
        long a, b;
        if (strcmp(msg.verb, "WELCOME") == 0 && msg.n >= 2) {
            snprintf(c->name, sizeof c->name, "%s%s%s", msg.field[1], msg.n > 2 ? " " : "", msg.n > 2 ? msg.field[2] : "");
        } else if (strcmp(msg.verb, "JUDGES") == 0 && msg.n >= 1 && strcmp(msg.field[0], "shown") == 0) {
            c->judges_shown = 1;
        } else if (strcmp(msg.verb, "SECRET") == 0 && msg.n == 1 && strlen(msg.field[0]) == CLASS_SECRET_LEN
                   && strspn(msg.field[0], "0123456789abcdef") == CLASS_SECRET_LEN) {
            char why[1400];
            if (secret_keep(c->addr, c->name, msg.field[0], why, sizeof why) != 0) {
                m->what = CLIENT_NOTE;
                snprintf(m->text, sizeof m->text, "your place in this class is not kept (%s): if you drop out, "
                         "you rejoin under another name", why);
                return;
            }
        } else if (strcmp(msg.verb, "FILE") == 0) {
            if (start_file(c, &msg) != 0) {
                lost(c, m, "the class sent a file this client cannot take");
                return;
            }
        } else if (strcmp(msg.verb, "READY") == 0) {
            m->what = CLIENT_READY;
            c->ready = 1;
            return;
        } else if (strcmp(msg.verb, "STEP") == 0 && msg.n >= 3 && !class_field_int(msg.field[0], 0, 1 << 20, &a) &&
                   !class_field_int(msg.field[1], 0, 1 << 20, &b)) {
            m->what = CLIENT_STEP;
            m->n = a;
            m->m = b;
            snprintf(m->text, sizeof m->text, "%s", msg.field[2]);
            if (deliver(c, m))
                return;
        } else if (strcmp(msg.verb, "EXERCISE") == 0 && msg.n >= 2 && !class_field_int(msg.field[0], 1, 1 << 20, &a)) {
            m->what = CLIENT_EXERCISE;
            m->n = a;
            /* the question is the rest of the line: fields 2 and 3 */
            snprintf(m->text, sizeof m->text, "%s%s%s", msg.field[1], msg.n > 2 ? " " : "", msg.n > 2 ? msg.field[2] : "");
            if (deliver(c, m))
                return;
        } else if (strcmp(msg.verb, "CLOSED") == 0 && msg.n >= 1 && !class_field_int(msg.field[0], 1, 1 << 20, &a)) {
            m->what = CLIENT_CLOSED;
            m->n = a;
            return;
        } else if (strcmp(msg.verb, "COUNTED") == 0 && msg.n == 2 && !class_field_int(msg.field[0], 1, 1 << 20, &a)
                   && (strcmp(msg.field[1], "right") == 0 || strcmp(msg.field[1], "wrong") == 0)) {
            m->what = CLIENT_COUNTED;
            m->n = a;
            snprintf(m->text, sizeof m->text, "%s", msg.field[1]);
            return;
        } else if (strcmp(msg.verb, "ENDED") == 0) {
            m->what = CLIENT_ENDED;
            return;
        } else if (strcmp(msg.verb, "REFUSED") == 0) {
            m->what = CLIENT_REFUSED;
            snprintf(m->text, sizeof m->text, "%s%s%s%s%s", msg.n > 0 ? msg.field[0] : "the class said no",
                     msg.n > 1 ? " " : "", msg.n > 1 ? msg.field[1] : "", msg.n > 2 ? " " : "",
                     msg.n > 2 ? msg.field[2] : "");
            c->eof = 1;
            return;
        }
    }
}

int class_client_wait_ready(ClassClient *c, int timeout_ms, ClientMsg *m)
{
    /* the limit is time: a big lesson arrives in many reads, each of
     * which once counted as 50 ms (2.4 MB of data never got in) */
    double until = class_now_seconds() + timeout_ms / 1e3;
    for (;;) {
        class_client_next(c, m);
        if (m->what == CLIENT_READY)
            return 0;
        if (m->what == CLIENT_REFUSED || m->what == CLIENT_LOST)
            return -1;
        double left = until - class_now_seconds();
        if (left <= 0)
            break;
        struct pollfd p = { c->fd, POLLIN, 0 };
        if (poll(&p, 1, left < 0.05 ? (int)(left * 1e3) + 1 : 50) > 0)
            class_client_read(c);
    }
    m->what = CLIENT_LOST;
    snprintf(m->text, sizeof m->text, "the class sent no lesson within %d seconds", timeout_ms / 1000);
    return -1;
}

int class_client_answer(ClassClient *c, int k, const char *answer, int decimals)
{
    char line[CLASS_LINE_MAX + 32];
    int n = 0;
    /* the decimals the screen judged with, for a server that judges with
     * them too (it says JUDGES shown): one verdict on both sides */
    if (c->judges_shown && decimals >= 1 && decimals <= 4)
        n = snprintf(line, sizeof line, "SHOWN %d\n", decimals);
    n += snprintf(line + n, sizeof line - 1 - (size_t)n, "ANSWER %d %s", k, answer);
    if (n < 0 || (size_t)n >= sizeof line - 1)
        return -1;
    line[n++] = '\n';
    return c->eof ? -1 : send_all(c, line, (size_t)n);
}

void class_client_free(ClassClient *c)
{
    if (!c)
        return;
    if (c->fd >= 0)
        close(c->fd);
    free(c->file);
    free(c->file_path);
    class_pack_free(&c->pack);
    free(c);
}
