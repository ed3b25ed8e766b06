/*
 * class_listen.c - where a class listens: a unix socket the group may
 * join (a stale one from a class that ended badly replaced, anything else
 * left alone), or a TCP address (port 0: the system's choice, said in the
 * join line); and the class's code (see class_server_internal.h).
 */
#include "class_server_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>

static int set_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 ? -1 : 0;
}

static int listen_unix(ClassServer *s, char *why, size_t size)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", s->addr.path);
    struct stat st;
    if (lstat(s->addr.path, &st) == 0) {
        /* a socket left by a class that ended badly may go; anything else stays */
        int probe = S_ISSOCK(st.st_mode) ? socket(AF_UNIX, SOCK_STREAM, 0) : -1;
        int alive = probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof sa) == 0;
        if (probe >= 0)
            close(probe);
        if (!S_ISSOCK(st.st_mode) || alive) {
            snprintf(why, size, "%s is in use%s", s->addr.path, alive ? " by another class" : " (not a socket)");
            return -1;
        }
        unlink(s->addr.path);
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    mode_t old = umask(007);        /* the group may join; nobody else */
    int ok = fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    umask(old);
    if (!ok || chmod(s->addr.path, 0660) != 0 || listen(fd, 128) != 0 || set_nonblocking(fd) != 0) {
        snprintf(why, size, "cannot listen on unix:%s: %s", s->addr.path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    s->listen_fd = fd;
    snprintf(s->join, sizeof s->join, "attn join unix:%s %s", s->addr.path, s->code);
    return 0;
}

static int listen_tcp(ClassServer *s, char *why, size_t size)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *res;
    char port[16];
    snprintf(port, sizeof port, "%d", s->addr.port);
    int rc = getaddrinfo(s->addr.host, port, &hints, &res);
    if (rc != 0) {
        snprintf(why, size, "cannot listen on %s:%d: %s", s->addr.host, s->addr.port, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        int one = 1;
        if (fd >= 0 && (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
                        bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 512) != 0 || set_nonblocking(fd) != 0)) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(why, size, "cannot listen on %s:%d: %s", s->addr.host, s->addr.port, strerror(err));
        return -1;
    }
    /* port 0: the one the system chose */
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
        s->addr.port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                      : ((struct sockaddr_in *)&ss)->sin_port);
    s->listen_fd = fd;
    /* an IPv6 address is joined in brackets, as it was given */
    int v6 = strchr(s->addr.host, ':') != NULL;
    snprintf(s->join, sizeof s->join, "attn join %s%s%s:%d %s", v6 ? "[" : "", s->addr.host, v6 ? "]" : "",
             s->addr.port, s->code);
    return 0;
}

int class_pick_code(ClassServer *s, const char *code, char *why, size_t size)
{
    if (code) {
        size_t n = strlen(code);
        if (n == 0 || n >= sizeof s->code || strspn(code, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != n) {
            snprintf(why, size, "a class code is 1 to %zu letters or digits", sizeof s->code - 1);
            return -1;
        }
        snprintf(s->code, sizeof s->code, "%s", code);
        return 0;
    }
    unsigned int r = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &r, sizeof r) != (ssize_t)sizeof r) {
        snprintf(why, size, "cannot draw a class code from /dev/urandom");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    snprintf(s->code, sizeof s->code, "%06u", r % 1000000u);
    return 0;
}

int class_listen(ClassServer *s, char *why, size_t size)
{
    return s->addr.is_unix ? listen_unix(s, why, size) : listen_tcp(s, why, size);
}
