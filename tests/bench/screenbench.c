/*
 * screenbench.c - how fast the screen answers a key: `make bench-screen`.
 * Runs attn in a pseudo-terminal (forkpty) at a given size, walks every
 * shipped lesson with the keys a person uses (next step, cursor moves, next
 * pane, explain, heatmap, a knob where there is one, an edit), and times
 * each key from the write to the last byte of the frame it brings (a frame
 * ends when the terminal stays quiet for QUIET_MS), counting the frame's
 * bytes. The same run times the pseudo-terminal's own round trip (a byte
 * through `cat`) as the yardstick, and a full repaint (Ctrl-L) against the
 * frames of single keys. Speed is reported, never asserted: a shared
 * machine is noisy.
 *
 * usage: screenbench ATTN LESSON... [--size COLSxROWS]...
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define QUIET_MS 25         /* no output for this long: the frame is done */
#define FIRST_MS 3000       /* the first frame must start by then */
#define KEY_MS 400          /* a key's frame by then, or the key drew nothing */
#define MAX_SAMPLES 4096

typedef struct {
    const char *name;
    double ms[MAX_SAMPLES];
    long bytes[MAX_SAMPLES];
    int n;
} Kind;

static int saw_knobs;      /* a frame showed the knob bar ("knobs:") */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Read what the program writes until it has been quiet for QUIET_MS after
 * its first byte (or first_ms without one). *last gets the time of the last
 * byte; returns the bytes read, 0 when nothing came, -1 at EOF. */
static long read_frame(int fd, double *last, int first_ms)
{
    char buf[65536];
    long total = 0;
    double start = now_ms();
    for (;;) {
        int wait = total ? QUIET_MS : first_ms - (int)(now_ms() - start);
        if (wait <= 0)
            return total;
        struct pollfd p = { fd, POLLIN, 0 };
        int r = poll(&p, 1, wait);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return total;
        ssize_t got = read(fd, buf, sizeof buf - 1);
        if (got <= 0)
            return total ? total : -1;
        buf[got] = '\0';
        if (strstr(buf, "knobs:"))
            saw_knobs = 1;
        total += got;
        *last = now_ms();
    }
}

static pid_t spawn(int *fd, int cols, int rows, char *const argv[], const char *state)
{
    struct winsize ws = { (unsigned short)rows, (unsigned short)cols, 0, 0 };
    pid_t pid = forkpty(fd, NULL, NULL, &ws);
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LANG", "C.UTF-8", 1);
        if (state)
            setenv("ATTN_STATE_DIR", state, 1);
        unsetenv("NO_COLOR");
        execv(argv[0], argv);
        _exit(127);
    }
    return pid;
}

static void stop(pid_t pid, int fd)
{
    kill(pid, SIGTERM);
    close(fd);
    waitpid(pid, NULL, 0);
}

/* Press key; record the time to its frame's last byte and the bytes.
 * Returns 1 when the key brought a frame. */
static int press(int fd, const char *key, Kind *k)
{
    double last = 0, t0 = now_ms();
    if (write(fd, key, strlen(key)) < 0)
        return 0;
    long b = read_frame(fd, &last, KEY_MS);
    if (b > 0 && k && k->n < MAX_SAMPLES) {
        k->ms[k->n] = last - t0;
        k->bytes[k->n++] = b;
    }
    return b > 0;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_l(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[(int)(p * (n - 1) + 0.5)];
}

/* The pseudo-terminal's round trip: a line through cat, its copy back. */
static double pty_round_trip(int samples)
{
    char *argv[] = { "/bin/cat", NULL };
    int fd;
    pid_t pid = spawn(&fd, 80, 24, argv, NULL);
    double ms[256];
    int n = 0;
    for (int k = 0; k < samples && n < 256; k++) {
        double t0 = now_ms();
        if (write(fd, "x\n", 2) != 2)    /* a line: cat reads whole lines */
            break;
        char c;
        struct pollfd p = { fd, POLLIN, 0 };
        int got = 0;
        while (poll(&p, 1, 1000) > 0 && read(fd, &c, 1) == 1)
            if (c == 'x') {     /* cat's copy (the echo of the line discipline first) */
                got++;
                if (got == 2)
                    break;
            }
        ms[n++] = now_ms() - t0;
    }
    stop(pid, fd);
    return n ? pct(ms, n, 0.5) : 0;
}

static void report(Kind *kinds, int n_kinds, double rtt, long repaint, int cols, int rows)
{
    printf("\nscreen %dx%d: key to the frame's last byte (ms), and the frame's bytes\n", cols, rows);
    printf("%-10s %6s %8s %8s %8s %8s %10s %10s %10s\n", "key", "frames", "median", "p95", "p99", "max", "x pty rtt",
           "bytes med", "bytes max");
    int total = 0;
    for (int i = 0; i < n_kinds; i++)
        total += kinds[i].n;
    double *all = malloc((size_t)(total ? total : 1) * sizeof *all);
    int n_all = 0;
    for (int i = 0; i < n_kinds; i++) {
        Kind *k = &kinds[i];
        if (k->n == 0)
            continue;
        for (int j = 0; all && j < k->n; j++)
            all[n_all++] = k->ms[j];
        double med = pct(k->ms, k->n, 0.5), p95 = pct(k->ms, k->n, 0.95), p99 = pct(k->ms, k->n, 0.99);
        double mx = pct(k->ms, k->n, 1.0);
        qsort(k->bytes, (size_t)k->n, sizeof *k->bytes, cmp_l);
        printf("%-10s %6d %8.2f %8.2f %8.2f %8.2f %10.1f %10ld %10ld\n", k->name, k->n, med, p95, p99, mx,
               rtt > 0 ? med / rtt : 0, k->bytes[k->n / 2], k->bytes[k->n - 1]);
    }
    if (all && n_all > 0)
        printf("%-10s %6d %8.2f %8.2f %8.2f %8.2f\n", "every key", n_all, pct(all, n_all, 0.5), pct(all, n_all, 0.95),
               pct(all, n_all, 0.99), pct(all, n_all, 1.0));
    free(all);
    printf("pty round trip (a byte through cat), same run: %.3f ms; a full repaint (Ctrl-L): %ld bytes\n", rtt,
           repaint);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: screenbench ATTN LESSON... [--size COLSxROWS]...\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int sizes[8][2], n_sizes = 0;
    const char *lessons[64];
    int n_lessons = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc && n_sizes < 8) {
            if (sscanf(argv[++i], "%dx%d", &sizes[n_sizes][0], &sizes[n_sizes][1]) == 2)
                n_sizes++;
        } else if (n_lessons < 64) {
            lessons[n_lessons++] = argv[i];
        }
    }
    if (n_sizes == 0) {
        sizes[0][0] = 250, sizes[0][1] = 70;
        sizes[1][0] = 80, sizes[1][1] = 24;
        n_sizes = 2;
    }
    char state[] = "/tmp/attn-screenbench-XXXXXX";
    if (!mkdtemp(state)) {
        perror("mkdtemp");
        return 2;
    }
    double rtt = pty_round_trip(200);
    for (int s = 0; s < n_sizes; s++) {
        static Kind kinds[] = { { .name = "step" }, { .name = "move" }, { .name = "pane" }, { .name = "explain" },
                                { .name = "heat" }, { .name = "knob" },
                                { .name = "edit" } };
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
            kinds[k].n = 0;
        long repaint = 0;
        for (int l = 0; l < n_lessons; l++) {
            char *av[] = { argv[1], (char *)lessons[l], NULL };
            int fd;
            char clean[512];
            snprintf(clean, sizeof clean, "rm -rf %s/*", state);
            if (system(clean) != 0)
                return 2;
            pid_t pid = spawn(&fd, sizes[s][0], sizes[s][1], av, state);
            double last;
            if (read_frame(fd, &last, FIRST_MS) <= 0) {
                fprintf(stderr, "screenbench: %s drew nothing\n", lessons[l]);
                stop(pid, fd);
                return 1;
            }
            /* an edit on the set-up screen: e, a digit, Enter times the recompute */
            press(fd, "e", NULL);
            press(fd, "2", NULL);
            press(fd, "\r", &kinds[6]);
            press(fd, "u", &kinds[6]);
            saw_knobs = 0;
            for (int step = 0; step < 12; step++) {
                press(fd, "\033OC", &kinds[1]);     /* keypad mode: application cursor keys */
                press(fd, "\033OB", &kinds[1]);
                press(fd, "\t", &kinds[2]);
                press(fd, "\r", &kinds[3]);
                press(fd, "\r", &kinds[3]);
                press(fd, "h", &kinds[4]);
                press(fd, "h", &kinds[4]);
                if (saw_knobs) {    /* the lesson has a knob bar: move its knob */
                    press(fd, ">", &kinds[5]);
                    press(fd, "<", &kinds[5]);
                }
                press(fd, "n", &kinds[0]);
            }
            if (write(fd, "\014", 1) == 1) {    /* Ctrl-L: the whole screen again */
                long b = read_frame(fd, &last, FIRST_MS);
                if (b > repaint)
                    repaint = b;
            }
            stop(pid, fd);
        }
        report(kinds, (int)(sizeof kinds / sizeof *kinds), rtt, repaint, sizes[s][0], sizes[s][1]);
    }
    char clean[512];
    snprintf(clean, sizeof clean, "rm -rf %s", state);
    return system(clean) == 0 ? 0 : 1;
}
